"""openstack tripleo launch heat"""

import logging
import os

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import clouds
from tripleo_ephemeral.heat_launcher import manual
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands.tripleoclient import (
    standalone as tripleoclient)
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import interruption
from tripleo_ephemeral import progress
from tripleo_ephemeral import locking
from tripleo_ephemeral import workdir
from tripleo_ephemeral.workdir import ownership

LOG = logging.getLogger(__name__)

#: The flags that fix library errors (the library names the input).
_FIXES = {exceptions.AlreadyRunningError:
          _('use it, or stop it with --kill')}


#: --stack and --work-dir, whose heat dir --heat-dir overrides.
WORK_DIR = options.WorkDirOptions(
    work_dir_help=_('Work dir whose heat dir to use'))


def heat_dir(parsed_args):
    """--heat-dir, else the heat dir of the --stack/--work-dir work dir;
    either must be the product's to use."""
    if not parsed_args.heat_dir:
        return WORK_DIR.read(parsed_args).heat_dir
    with errors.user_errors('--heat-dir'):
        ownership.check_heat_dir(parsed_args.heat_dir, parsed_args.stack)
    return parsed_args.heat_dir


class LaunchHeat(base.LocalCommand, command.ShowOne):
    """Launch an ephemeral Heat in the background, or stop it"""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        options.add_heat_launcher_options(parser)
        options.add_container_options(parser)
        where = WORK_DIR.add(parser)
        where.add_argument(
            '--heat-dir', metavar='<heat-dir>', type=options.abs_path,
            help=_('Directory for Heat\'s config, database, dumps and logs '
                   '(default: <work-dir>/%s)') % workdir.HEAT_DIR)
        parser.add_argument(
            '--cloud-name', metavar='<name>', default='heat',
            type=options.name,
            help=_('Name of the clouds.yaml entry to add or update, for '
                   'OS_CLOUD (default: heat)'))
        action = parser.add_mutually_exclusive_group()
        action.add_argument(
            '--restore-db', metavar='<dump>', nargs='?', const='newest',
            help=_('Start from a database dump of the heat dir: the newest '
                   '(no value, or "newest"), the last successful deploy\'s '
                   '("last-success"), or one by its id (listed by '
                   '"openstack tripleo saved dump list")'))
        action.add_argument(
            '--empty', action='store_true',
            help=_('Start an empty Heat on a heat dir that holds a '
                   'deployment\'s dumps (they stay; an empty database is '
                   'never dumped over them)'))
        action.add_argument(
            '--kill', '-k', action='store_true',
            help=_('Stop the Heat running for the heat dir and dump its '
                   'database'))
        tripleoclient.add_launch_options(parser)
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        path = heat_dir(parsed_args)
        if parsed_args.kill:
            with errors.user_errors('--heat-dir'):
                manual.check_kill(path, [os.path.dirname(os.path.dirname(
                    path))])
        with errors.user_errors('--heat-dir', fixes=_FIXES), \
                interrupts.stop_in_order(_('Heat'), self.app.stderr), \
                locking.DirLock(path):
            launcher = options.build_launcher(
                options.launcher_spec(parsed_args).replace(
                    heat_type=parsed_args.heat_type or
                    tripleoclient.launch_heat_type(
                        parsed_args)), path,
                say=progress.channel(self.app.stderr))
            if parsed_args.kill:
                return self._kill(launcher)
            return self._launch(launcher, parsed_args)

    def _launch(self, launcher, parsed_args):
        manual.check_launch(launcher.heat_dir, parsed_args.restore_db,
                            parsed_args.empty)
        with interruption.on_force('Heat', launcher.kill), \
                interruption.activity('launching Heat'):
            launcher.start(restore_db=parsed_args.restore_db)
        self._forget_stopped()
        try:
            user_file = clouds.set_cloud(parsed_args.cloud_name,
                                         launcher.endpoint,
                                         heat_dir=launcher.heat_dir)
        except (OSError, ValueError) as exc:
            LOG.warning(_('Could not update your clouds.yaml (%s); use '
                          '%s/heatrc instead'), exc, launcher.heat_dir)
            user_file = launcher.files.clouds_file
        info = launcher.describe()
        info['status'] = 'running'
        info['clouds_yaml'] = user_file
        LOG.info(_('Heat is running: export OS_CLOUD=%(cloud)s, or source '
                   '%(rc)s'), {'cloud': parsed_args.cloud_name,
                               'rc': launcher.files.path('heatrc')})
        return self._show(info)

    def _kill(self, launcher):
        info = launcher.describe()
        endpoint = launcher.endpoint  # the stopped Heat's entry goes too
        if not launcher.is_running():
            LOG.info(_('No Heat is running for %s'), launcher.heat_dir)
            launcher.kill()  # forget a stale pid, if any
            info.update(status='not running', pid=None,
                        dump=_newest(launcher))
        else:
            with interruption.on_force('Heat', launcher.kill):
                info['dump'] = launcher.stop(dump=True)
            info.update(status='stopped', pid=None)
        self._forget_stopped(endpoint)
        return self._show(info)

    def _forget_stopped(self, endpoint=None):
        """The user's clouds.yaml entries of Heats that stopped go."""
        removed = manual.forget_stopped(endpoint)
        if removed:
            progress.channel(self.app.stderr)(
                _('Removed %(names)s from %(file)s: no Heat answers there '
                  'any more') % {'names': ', '.join(removed),
                                 'file': clouds.user_clouds_file()})

    @staticmethod
    def _show(info):
        columns = ('status', 'heat_type', 'api_url', 'heat_dir', 'pid',
                   'database', 'clouds_yaml', 'dump', 'engine_tunings')
        return columns, tuple(info.get(c) for c in columns)


def _newest(launcher):
    dumps = launcher.dumps.all()
    return dumps[0] if dumps else None
