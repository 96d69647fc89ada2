"""Options the commands share, and what they turn into.

Each group is declared here once, next to the function that reads it into
a value, once per command run: ``--stack``/``--work-dir`` (every command
that works on a deployment) into a
:class:`~tripleo_ephemeral.workdir.WorkDir` (:func:`work_dir`, or
:func:`existing_work_dir` where the deployment must exist); the
``--heat-*`` launcher and container options into a frozen
:class:`LauncherSpec` (:func:`launcher_spec`), which
:func:`build_launcher` turns into a launcher. The Ansible options are
:mod:`.ansible_options`'. Nothing here writes into ``parsed_args``.
"""

import argparse
import dataclasses
import os

from osc_lib.cli import parseractions
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_launcher import config_options
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.history import versions
from tripleo_ephemeral import workdir


def abs_path(value):
    """argparse type of every path option: ``~`` expanded, absolute."""
    return os.path.abspath(os.path.expanduser(value))


def positive_int(value):
    """argparse type: a whole number above 0."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(
            _('%s is not a whole number above 0') % value)
    return number


def port_number(value):
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _('%s is not a port number (1-65535)') % value)
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            _('%s is not a port number (1-65535)') % value)
    return port


# -- the deployment: --stack and --work-dir ---------------------------------

def add_work_dir_options(parser, stack=True, required=False, group=None,
                         work_dir_help=None, default_stack=None,
                         positional_stack=False):
    """``--stack`` and ``--work-dir`` (alias ``--working-dir``).

    Without ``stack`` the default work dir is the default stack's. Added
    to ``group`` when given, else to a group of their own. With
    ``positional_stack`` the stack may also be named as tripleoclient's
    positional argument (it wins over ``--stack``).
    """
    default_stack = default_stack or workdir.DEFAULT_STACK
    if positional_stack:
        parser.add_argument(
            'stack_name', metavar='<stack>', nargs='?',
            help=_('Name of the stack (same as --stack)'))
    if group is None:
        group = parser.add_argument_group(_('Deployment'))
    if stack:
        group.add_argument(
            '--stack', metavar='<stack>', default=default_stack,
            help=_('Name of the stack (default: %s)') % default_stack)
    what = work_dir_help or _('Directory for everything the deployment '
                              'keeps')
    if not required:
        what = _('%(what)s (default: %(default)s)') % {
            'what': what, 'default': workdir.default_path(
                '<stack>' if stack else workdir.DEFAULT_STACK)}
    group.add_argument(
        '--work-dir', '--working-dir', metavar='<work-dir>', dest='work_dir',
        type=abs_path, required=required, help=what)
    return group


def work_dir(parsed_args):
    """The :class:`~tripleo_ephemeral.workdir.WorkDir` the options name
    (the positional stack name wins over ``--stack``); a stack name Heat
    would refuse is an error."""
    stack = (getattr(parsed_args, 'stack_name', None) or
             getattr(parsed_args, 'stack', None) or workdir.DEFAULT_STACK)
    try:
        workdir.check_stack_name(stack)
    except exceptions.InputError as exc:
        raise osc_exceptions.CommandError(str(exc))
    return workdir.WorkDir(parsed_args.work_dir, stack)


def existing_work_dir(parsed_args):
    """:func:`work_dir`, which must hold a deployment already."""
    wd = work_dir(parsed_args)
    if not os.path.isdir(wd.path):
        raise osc_exceptions.CommandError(
            _('No deployment was found for %(stack)s in %(dir)s: deploy it '
              'first, or check --stack/--work-dir') % {
                  'stack': wd.stack, 'dir': wd.path})
    return wd


def config_history(wd):
    """The config-download versions of ``wd``, which must have one."""
    history = versions.ConfigHistory(wd.config_download_dir)
    try:
        history.check_sound()
    except exceptions.HistoryError as exc:
        raise osc_exceptions.CommandError(str(exc))
    if not history.head():
        raise osc_exceptions.CommandError(
            _('%(dir)s has no config-download versions: deploy the stack '
              '(--stack-only renders without running Ansible)') % {
                  'dir': wd.config_download_dir})
    return history


# -- Heat ---------------------------------------------------------------------

#: --heat-tuning's values.
HEAT_TUNINGS = ('tuned', 'stock')


def add_heat_launcher_options(parser, default_type=None, types=None,
                              type_help=None):
    """The ``--heat-*`` options, one group for every command."""
    types = types or heat_launcher.heat_types(ephemeral_only=True)
    group = parser.add_argument_group(_('Heat'))
    group.add_argument(
        '--heat-type',
        choices=types,
        default=default_type,
        help=type_help or _('How to run Heat: %(types)s (default: '
                            '%(default)s)') % {
            'types': ', '.join(types),
            'default': default_type or _('from the last launch, else native')})
    group.add_argument(
        '--heat-api-port', metavar='<port>', type=port_number, default=None,
        help=_('Port the Heat API listens on, on 127.0.0.1 (default: the '
               'last launch\'s, else %d; if that is in use, a free port, '
               'recorded in the heat dir\'s clouds.yaml and heatrc)') %
        base.DEFAULT_API_PORT)
    group.add_argument(
        '--heat-config-override', metavar='<section.option=value>',
        action='append', default=[],
        help=_('Set an option in the rendered heat.conf, e.g. '
               'DEFAULT.executor_thread_pool_size=128 or '
               'ephemeral_heat.leaf_trigger_delay=0.1 (repeatable; the '
               'option must be one the runner or Heat registers, the value '
               'of its type)'))
    group.add_argument(
        '--heat-tuning', choices=HEAT_TUNINGS, default='tuned',
        help=_('tuned: the engine tunings this project chose (default); '
               'stock: Heat as TripleO\'s launcher ran it, every tuning off '
               '(the fixes Heat needs on threads stay on; '
               '--heat-config-override still applies), to tell a problem of '
               'the tunings from one of Heat, or to compare'))
    group.add_argument(
        '--heat-startup-timeout', metavar='<seconds>', type=int,
        action=parseractions.NonNegativeAction,
        default=base.DEFAULT_STARTUP_TIMEOUT,
        help=_('Seconds to wait for Heat to become ready (default: %d)') %
        base.DEFAULT_STARTUP_TIMEOUT)
    group.add_argument(
        '--heat-debug', action='store_true',
        help=_('Log Heat at debug level'))
    return group


def add_container_options(parser):
    """The options of the container and pod Heat types."""
    group = parser.add_argument_group(_('Heat containers (container, pod)'))
    group.add_argument(
        '--heat-container-image', metavar='<image>',
        help=_('Image of every Heat container (default: the image '
               '"openstack tripleo heat image build" makes for this code)'))
    for part, what in (('api', _('the heat-api container')),
                       ('engine', _('the heat-engine container')),
                       ('db', _('the MariaDB container of a pod')),
                       ('bus', _('the RabbitMQ container of a pod'))):
        group.add_argument(
            '--heat-container-%s-image' % part, metavar='<image>',
            help=_('Image of %s (default: --heat-container-image)') % what)
    group.add_argument(
        '--heat-engine-workers', metavar='<count>', type=int, default=None,
        action=parseractions.NonNegativeAction,
        help=_('Engine processes of a pod (default: two per core, 2 to '
               '8)'))
    group.add_argument(
        '--skip-heat-pull', action='store_true',
        help=_('Do not pull remote images; use the local ones'))
    return group


@dataclasses.dataclass(frozen=True)
class LauncherSpec:
    """The Heat a command asked for, read once from the ``--heat-*`` and
    container options. ``heat_type`` None means the last launch's in the
    heat dir, else native; ``overrides`` are the raw
    ``section.option=value`` strings."""

    heat_type: str = None
    api_port: int = None
    overrides: tuple = ()
    tuning: str = 'tuned'
    startup_timeout: int = base.DEFAULT_STARTUP_TIMEOUT
    debug: bool = False
    images: podman.ContainerImages = None
    pull: bool = True
    engine_workers: int = None

    def replace(self, **changes):
        """A copy with ``changes`` (``heat_type`` chosen by auto, say)."""
        return dataclasses.replace(self, **changes)


def launcher_spec(parsed_args):
    """The :class:`LauncherSpec` of add_heat_launcher_options' and
    add_container_options' options."""
    return LauncherSpec(
        heat_type=parsed_args.heat_type,
        api_port=parsed_args.heat_api_port,
        overrides=tuple(parsed_args.heat_config_override),
        tuning=parsed_args.heat_tuning,
        startup_timeout=parsed_args.heat_startup_timeout,
        debug=parsed_args.heat_debug,
        images=podman.ContainerImages(
            default=parsed_args.heat_container_image,
            api=parsed_args.heat_container_api_image,
            engine=parsed_args.heat_container_engine_image,
            db=parsed_args.heat_container_db_image,
            bus=parsed_args.heat_container_bus_image),
        pull=not parsed_args.skip_heat_pull,
        engine_workers=parsed_args.heat_engine_workers)


def build_launcher(spec, heat_dir, say=None):
    """The launcher ``spec`` (a :class:`LauncherSpec`) describes, for
    ``heat_dir``; ``say`` prints its progress (the command's stderr).

    The type defaults to the last launch's in that heat dir; without an
    API port the launcher chooses the port.
    """
    saved = launcher_state.LauncherState(heat_dir).load()
    try:
        overrides = config.parse_overrides(list(spec.overrides))
    except ValueError as exc:
        raise osc_exceptions.CommandError(
            _('--heat-config-override %s is not section.option=value') % exc)
    try:
        config_options.check(overrides)
    except exceptions.InputError as exc:
        raise osc_exceptions.CommandError(str(exc))
    return heat_launcher.get_launcher(
        spec.heat_type or saved.get('heat_type') or 'native',
        heat_dir,
        api_port=spec.api_port, say=say,
        tuning=(launcher_tuning.Tuning.stock(overrides=overrides)
                if spec.tuning == 'stock' else
                launcher_tuning.Tuning(overrides=overrides)),
        startup_timeout=spec.startup_timeout,
        debug=spec.debug,
        images=spec.images, pull=spec.pull,
        engine_workers=spec.engine_workers)
