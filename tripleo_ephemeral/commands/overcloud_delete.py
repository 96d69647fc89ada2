"""openstack overcloud delete"""

import logging

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands.tripleoclient import overcloud as tripleoclient
from tripleo_ephemeral import heat_launcher

LOG = logging.getLogger(__name__)


class DeleteOvercloud(base.DeploymentCommand, command.ShowOne):
    """Delete an overcloud deployment: its Heat and its work dir.

    With an ephemeral Heat no stack outlives a command, so deleting means:
    stop a Heat still running for the work dir, archive what this product
    wrote there next to it (unless --no-archive) and remove that, keeping
    whatever else the work dir holds (and the directory, if it is not
    empty then); with --heat-type installed the stack is deleted on that
    Heat first. Nothing on the servers is stopped or unconfigured: power
    them off and reprovision them.
    """

    work_dir_options = options.WorkDirOptions(positional_stack=True)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        confirm.add_yes_option(parser)
        parser.add_argument(
            '--heat-type', choices=heat_launcher.heat_types(),
            help=_('installed: also delete the stack on the installed Heat '
                   '(OS_CLOUD); the ephemeral types have no stack to delete'))
        parser.add_argument(
            '--no-archive', action='store_true',
            help=_('Do not keep <stack>-deleted-<time>.tar.gz (what is '
                   'removed) next to the work dir (its passwords and dumps '
                   'are then gone)'))
        deprecated = parser.add_argument_group(
            _('Accepted and ignored (tripleoclient)'))
        deprecated.add_argument('-s', '--skip-ipa-cleanup',
                                action='store_true', help=_('Ignored'))
        deprecated.add_argument('--network-ports', action='store_true',
                                help=_('Ignored'))
        tripleoclient.add_options(parser, tripleoclient.DELETE)
        return parser

    def take_action(self, parsed_args):
        from tripleo_ephemeral.lifecycle import teardown

        self.log.debug('take_action(%s)', parsed_args)
        tripleoclient.check(parsed_args, tripleoclient.DELETE)
        workdir = self.workdir(parsed_args, existing=True)
        confirm.confirm(parsed_args, confirm.DELETE_PROMPT,
                        _('Overcloud delete'))
        with errors.user_errors('--work-dir'):
            installed = None
            if parsed_args.heat_type == 'installed':
                installed = heat_launcher.get_launcher('installed',
                                                       workdir.heat_dir)
            done = teardown.delete(workdir, installed=installed,
                                   archive=not parsed_args.no_archive)
        if done['kept']:
            self.app.stderr.write(_(
                'Kept in %(dir)s what is not this stack\'s: %(kept)s\n') % {
                    'dir': workdir.path, 'kept': ', '.join(done['kept'])})
        self.app.stderr.write(_(
            'Overcloud %(stack)s deleted: nothing on its servers was stopped '
            'or unconfigured. Power them off, save the data you need from '
            'them and reprovision them before reusing them.\n') % {
                'stack': workdir.stack})
        columns = ('stack', 'work_dir', 'archive', 'heat_stopped',
                   'installed_stack_deleted', 'removed', 'kept',
                   'work_dir_removed')
        return columns, (workdir.stack,) + tuple(
            format_columns.ListColumn(done[c]) if c == 'kept' else done.get(c)
            for c in columns[1:])
