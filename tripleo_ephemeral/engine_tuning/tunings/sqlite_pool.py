"""SQLite's connections kept open between transactions."""


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
