"""SQLite shared by many engine threads, and the connections to it."""

import contextlib
import logging
import sqlite3
import threading
import time

LOG = logging.getLogger(__name__)

#: Waits for SQLite's write lock longer than this are logged.
SLOW_LOCK_WAIT = 5.0


#: Set in a thread while the outermost transaction it opens is oslo.db's
#: reader (its BEGIN is a plain one).
_reading = threading.local()


def install_sqlite_begin_immediate(patches):
    """Start every SQLite transaction that may write with ``BEGIN
    IMMEDIATE``; an oslo.db reader's with a plain ``BEGIN``.

    Many engine threads share one file: a transaction that takes the write
    lock at its start queues for it (``busy_timeout``) instead of failing
    with "database is locked" when it first writes. A reader (oslo.db
    refuses a write in one) needs no lock in WAL: it reads its snapshot at
    once, where waiting for the lock could take seconds, SQLite's waiters
    polling with growing sleeps while a busy writer takes the lock again
    at once.
    """
    from oslo_db.sqlalchemy import enginefacade
    from sqlalchemy import engine as sa_engine

    stock_block = enginefacade._TransactionContext._produce_block

    def _produce_block(self, mode, connection, savepoint, allow_async=False,
                       context=None):
        outermost = self.session is None and self.connection is None
        block = stock_block(self, mode, connection, savepoint, allow_async,
                            context)
        if not outermost:
            return block  # it joins a transaction already begun
        return _marked(block, self.mode is not enginefacade._WRITER)

    patches.replace(enginefacade._TransactionContext, '_produce_block',
                    _produce_block)

    def on_connect(dbapi_conn, _record):
        if isinstance(dbapi_conn, sqlite3.Connection):
            # Let SQLAlchemy's "begin" event issue BEGIN, not pysqlite.
            dbapi_conn.isolation_level = None

    def on_begin(conn):
        # oslo.db emits a plain BEGIN unless a transaction is marked open;
        # class-level listeners run before its per-engine one.
        if (conn.dialect.name == 'sqlite'
                and 'in_transaction' not in conn.info):
            if getattr(_reading, 'now', False):
                conn.exec_driver_sql('BEGIN')
                conn.info['in_transaction'] = True
                return
            started = time.monotonic()
            try:
                conn.exec_driver_sql('BEGIN IMMEDIATE')
            finally:
                waited = time.monotonic() - started
                if waited > SLOW_LOCK_WAIT:
                    LOG.warning('Waited %.1f s for the SQLite write lock',
                                waited)
            conn.info['in_transaction'] = True

    patches.listen(sa_engine.Engine, 'connect', on_connect)
    patches.listen(sa_engine.Engine, 'begin', on_begin)


@contextlib.contextmanager
def _marked(block, reading):
    """Enter oslo.db's ``block`` with this thread marked reading (or not)
    for as long as it lasts."""
    before = getattr(_reading, 'now', False)
    _reading.now = reading
    try:
        with block as inner:
            yield inner
    finally:
        _reading.now = before


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


def install_sqlite_pool(patches, sqlite_pool_size):
    """Keep SQLite connections open between transactions.

    oslo.db gives SQLite file databases a NullPool: every transaction
    opens a connection and runs the PRAGMAs above, then closes it. That was
    a seventh of the engine's time holding the GIL in a 200-member create.
    Here they come from a QueuePool of ``sqlite_pool_size`` that grows as
    needed, with no ping on checkout (a file cannot go away like a server).
    """
    from oslo_db.sqlalchemy import engines
    from sqlalchemy import pool

    stock = engines._init_connection_args

    def _init_connection_args(url, engine_args, kw):
        stock(url, engine_args, kw)
        if engine_args.get('poolclass') is pool.NullPool:
            engine_args.update(poolclass=pool.QueuePool,
                               pool_size=sqlite_pool_size, max_overflow=-1,
                               pool_pre_ping=False)
            engine_args['connect_args']['check_same_thread'] = False

    def on_checkin(_dbapi_conn, record):
        # A pooled connection outlives its transaction: never hand on the
        # marker that makes BEGIN IMMEDIATE's listener skip its BEGIN.
        if record is not None:
            record.info.pop('in_transaction', None)

    patches.replace(engines, '_init_connection_args', _init_connection_args)
    patches.listen(pool.Pool, 'checkin', on_checkin)


def install_checkin_yield(patches):
    """No ``sleep(0)`` each time oslo.db checks a connection in.

    It is there for eventlet: with real threads it only hands the
    interpreter to another thread, a thousand times a second. Must be made
    before Heat's first query.
    """
    from heat.db import api as db_api

    db_api.context_manager.configure(thread_checkin=False)

    def restore():
        if not db_api.context_manager.is_started:
            db_api.context_manager.configure(thread_checkin=True)

    patches.on_undo(restore)


#: Columns Heat looks rows up by, a nested stack at a time, that its
#: SQLite schema leaves without an index (a server database indexes a
#: foreign key's column itself): index name -> (table, column).
STACK_ID_INDEXES = {
    'ix_ephemeral_resource_stack_id': ('resource', 'stack_id'),
    'ix_ephemeral_event_stack_id': ('event', 'stack_id'),
}


def install_sqlite_stack_indexes(patches):
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
