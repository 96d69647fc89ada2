"""SQLite pooling, the checkin sleep and atomic sync points."""


from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.tests import sync_point_load


def test_sqlite_pool_keeps_connections_and_no_transaction_marker(
        install_shim, tmp_path):
    from oslo_db.sqlalchemy import engines
    from sqlalchemy import pool
    install_shim('sqlite_pool', sqlite_pool_size=4)
    install_shim('sqlite_pool', sqlite_pool_size=4)  # a second is a no-op
    engine = engines.create_engine('sqlite:///%s' % (tmp_path / 'h.sqlite'),
                                   max_retries=0)
    assert isinstance(engine.pool, pool.QueuePool)
    assert not engine.pool._pre_ping
    with engine.connect() as conn:
        first = conn.connection.dbapi_connection
        conn.info['in_transaction'] = True    # what _on_begin leaves
    with engine.connect() as conn:
        assert conn.connection.dbapi_connection is first   # reused
        assert 'in_transaction' not in conn.info
    # MySQL and the like keep the pool oslo.db gives them.
    args = {'connect_args': {}}
    engines._init_connection_args(
        engines.utils.make_url('mysql+pymysql://u@127.0.0.1/heat'), args, {})
    assert args.get('poolclass') is not pool.QueuePool
    engine.dispose()


def test_sqlite_pool_size_0_keeps_oslo_dbs_null_pool(tmp_path):
    from oslo_db.sqlalchemy import engines
    from sqlalchemy import pool
    opts = {'sqlite_pool_size': 0}
    assert not registry.shim('sqlite_pool').enabled(opts)
    engine = engines.create_engine('sqlite:///%s' % (tmp_path / 'h.sqlite'),
                                   max_retries=0)
    assert isinstance(engine.pool, pool.NullPool)
    engine.dispose()


# -- the database facade and sync points ------------------------------------

def test_atomic_sync_points_never_race(heat_db, install_shim):
    """Read and write in one BEGIN IMMEDIATE transaction: no write is
    refused, so nobody sleeps before a retry, and nothing is lost."""
    install_shim('atomic_sync_points')
    install_shim('atomic_sync_points')  # a second is a no-op
    merged, writes, refused, predecessors = (
        sync_point_load.sync_from_threads())
    assert set(merged) == predecessors
    assert refused == 0 and writes == len(predecessors)


def test_atomic_sync_point_falls_back_when_raced(heat_db, monkeypatch,
                                                 install_shim):
    """A database that does not lock on BEGIN (MySQL) can still race:
    then the transaction is rolled back and Heat's own retry runs."""
    from heat.common import context
    from heat.engine import sync_point
    stock_write = sync_point.update_input_data
    refused = []

    def write_once_refused(*args, **kwargs):
        if not refused:
            refused.append(args)
            return 0
        return stock_write(*args, **kwargs)

    monkeypatch.setattr(sync_point, 'update_input_data', write_once_refused)
    install_shim('atomic_sync_points', check=False)  # over the fake
    cnxt = context.get_admin_context()
    sync_point.create(cnxt, 'stack-id', 'trav', True, 'stack-id')
    data, _failures, _skip = sync_point.update_sync_point(
        cnxt, 'stack-id', 'trav', True, {('a', True)}, {('a', True): 1})
    assert data == {('a', True): 1} and len(refused) == 1
    stored = sync_point.get(cnxt, 'stack-id', 'trav', True)
    assert stored.atomic_key == 1


def test_configure_database_drops_the_checkin_sleep(monkeypatch):
    """oslo.db's sleep(0) after each transaction is for eventlet."""
    import types

    from heat.db import api as db_api
    from oslo_db.sqlalchemy import enginefacade
    from oslo_db.sqlalchemy import engines
    import sqlalchemy

    for checkin_yield in (False, True):
        factory = enginefacade._TransactionFactory()
        factory.configure(connection='sqlite://')
        reset = db_api.context_manager.patch_factory(factory)
        try:
            guard.install(types.SimpleNamespace(checkin_yield=checkin_yield),
                          stage='database')
            engine = factory.get_writer_engine()
            assert sqlalchemy.event.contains(
                engine, 'checkin', engines._thread_yield) is checkin_yield
            engine.dispose()
        finally:
            guard.uninstall(['checkin_yield'])
            reset()


# -- referenced attributes ----------------------------------------------------


# -- BEGIN IMMEDIATE for writers, BEGIN for readers ---------------------------

def test_a_reader_does_not_wait_for_a_writer(tmp_path, install_shim):
    """While a transaction that writes holds SQLite's lock (a fast create's
    slice, say), oslo.db readers read at once; a writer waits for it."""
    import threading

    from heat.common import context
    from heat.db import api as db_api
    from heat.db import models
    from oslo_db.sqlalchemy import enginefacade

    install_shim('sqlite_pragmas', sqlite_busy_timeout_ms=60000,
                 sqlite_journal_mode='WAL', sqlite_synchronous='NORMAL')
    install_shim('sqlite_begin_immediate')
    factory = enginefacade._TransactionFactory()
    factory.configure(connection='sqlite:///%s' % (tmp_path / 'h.sqlite'),
                      thread_checkin=False)
    reset = db_api.context_manager.patch_factory(factory)
    try:
        engine = factory.get_writer_engine()
        models.BASE.metadata.create_all(engine)
        cnxt = context.get_admin_context()
        tmpl = db_api.raw_template_create(
            cnxt, {'template': {'heat_template_version': 'a'},
                   'files': {}})
        holding, release, wrote = (threading.Event(), threading.Event(),
                                   [])

        def writer():
            other = context.get_admin_context()
            with db_api.context_manager.writer.using(other):
                db_api.raw_template_update(
                    other, tmpl.id, {'template': {
                        'heat_template_version': 'b'}})
                holding.set()
                release.wait(30)

        def second_writer():
            other = context.get_admin_context()
            db_api.raw_template_update(
                other, tmpl.id, {'template': {'heat_template_version': 'c'}})
            wrote.append(True)

        first = threading.Thread(target=writer)
        first.start()
        assert holding.wait(30)
        second = threading.Thread(target=second_writer)
        second.start()
        # the reader sees the last committed row, at once
        read = db_api.raw_template_get(cnxt, tmpl.id)
        assert read.template == {'heat_template_version': 'a'}
        second.join(0.5)
        assert wrote == []  # the writer queues for the lock
        release.set()
        first.join(30)
        second.join(30)
        assert wrote == [True]
        assert db_api.raw_template_get(cnxt, tmpl.id).template == {
            'heat_template_version': 'c'}
    finally:
        reset()
        engine.dispose()
