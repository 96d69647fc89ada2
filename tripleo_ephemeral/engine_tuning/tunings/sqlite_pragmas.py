"""The PRAGMAs of every SQLite connection: its lock wait, journal and
``synchronous``."""

import sqlite3

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim


def install(patches: Patches, sqlite_busy_timeout_ms: int,
            sqlite_journal_mode: str, sqlite_synchronous: str) -> None:
    """The lock wait, journal and ``synchronous`` of every connection."""
    from sqlalchemy import engine as sa_engine

    def on_connect(dbapi_conn, _record):
        if not isinstance(dbapi_conn, sqlite3.Connection):
            return
        cur = dbapi_conn.cursor()
        cur.execute('PRAGMA busy_timeout = %d' % sqlite_busy_timeout_ms)
        cur.execute('PRAGMA journal_mode = %s' % sqlite_journal_mode)
        cur.execute('PRAGMA synchronous = %s' % sqlite_synchronous)
        cur.close()

    patches.listen(sa_engine.Engine, 'connect', on_connect)


SHIM = Shim(
    # SQLAlchemy's public events only: nothing to fingerprint.
    'sqlite_pragmas', install, always_on=True,
    untargeted='listens to SQLAlchemy\'s documented "connect" event '
               'and runs SQLite\'s documented PRAGMAs: no code of Heat '
               'or a library is replaced',
    options=(
        Option('sqlite_busy_timeout_ms', 'int', 600000, 600000, min=0,
               help='How long a SQLite writer waits for the lock. '
                    'Every transaction takes the lock at BEGIN, so '
                    'waiting cannot deadlock; SQLite waits by polling, '
                    'not in a queue, and at 60 s a 200-member create on '
                    'an overloaded machine failed with "database is '
                    'locked".'),
        Option('sqlite_journal_mode', 'str', 'DELETE', 'WAL',
               help='PRAGMA journal_mode for SQLite databases.'),
        Option('sqlite_synchronous', 'str', 'FULL', 'NORMAL',
               help='PRAGMA synchronous for SQLite databases.')))
