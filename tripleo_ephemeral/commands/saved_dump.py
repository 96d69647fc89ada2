"""openstack tripleo saved dump list"""

from osc_lib.command import command

from tripleo_ephemeral.commands import base
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.commands import saved_source


class ListSavedDump(base.LocalCommand, command.Lister):
    """List the database dumps kept for a deployment, and what made each"""

    source = saved_source.SavedSource(dump=False)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        self.source.add(parser)
        return parser

    def take_action(self, parsed_args):
        columns = ('id', 'origin', 'time', 'stacks', 'kept', 'path')
        headings = ('ID', 'Origin', 'Time', 'Stacks', 'Kept', 'Path')
        store = dumps.DumpStore(self.source.work_dir(parsed_args).heat_dir)
        return headings, [tuple(g.get(c) for c in columns)
                          for g in store.generations()]
