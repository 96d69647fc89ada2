"""openstack overcloud config history"""

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.history import runs


class ListConfigVersions(base.DeploymentCommand, command.Lister):
    """List the versions of config-download, newest first, with the
    Ansible runs that applied (or failed to apply) each."""

    work_dir_options = options.WorkDirOptions(positional_stack=True)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--limit', metavar='<count>', type=int, default=None,
            help=_('Show only the newest <count> versions'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        wd = self.work_dir(parsed_args, existing=True)
        with errors.user_errors('--work-dir'):
            history = options.config_history(wd)
            found = history.versions(limit=parsed_args.limit)
            recorded = runs.runs(history)
            applied = history.resolve('applied')
        rows = []
        for version in found:
            ran = ['%s %s' % (r.tag, r.message) for r in recorded
                   if r.sha == version.sha]
            rows.append((version.short, version.date.isoformat(),
                         version.deploy_identifier,
                         version.command or version.subject,
                         version.sha == applied,
                         format_columns.ListColumn(ran)))
        return ('Version', 'Date', 'Deploy Identifier', 'Command',
                'Applied', 'Runs'), rows
