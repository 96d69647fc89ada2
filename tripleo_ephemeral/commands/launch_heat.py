"""openstack tripleo launch heat"""

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.commands.tripleoclient import (
    standalone as tripleoclient)
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import progress
from tripleo_ephemeral import workdir
from tripleo_ephemeral.workdir import ownership

#: The flags that fix library errors (the library names the input).
_FIXES = {exceptions.AlreadyRunningError:
          _('use it, or stop it with --kill')}


#: --stack and --work-dir, whose heat dir --heat-dir overrides.
WORK_DIR = options.WorkDirOptions(
    work_dir_help=_('Work dir whose heat dir to use'))
#: What it shows of the Heat it started or stopped
#: (:class:`~tripleo_ephemeral.heat_launcher.manual.LaunchResult`).
COLUMNS = ('status', 'heat_type', 'api_url', 'heat_dir', 'pid', 'database',
           'clouds_yaml', 'dump', 'engine_tunings')


def heat_dir(parsed_args):
    """--heat-dir, else the heat dir of the --stack/--work-dir work dir;
    either must be the product's to use."""
    if not parsed_args.heat_dir:
        return WORK_DIR.read(parsed_args).heat_dir
    with errors.user_errors('--heat-dir'):
        ownership.check_heat_dir(parsed_args.heat_dir, parsed_args.stack)
    return parsed_args.heat_dir


class LaunchHeat(base.DeploymentCommand, command.ShowOne):
    """Launch an ephemeral Heat in the background, or stop it"""

    work_dir_options = WORK_DIR

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        self.work_dir_group.add_argument(
            '--heat-dir', metavar='<heat-dir>', type=options.abs_path,
            help=_('Directory for Heat\'s config, database, dumps and logs '
                   '(default: <work-dir>/%s)') % workdir.HEAT_DIR)
        options.add_heat_launcher_options(parser)
        options.add_container_options(parser)
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
        from tripleo_ephemeral.heat_launcher import manual

        self.log.debug('take_action(%s)', parsed_args)
        request = manual.LaunchRequest(
            heat_dir=heat_dir(parsed_args),
            spec=options.launcher_spec(parsed_args).replace(
                heat_type=parsed_args.heat_type or
                tripleoclient.launch_heat_type(parsed_args)),
            cloud_name=parsed_args.cloud_name,
            restore_db=parsed_args.restore_db, empty=parsed_args.empty,
            kill=parsed_args.kill)
        options.check_heat_dir(request.heat_dir)
        with errors.user_errors('--heat-dir', fixes=_FIXES), \
                interrupts.stop_in_order(_('Heat'), self.app.stderr):
            launched = manual.run(request, progress.channel(self.app.stderr))
        # A table counts the tunings in force and names the others (as a
        # deploy's does); -f json/yaml give them whole.
        return output.item_row(launched, COLUMNS, {
            'engine_tunings': output.TuningsColumn})
