"""``overcloud deploy``'s options, read once into a deploy request, and
running it.

:func:`add_options` declares the options of ``overcloud deploy`` (and of
``update|upgrade prepare``, which take the same); :func:`read` turns their
parsed values into a frozen
:class:`~tripleo_ephemeral.deploy.request.DeployRequest`: the deploy's
inputs, how to report, what to run, the Heat
(:class:`~tripleo_ephemeral.heat_launcher.spec.LauncherSpec`) and the
Ansible options, with ``--answers-file`` merged in and ``--templates``
without a value resolved. :func:`run` runs a request as a command does: its
errors and signals become the one-line error; :func:`show` is its result as
the command prints it. Nothing writes into ``parsed_args``.
"""

import argparse
import functools
from typing import Any
from typing import TextIO
from typing import TYPE_CHECKING

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.commands.tripleoclient import deploy as deploy_compat
from tripleo_ephemeral.commands.tripleoclient import overcloud as tripleoclient
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral import progress
from tripleo_ephemeral import tht
from tripleo_ephemeral import workdir as workdir_mod

if TYPE_CHECKING:  # the library is imported where it is used
    from tripleo_ephemeral.deploy import request as request_mod
    from tripleo_ephemeral.deploy import result as result_mod
    from tripleo_ephemeral import lap_clock

#: --templates without a value: the installed tripleo-heat-templates.
INSTALLED = object()


#: ``--stack``/``--work-dir`` of the deploy commands, in the "Stack" group.
WORK_DIR = options.WorkDirOptions(title=_('Stack'))
#: The Ansible options of the deploy commands.
ANSIBLE = ansible_options.AnsibleArguments(limit=True, tags=True, forks=True)
#: The columns of a deploy's result, in their order.
COLUMNS = ('status', 'stack', 'stack_id', 'stack_status', 'resources',
           'stack_seconds', 'ansible_seconds', 'work_dir',
           'config_download', 'dump', 'archive', 'config_version',
           'undeployed_changes', 'phase_seconds', 'engine_tunings')
#: The columns a table summarises (:func:`show`), and how.
SUMMARISED = {'engine_tunings': output.TuningsColumn,
              'phase_seconds': output.PhasesColumn,
              'undeployed_changes': output.ChangesColumn}


def add_options(parser: argparse.ArgumentParser,
                stack: argparse._ArgumentGroup) -> None:
    """The options of ``overcloud deploy``, in their groups: ``stack`` is
    the group of its :data:`WORK_DIR` options."""
    stack.add_argument(
        '--templates', metavar='<templates-dir>', nargs='?',
        const=INSTALLED, default=None, type=options.abs_path,
        help=_('The template set; without a value, the installed '
               'tripleo-heat-templates (%(dirs)s; "openstack tripleo '
               'templates install" puts them there); without the '
               'option, the bundled sample templates') % {
                   'dirs': ', then '.join(tht.candidates())})
    stack.add_argument(
        '-e', '--environment-file', metavar='<file>', action='append',
        dest='environment_files', default=[],
        type=options.abs_path,
        help=_('Environment file, applied in the order given '
               '(repeatable)'))
    stack.add_argument(
        '--environment-directory', metavar='<dir>', action='append',
        dest='environment_directories', default=[],
        type=options.abs_path,
        help=_('Directory of environment files, applied in name order '
               'before the -e files (repeatable)'))
    stack.add_argument(
        '-r', '--roles-file', metavar='<file>',
        type=options.abs_path,
        help=_('Roles data (default: roles_data.yaml of the templates)'))
    stack.add_argument(
        '-n', '--networks-file', metavar='<file>',
        type=options.abs_path,
        help=_('Networks data, v2 (default: network_data_default.yaml '
               'of the templates: no isolated networks)'))
    stack.add_argument(
        '--vip-file', metavar='<file>', type=options.abs_path,
        help=_('VIP data: "- network: internal_api" entries with an '
               'optional ip_address (default: vip_data_default.yaml of '
               'the templates; VIPs of vip: true networks it leaves out '
               'are added)'))
    stack.add_argument(
        '--deployed-servers', metavar='<file>',
        type=options.abs_path,
        help=_('YAML of role -> hosts (hostname, ctlplane_ip, optional '
               'ctlplane_cidr: the control plane as a prefix length or '
               'CIDR, default /24, /64 for IPv6; optional networks: '
               '{<name_lower>: <ip>}) of the already deployed servers; '
               'addresses not given are allocated from the allocation '
               'pools and kept in the work dir'))
    stack.add_argument(
        '-t', '--timeout', metavar='<minutes>', type=options.positive_int,
        default=240,
        help=_('Stack create timeout in minutes (default: 240)'))
    stack.add_argument(
        '--disable-validations', action='store_true',
        help=_('Skip the checks against the last deployment\'s saved '
               'state'))
    stack.add_argument(
        '--skip-check', metavar='<check-id>', action='append',
        dest='skip_checks', default=[],
        help=_('Skip one pre-deploy check by its id (repeatable; an '
               'unknown id is an error listing the known ones); see '
               'tripleo_ephemeral/deploy/check_rules.yaml'))
    stack.add_argument(
        '--disable-container-prepare', action='store_true',
        help=_('Send tripleo-common\'s default container image '
               'parameters only: no ContainerImagePrepare is applied '
               '(set your Container*Image parameters in an environment '
               'file)'))
    stack.add_argument(
        '--strict', action='store_true',
        help=_('Fail on a parameter an environment sets that no '
               'template declares (default: warn)'))
    stack.add_argument(
        '--verbose-events', action='store_true',
        help=_('Print the events of nested stacks too'))

    mode = parser.add_argument_group(_('What to run'))
    only = mode.add_mutually_exclusive_group()
    only.add_argument(
        '--stack-only', '--no-config-download', dest='stack_only',
        action='store_true',
        help=_('Create the stack and render config-download, but do not '
               'run Ansible'))
    only.add_argument(
        '--config-download-only', action='store_true',
        help=_('Without Heat: render config-download again from the '
               'saved stack outputs and run it'))
    mode.add_argument(
        '--keep-running', action='store_true',
        help=_('Leave Heat running after the deploy, for debugging; stop '
               'it with "openstack tripleo launch heat --work-dir '
               '<work-dir> --kill"'))

    output.add_long_option(mode, _(
        'phase_seconds, engine_tunings and undeployed_changes'))

    ANSIBLE.add(
        parser, parser.add_argument_group(_('Ansible (config-download)')),
        ssh_user_default=_('the last successful deploy\'s, else the '
                           'ssh_user of each host in --deployed-servers, '
                           'else tripleo-admin'),
        ssh_key_default=_('the last successful deploy\'s, else ssh\'s own'))

    options.add_heat_launcher_options(
        parser, default_type='native',
        types=heat_launcher.heat_types() + ['auto'])
    options.add_container_options(parser)
    deploy_compat.add_options(parser)
    tripleoclient.add_deploy_options(parser)


