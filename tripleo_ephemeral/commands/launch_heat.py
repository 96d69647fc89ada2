"""openstack tripleo launch heat"""

import logging
import os

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import clouds
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral import locking

LOG = logging.getLogger(__name__)

DEFAULT_HEAT_DIR = os.path.join('~', 'overcloud-deploy', 'overcloud',
                                'heat-launcher')


def build_launcher(parsed_args, heat_dir):
    """A launcher for ``heat_dir``.

    Type and port default to the last launch.
    """
    saved = launcher_state.LauncherState(heat_dir).load()
    try:
        overrides = config.parse_overrides(parsed_args.heat_config_override)
    except ValueError as exc:
        raise osc_exceptions.CommandError(
            _('--heat-config-override %s is not section.option=value') % exc)
    return heat_launcher.get_launcher(
        parsed_args.heat_type or saved.get('heat_type') or 'native',
        heat_dir,
        api_port=(parsed_args.heat_api_port or saved.get('api_port') or
                  base.DEFAULT_API_PORT),
        tuning=launcher_tuning.Tuning(overrides=overrides),
        startup_timeout=parsed_args.heat_startup_timeout,
        debug=parsed_args.heat_debug,
        **options.container_kwargs(parsed_args))


class LaunchHeat(command.ShowOne):
    """Launch an ephemeral Heat in the background, or stop it"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        options.add_heat_launcher_options(parser)
        options.add_container_options(parser)
        parser.add_argument(
            '--heat-dir', metavar='<heat-dir>',
            type=options.heat_dir_path,
            default=options.heat_dir_path(DEFAULT_HEAT_DIR),
            help=_('Directory for Heat\'s config, database, dumps and logs '
                   '(default: %s)') % DEFAULT_HEAT_DIR)
        parser.add_argument(
            '--cloud-name', metavar='<name>', default='heat',
            help=_('Name of the clouds.yaml entry to add or update, for '
                   'OS_CLOUD (default: heat)'))
        action = parser.add_mutually_exclusive_group()
        action.add_argument(
            '--restore-db', action='store_true',
            help=_('Start from the newest database dump in the heat dir'))
        action.add_argument(
            '--kill', action='store_true',
            help=_('Stop the Heat running for the heat dir and dump its '
                   'database'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        with errors.user_errors('--heat-dir'), \
                interrupts.stop_in_order(_('Heat')), \
                locking.DirLock(parsed_args.heat_dir):
            launcher = build_launcher(parsed_args, parsed_args.heat_dir)
            if parsed_args.kill:
                return self._kill(launcher)
            return self._launch(launcher, parsed_args)

    def _launch(self, launcher, parsed_args):
        launcher.start(restore_db=parsed_args.restore_db)
        try:
            user_file = clouds.set_cloud(parsed_args.cloud_name,
                                         launcher.endpoint)
        except (OSError, ValueError) as exc:
            LOG.warning(_('Could not update your clouds.yaml (%s); use '
                          '%s/heatrc instead'), exc, launcher.heat_dir)
            user_file = launcher.clouds_file
        info = launcher.describe()
        info['status'] = 'running'
        info['clouds_yaml'] = user_file
        LOG.info(_('Heat is running: export OS_CLOUD=%(cloud)s, or source '
                   '%(rc)s'), {'cloud': parsed_args.cloud_name,
                               'rc': launcher.path('heatrc')})
        return self._show(info)

    def _kill(self, launcher):
        info = launcher.describe()
        if not launcher.is_running():
            LOG.info(_('No Heat is running for %s'), launcher.heat_dir)
            launcher.kill()  # forget a stale pid, if any
            info.update(status='not running', pid=None,
                        dump=_newest(launcher))
            return self._show(info)
        info['dump'] = launcher.stop(dump=True)
        info.update(status='stopped', pid=None)
        return self._show(info)

    @staticmethod
    def _show(info):
        columns = ('status', 'heat_type', 'api_url', 'heat_dir', 'pid',
                   'database', 'clouds_yaml', 'dump')
        return columns, tuple(info.get(c) for c in columns)


def _newest(launcher):
    dumps = launcher.dumps.all()
    return dumps[0] if dumps else None
