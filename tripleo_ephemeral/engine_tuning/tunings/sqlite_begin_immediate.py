"""SQLite shared by many engine threads: a writer's transaction takes the
lock when it begins."""

import contextlib
import logging
import sqlite3
import threading
import time

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import OSLO_DB
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


LOG = logging.getLogger(__name__)

#: Waits for SQLite's write lock longer than this are logged.
SLOW_LOCK_WAIT = 5.0

#: Set in a thread while the outermost transaction it opens is oslo.db's
#: reader (its BEGIN is a plain one).
_reading = threading.local()


def install(patches: Patches) -> None:
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


SHIM = Shim(
    'sqlite_begin_immediate', install, off=False, checked_on=OSLO_DB,
    options=(Option(
        'sqlite_begin_immediate', 'bool', True, True,
        help='Start every SQLite transaction that may write with '
             'BEGIN IMMEDIATE so concurrent engine threads queue '
             'instead of failing with "database is locked" (an oslo.db '
             'reader\'s with a plain BEGIN: it never waits).'),),
    targets=(
        # Its BEGIN that a transaction already marked open skips.
        target('oslo_db.sqlalchemy.engines._init_events[sqlite]',
               '2022f8ed55a964de'),
        # Where a transaction's mode is known; a reader cannot write.
        target('oslo_db.sqlalchemy.enginefacade._TransactionContext.'
               '_produce_block', '26b374ab58d1a5d4'),
        target('oslo_db.sqlalchemy.enginefacade.'
               '_AbstractTransactionContext._writer',
               'e1e121ab78859066')))
