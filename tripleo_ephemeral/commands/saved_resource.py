"""openstack tripleo saved resource list"""

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import saved_source


class ListSavedResource(saved_source.SavedCommand, command.Lister):
    """List the resources of a saved stack, without Heat"""

    source = saved_source.SavedSource(stack=False)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('stack', metavar='<stack>',
                            help=_('Name or ID of the stack'))
        parser.add_argument(
            '-n', '--nested-depth', metavar='<depth>', type=int, default=0,
            help=_('Depth of nested stacks to list resources of'))
        return parser

    def take_action(self, parsed_args):
        columns = ('resource_name', 'physical_resource_id', 'resource_type',
                   'resource_status', 'stack_name')
        with errors.user_errors('--work-dir'):
            rows = self.source.open_database(parsed_args).resources(
                parsed_args.stack, nested_depth=parsed_args.nested_depth)
        if not parsed_args.nested_depth:
            columns = columns[:-1]
        return columns, [tuple(r[c] for c in columns) for r in rows]
