"""Fixtures shared by the unit tests."""

import pytest


@pytest.fixture
def heat_db(tmp_path):
    """Heat's database functions on a private SQLite file whose
    transactions all begin with BEGIN IMMEDIATE, as the runner's do."""
    import sqlalchemy
    from heat.db import api as db_api
    from heat.db import models
    from oslo_db.sqlalchemy import enginefacade

    factory = enginefacade._TransactionFactory()
    factory.configure(connection='sqlite:///%s' % (tmp_path / 'h.sqlite'),
                      thread_checkin=False)
    reset = db_api.context_manager.patch_factory(factory)
    engine = factory.get_writer_engine()

    @sqlalchemy.event.listens_for(engine, 'connect')
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None
        dbapi_conn.execute('PRAGMA busy_timeout = 60000')

    # On the class, as the runner's: those run before oslo.db's own BEGIN.
    def _begin(conn):
        if conn.engine is engine and 'in_transaction' not in conn.info:
            conn.exec_driver_sql('BEGIN IMMEDIATE')
            conn.info['in_transaction'] = True

    sqlalchemy.event.listen(sqlalchemy.engine.Engine, 'begin', _begin)
    models.BASE.metadata.create_all(engine)
    yield engine
    sqlalchemy.event.remove(sqlalchemy.engine.Engine, 'begin', _begin)
    reset()
    engine.dispose()


@pytest.fixture
def install_shim():
    """Install engine tuning shims for one test; take them away after.

    ``install_shim(name, **values)`` installs through the guard, so a
    target that no longer matches its fingerprint fails the test; pass
    ``check=False`` to install over a fake put in a target's place.
    """
    from tripleo_ephemeral.engine_tuning import guard

    names = []

    def install(name, check=True, **values):
        patches = guard.install_shim(name, check=check, **values)
        assert patches is not None, '%s stayed off (see the log)' % name
        names.append(name)
        return patches

    yield install
    guard.uninstall(names)
