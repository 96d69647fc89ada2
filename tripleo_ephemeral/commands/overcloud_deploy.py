"""openstack overcloud deploy"""

import logging

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import deploy_compat
from tripleo_ephemeral.commands import deploy_request
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import tripleoclient_options
from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral.deploy import inputs as deploy_inputs
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import auto
from tripleo_ephemeral import progress
from tripleo_ephemeral import tht

LOG = logging.getLogger(__name__)

#: --templates without a value: the installed tripleo-heat-templates.
INSTALLED = deploy_request.INSTALLED


class DeployOvercloud(command.ShowOne):
    """Deploy an overcloud with an ephemeral Heat, then run config-download.

    Heat is launched, the stack is created fresh from the templates and
    environments, its outputs are rendered into an Ansible project, the
    Heat database is dumped and Heat is stopped. Everything that must
    survive lives in the work dir. Progress goes to stderr; the result
    (status, stack, counts, seconds, paths) is the command's output, so
    "-f json" gives it to a program.
    """

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        stack = options.add_work_dir_options(
            parser, group=parser.add_argument_group(_('Stack')))
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

        ansible_options.add_options(
            parser, parser.add_argument_group(_('Ansible (config-download)')),
            ssh_user_default=_('the ssh_user of each host in '
                               '--deployed-servers, else tripleo-admin'),
            ssh_key_default=_('the last deploy\'s, else ssh\'s own'),
            limit=True, tags=True, forks=True)

        options.add_heat_launcher_options(
            parser, default_type='native',
            types=heat_launcher.heat_types() + ['auto'])
        options.add_container_options(parser)
        deploy_compat.add_options(parser)
        tripleoclient_options.add_deploy_options(parser)
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        return self.deploy(deploy_request.read(parsed_args)).row()

    def deploy(self, request):
        """Run the deploy ``request`` (a
        :class:`~.deploy_request.DeployRequest`); return its result."""
        inputs = deploy_inputs.Inputs(**request.inputs_kwargs())
        say = progress.channel(self.app.stderr)
        run = deployment.Deployment(
            inputs, out=self.app.stderr,
            verbose_events=request.verbose_events,
            strict=request.strict,
            no_proxy=request.no_proxy,
            python_interpreter=request.python_interpreter,
            config_copies=request.tripleoclient.config_copies)
        with errors.user_errors('--work-dir'), \
                interrupts.stop_in_order(_('the deployment'), say):
            if request.config_download_only:
                return run.render_saved(request.ansible)
            spec = request.launcher
            if spec.heat_type == 'auto':
                spec = spec.replace(heat_type=_choose_heat_type(
                    inputs, say, spec))
            launcher = options.build_launcher(
                spec, request.workdir.heat_dir,
                say=say)
            if request.tripleoclient.stop:  # --dry-run, --setup-only
                return run.prepare_only(
                    launcher, keep=request.tripleoclient.stop == 'setup-only',
                    ansible=None if request.stack_only else request.ansible)
            return run.run(
                launcher, keep_running=request.keep_running,
                ansible=request.ansible,
                run_ansible=not request.stack_only)


def _choose_heat_type(inputs, say, spec):
    nodes, roles = inputs.size()
    heat_type, reason = auto.choose(nodes, roles, auto.pod_ready,
                                    auto.fast_create_on(
                                        list(spec.overrides),
                                        default=spec.tuning != 'stock'))
    say('--heat-type auto chose %s: %s' % (heat_type, reason))
    return heat_type
