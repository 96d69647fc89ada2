"""Where the ``tripleo saved`` commands read a deployment from

The work dir (``--stack``/``--work-dir``) and the dump (``--dump``): the
newest in the heat dir unless one is named.
"""

import os

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import dump_reader
from tripleo_ephemeral import workdir


def add_options(parser, stack=True, dump=True):
    """``--stack`` (unless not ``stack``), ``--work-dir``, ``--dump``."""
    group = options.add_work_dir_options(
        parser, stack=stack, group=parser.add_argument_group(
            _('Saved deployment')),
        work_dir_help=_('Work dir of the deployment'))
    if not dump:
        return
    group.add_argument(
        '--dump', metavar='<file-or-id>',
        help=_('Read this dump instead of the newest one in '
               '<work-dir>/%s: a file, or an id of "tripleo saved dump '
               'list" ("last-success": the last successful deploy\'s)')
        % workdir.HEAT_DIR)


def open_database(parsed_args):
    """The saved database the options name (a --dump file needs no work
    dir)."""
    if parsed_args.dump and os.path.exists(parsed_args.dump):
        path = os.path.abspath(parsed_args.dump)
    else:
        heat_dir = options.work_dir(parsed_args).heat_dir
        with errors.user_errors('--work-dir'):
            path = dumps.DumpStore(heat_dir).resolve(parsed_args.dump) \
                if parsed_args.dump else os.path.join(heat_dir,
                                                      dumps.DUMP_NAME)
    with errors.user_errors('--work-dir'):
        return dump_reader.SavedDatabase.from_dump(path)
