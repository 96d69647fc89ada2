"""SQLite's connections kept open between transactions."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import OSLO_DB
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches, sqlite_pool_size: int) -> None:
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


SHIM = Shim(
    'sqlite_pool', install, checked_on=OSLO_DB,
    options=(Option(
        'sqlite_pool_size', 'int', 0, 32, min=0,
        help='SQLite connections kept open for reuse (more are opened '
             'when needed). oslo.db opens and closes one per '
             'transaction (0 keeps that).'),),
    targets=(target(
        'oslo_db.sqlalchemy.engines._init_connection_args[sqlite]',
        'e5d2fe09d4e57c13'),))
