"""openstack tripleo saved dump list"""

from osc_lib.command import command

from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.commands import saved_source


class ListSavedDump(saved_source.SavedCommand, command.Lister):
    """List the database dumps kept for a deployment, and what made each"""

    source = saved_source.SavedSource(dump=False)

    def take_action(self, parsed_args):
        columns = ('id', 'origin', 'time', 'stacks', 'kept', 'path')
        headings = ('ID', 'Origin', 'Time', 'Stacks', 'Kept', 'Path')
        store = dumps.DumpStore(self.workdir(parsed_args).heat_dir)
        return headings, [tuple(g.get(c) for c in columns)
                          for g in store.generations()]
