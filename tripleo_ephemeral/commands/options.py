"""Options the commands share, and what they turn into.

``--stack``/``--work-dir`` (every command that works on a deployment), the
``--heat-*`` launcher options and the container options are defined here
once; :func:`work_dir` and :func:`build_launcher` turn them into a
:class:`~tripleo_ephemeral.workdir.WorkDir` and a launcher.
"""

import argparse
import os

from osc_lib.cli import parseractions
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.heat_launcher import state as launcher_state
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
                         work_dir_help=None, default_stack=None):
    """``--stack`` and ``--work-dir`` (alias ``--working-dir``).

    Without ``stack`` the default work dir is the default stack's. Added
    to ``group`` when given, else to a group of their own.
    """
    default_stack = default_stack or workdir.DEFAULT_STACK
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
    """The :class:`~tripleo_ephemeral.workdir.WorkDir` the options name."""
    return workdir.WorkDir(parsed_args.work_dir,
                           getattr(parsed_args, 'stack', None) or
                           workdir.DEFAULT_STACK)


# -- Heat ---------------------------------------------------------------------

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
               'ephemeral_heat.leaf_trigger_delay=0.1 (repeatable)'))
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


def container_kwargs(parsed_args):
    """Launcher keyword arguments from add_container_options' options."""
    images = podman.ContainerImages(
        default=parsed_args.heat_container_image,
        api=parsed_args.heat_container_api_image,
        engine=parsed_args.heat_container_engine_image,
        db=parsed_args.heat_container_db_image,
        bus=parsed_args.heat_container_bus_image)
    return {'images': images, 'pull': not parsed_args.skip_heat_pull,
            'engine_workers': parsed_args.heat_engine_workers}


def build_launcher(parsed_args, heat_dir, say=None, heat_type=None):
    """The launcher the ``--heat-*`` options describe, for ``heat_dir``;
    ``say`` prints its progress (the command's stderr).

    The type is ``--heat-type``, else ``heat_type`` (another option's
    choice), else the last launch's in that heat dir; without
    ``--heat-api-port`` the launcher chooses the port.
    """
    saved = launcher_state.LauncherState(heat_dir).load()
    try:
        overrides = config.parse_overrides(parsed_args.heat_config_override)
    except ValueError as exc:
        raise osc_exceptions.CommandError(
            _('--heat-config-override %s is not section.option=value') % exc)
    return heat_launcher.get_launcher(
        parsed_args.heat_type or heat_type or saved.get('heat_type') or
        'native',
        heat_dir,
        api_port=parsed_args.heat_api_port, say=say,
        tuning=launcher_tuning.Tuning(overrides=overrides),
        startup_timeout=parsed_args.heat_startup_timeout,
        debug=parsed_args.heat_debug,
        **container_kwargs(parsed_args))
