"""Where the ``tripleo saved`` commands read a deployment from

The work dir (``--stack``/``--work-dir``, as every command takes them:
:class:`SavedCommand` is a
:class:`~tripleo_ephemeral.commands.base.DeploymentCommand`) and the dump
(``--dump``): the newest in the heat dir unless one is named.
"""

import dataclasses
import os

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import dump_reader
from tripleo_ephemeral import workdir


@dataclasses.dataclass(frozen=True)
class SavedSource:
    """The options of one saved command: ``--stack`` (unless not
    ``stack``: then the command's own ``<stack>`` argument names the work
    dir's stack), ``--work-dir``, ``--dump`` (unless not ``dump``)."""

    stack: bool = True
    dump: bool = True

    @property
    def work_dir_options(self):
        """Its ``--stack``/``--work-dir``."""
        return options.WorkDirOptions(
            stack=self.stack, stack_argument=None if self.stack else 'stack',
            title=_('Saved deployment'),
            work_dir_help=_('Work dir of the deployment'))

    def add_dump(self, group):
        """Add ``--dump`` (when it takes one) to ``group``, the work dir
        options' group."""
        if not self.dump:
            return
        group.add_argument(
            '--dump', metavar='<file-or-id>',
            help=_('Read this dump instead of the newest one in '
                   '<work-dir>/%s: a file, or an id of "tripleo saved dump '
                   'list" ("last-success": the last successful deploy\'s)')
            % workdir.HEAT_DIR)

    def workdir(self, parsed_args):
        """The :class:`~tripleo_ephemeral.workdir.WorkDir` the options
        name."""
        return self.work_dir_options.read(parsed_args)

    def open_database(self, parsed_args):
        """The saved database the options name (a --dump file needs no work
        dir)."""
        if parsed_args.dump and os.path.exists(parsed_args.dump):
            path = os.path.abspath(parsed_args.dump)
        else:
            heat_dir = self.workdir(parsed_args).heat_dir
            with errors.user_errors('--work-dir'):
                path = dumps.DumpStore(heat_dir).resolve(parsed_args.dump) \
                    if parsed_args.dump else os.path.join(heat_dir,
                                                          dumps.DUMP_NAME)
        with errors.user_errors('--work-dir'):
            return dump_reader.SavedDatabase.from_dump(path)


class SavedCommand(base.DeploymentCommand):
    """A ``tripleo saved`` command: its :attr:`source` says which options
    it takes."""

    source = SavedSource()

    @property
    def work_dir_options(self):
        return self.source.work_dir_options

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        self.source.add_dump(self.work_dir_group)
        return parser