def read(parsed_args: argparse.Namespace,
         workdir: workdir_mod.WorkDir) -> 'request_mod.DeployRequest':
    """The :class:`~tripleo_ephemeral.deploy.request.DeployRequest` of
    :func:`add_options`' options for ``workdir`` (what :data:`WORK_DIR`
    read), with ``--answers-file`` merged in and ``--templates`` without a
    value resolved to the installed templates."""
    from tripleo_ephemeral.deploy import request as request_mod

    given = deploy_compat.apply_answers(parsed_args)
    compat = tripleoclient.read_deploy(
        parsed_args, parsed_args.config_download_only)
    templates = given['templates']
    if templates is INSTALLED:
        with errors.user_errors('--templates'):
            templates = tht.find()
    return request_mod.DeployRequest(
        workdir=workdir,
        templates=templates,
        environment_files=tuple(given['environment_files']),
        environment_directories=tuple(parsed_args.environment_directories),
        roles_file=given['roles_file'],
        networks_file=given['networks_file'],
        vip_file=parsed_args.vip_file,
        deployed_servers=parsed_args.deployed_servers,
        timeout=parsed_args.timeout,
        disable_validations=(parsed_args.disable_validations or
                             not compat.checks_fatal),
        skip_checks=tuple(parsed_args.skip_checks),
        disable_container_prepare=parsed_args.disable_container_prepare,
        skip_deploy_identifier=parsed_args.skip_deploy_identifier,
        parameters=compat.parameters,
        generate_passwords=compat.generate_passwords,
        verbose_events=parsed_args.verbose_events,
        strict=parsed_args.strict or compat.warnings_fatal,
        no_proxy=parsed_args.no_proxy,
        python_interpreter=parsed_args.deployment_python_interpreter,
        config_copies=compat.config_copies,
        stack_only=parsed_args.stack_only,
        config_download_only=parsed_args.config_download_only,
        keep_running=parsed_args.keep_running,
        stop=compat.stop,
        launcher=options.launcher_spec(parsed_args),
        ansible=ANSIBLE.read(
            parsed_args,
            skip_tags=ansible_options.skip_tags(
                parsed_args.skip_tags, parsed_args.inflight_validations),
            timeout=parsed_args.config_download_timeout,
            override_cfg=parsed_args.override_ansible_cfg))


def run(request: 'request_mod.DeployRequest', out: TextIO,
        phases: 'lap_clock.Phases | None' = None) -> 'result_mod.Result':
    """Deploy ``request``
    (:func:`tripleo_ephemeral.deploy.pipeline.run`), progress to ``out``
    (the command's stderr), its seconds per phase on ``phases`` (a
    :class:`~tripleo_ephemeral.lap_clock.Phases` started when the command
    did); return its result. A heat dir Heat would
    misread (:func:`~.options.check_heat_dir`), a library error, a signal
    or a forced stop is the one-line CommandError."""
    from tripleo_ephemeral.deploy import pipeline

    say = progress.channel(out)
    if not request.config_download_only:  # Heat runs in its heat dir
        options.check_heat_dir(request.workdir.heat_dir)
    with errors.user_errors('--work-dir'), \
            interrupts.stop_in_order(_('the deployment'), say):
        return pipeline.run(request, out=out, phases=phases)


def show(result: 'result_mod.Result',
         long: bool = False) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """``(columns, values)`` of a deploy's
    :class:`~tripleo_ephemeral.deploy.result.Result`, as the deploy
    commands return it: the :data:`SUMMARISED` columns summarised in a
    table unless ``long`` (``--long``), whole in ``-f json``/``-f yaml``."""
    return output.item_row(result, COLUMNS, {
        column: functools.partial(formatter, long=long)
        for column, formatter in SUMMARISED.items()})
