"""The PRAGMAs of every SQLite connection: its lock wait, journal and
``synchronous``."""

import sqlite3


def install_sqlite_pragmas(patches, sqlite_busy_timeout_ms,
                           sqlite_journal_mode, sqlite_synchronous):
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
