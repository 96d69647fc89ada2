"""openstack overcloud config history"""

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.history import runs


#: How a table shows a version: its date to the minute, its command and
#: its runs' outcomes (applied, failed, partial) cut to these widths.
TABLE_DATE = '%Y-%m-%d %H:%M'
COMMAND_WIDTH = 34
RUNS_WIDTH = 22


class ListConfigVersions(base.DeploymentCommand, command.Lister):
    """List the versions of config-download, newest first, with the
    Ansible runs that applied (or failed to apply) each."""

    work_dir_options = options.WorkDirOptions(positional_stack=True)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--limit', metavar='<count>', type=int, default=None,
            help=_('Show only the newest <count> versions'))
        output.add_long_option(parser, _('the Date, Command and Runs'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        workdir = self.workdir(parsed_args, existing=True)
        with errors.user_errors('--work-dir'):
            history = options.config_history(workdir)
            found = history.versions(limit=parsed_args.limit)
            recorded = runs.runs(history)
            applied = history.resolve('applied')
        long = output.whole(parsed_args)
        rows = []
        for version in found:
            ran = [r for r in recorded if r.sha == version.sha]
            command = version.command or version.subject
            if long:
                rows.append((version.short, version.date.isoformat(),
                             version.deploy_identifier, command,
                             version.sha == applied,
                             format_columns.ListColumn(
                                 ['%s %s' % (r.tag, r.message) for r in ran])))
            else:
                rows.append((version.short,
                             version.date.strftime(TABLE_DATE),
                             output.summarised(command, False, COMMAND_WIDTH),
                             version.sha == applied,
                             output.summarised(', '.join(
                                 r.outcome for r in ran), False, RUNS_WIDTH)))
        if long:
            return ('Version', 'Date', 'Deploy Identifier', 'Command',
                    'Applied', 'Runs'), rows
        # A table: the date to the minute, the command and the runs'
        # outcomes summarised, without the deploy identifier.
        return ('Version', 'Date', 'Command', 'Applied', 'Runs'), rows
