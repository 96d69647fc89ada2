"""openstack tripleo saved stack list

Inspect a deployment between deploys, without starting Heat: stacks and
resources come from the newest database dump (or the one ``--dump``
names), outputs from what the last deploy saved in the work dir; the dumps
kept, with what made each, from the heat dir.
"""

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import saved_source


class ListSavedStack(saved_source.SavedCommand, command.Lister):
    """List the stacks of a saved deployment, without Heat"""

    source = saved_source.SavedSource()

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--nested', action='store_true',
                            help=_('Include nested stacks'))
        return parser

    def take_action(self, parsed_args):
        columns = ('id', 'stack_name', 'stack_status', 'creation_time',
                   'updated_time')
        headings = ('ID', 'Stack Name', 'Stack Status', 'Creation Time',
                    'Updated Time')
        if parsed_args.nested:
            columns += ('parent',)
            headings += ('Parent',)
        rows = self.source.open_database(parsed_args).stacks(
            nested=parsed_args.nested)
        return headings, [tuple(r[c] for c in columns) for r in rows]
