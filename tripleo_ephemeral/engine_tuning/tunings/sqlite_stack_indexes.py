"""The ``stack_id`` indexes SQLite's Heat schema lacks."""

import logging
import sqlite3

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim


LOG = logging.getLogger(__name__)

#: Columns Heat looks rows up by, a nested stack at a time, that its
#: SQLite schema leaves without an index (a server database indexes a
#: foreign key's column itself): index name -> (table, column).
STACK_ID_INDEXES = {
    'ix_ephemeral_resource_stack_id': ('resource', 'stack_id'),
    'ix_ephemeral_event_stack_id': ('event', 'stack_id'),
}


def install(patches: Patches) -> None:
    """Index the ``stack_id`` of resources and events in SQLite.

    Heat's models declare ``resource.stack_id`` and ``event.stack_id`` as
    foreign keys without an index. MySQL and MariaDB index a foreign key's
    column themselves; SQLite does not, so each query of one stack's
    resources or events (loading a stack, converting it to convergence,
    counting its events to prune them) scans the whole table: per nested
    stack, a cost that grows with the tree, the square of the nodes in
    all. The indexes are made on the first connection to each database
    file once its tables exist (after the migrations). The rows stay as
    they are; an index is one more entry in ``sqlite_master``, which a
    stock Heat ignores, and it stays in the database (and its dumps).
    """
    from sqlalchemy import engine as sa_engine

    indexed = set()  # database files done in this process

    def on_connect(dbapi_conn, _record):
        if not isinstance(dbapi_conn, sqlite3.Connection):
            return
        path = dbapi_conn.execute('PRAGMA database_list').fetchone()[2]
        if path in indexed:
            return
        try:
            for name, (table, column) in STACK_ID_INDEXES.items():
                dbapi_conn.execute('CREATE INDEX IF NOT EXISTS %s ON %s (%s)'
                                   % (name, table, column))
        except sqlite3.OperationalError as exc:  # no tables yet
            LOG.debug('No stack_id indexes yet in %s: %s', path, exc)
            return
        indexed.add(path)

    patches.listen(sa_engine.Engine, 'connect', on_connect)


SHIM = Shim(
    # After sqlite_pragmas: its connect listener (busy_timeout) first.
    'sqlite_stack_indexes', install,
    untargeted='listens to SQLAlchemy\'s documented "connect" event '
               'and creates two indexes with SQLite\'s CREATE INDEX IF '
               'NOT EXISTS: no code of Heat or a library is replaced',
    options=(Option(
        'sqlite_stack_indexes', 'bool', False, True,
        help='Index resource.stack_id and event.stack_id in a SQLite '
             'database (a server database indexes these foreign keys '
             'itself): without them each query of a stack\'s resources '
             'or events reads the whole table.'),))
