"""SQLite's missing stack_id indexes, made on Heat's own tables (a SQLite
file): found by the queries of one stack's resources and events, the rows
and results unchanged."""

from tripleo_ephemeral.engine_tuning.tunings import sqlite_stack_indexes

SHIM = 'sqlite_stack_indexes'
QUERIES = ("SELECT * FROM resource WHERE stack_id = 's'",
           "SELECT count(*) FROM event WHERE stack_id = 's'")


def _plans(engine):
    with engine.connect() as conn:
        return [' '.join(str(row[-1]) for row in conn.exec_driver_sql(
            'EXPLAIN QUERY PLAN ' + query)) for query in QUERIES]


def _indexes(engine):
    with engine.connect() as conn:
        return sorted(row[0] for row in conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND "
            "name LIKE 'ix_ephemeral_%'"))


def test_a_stacks_resources_and_events_are_found_by_index(heat_db,
                                                          install_shim):
    assert [plan.startswith('SCAN') for plan in _plans(heat_db)] == [
        True, True]
    install_shim(SHIM)
    heat_db.dispose()  # the next connection is a new one
    assert _indexes(heat_db) == sorted(sqlite_stack_indexes.STACK_ID_INDEXES)
    plans = _plans(heat_db)
    assert 'ix_ephemeral_resource_stack_id' in plans[0]
    assert 'ix_ephemeral_event_stack_id' in plans[1]


def test_a_database_without_tables_gets_them_later(tmp_path, install_shim):
    import sqlalchemy
    from heat.db import models

    install_shim(SHIM)
    engine = sqlalchemy.create_engine(
        'sqlite:///%s' % (tmp_path / 'new.sqlite'),
        poolclass=sqlalchemy.pool.NullPool)
    assert _indexes(engine) == []  # no tables yet: nothing made, no error
    models.BASE.metadata.create_all(engine)  # the migrations
    assert _indexes(engine) == sorted(sqlite_stack_indexes.STACK_ID_INDEXES)
    engine.dispose()


def test_the_rows_and_results_are_the_same(heat_db, install_shim):
    from heat.common import context
    from heat.db import api as db_api

    cnxt = context.get_admin_context()
    tmpl = db_api.raw_template_create(cnxt, {
        'template': {}, 'files': {}, 'environment': {}})
    stack = db_api.stack_create(cnxt, {
        'name': 's', 'raw_template_id': tmpl.id, 'username': 'u',
        'tenant': 't', 'action': 'CREATE', 'status': 'COMPLETE',
        'status_reason': '', 'nested_depth': 0, 'disable_rollback': True,
        'parameters': {}})
    for name in ('a', 'b'):
        db_api.resource_create(cnxt, {'name': name, 'stack_id': stack.id})

    def found():
        return sorted(r.name for r in db_api.resource_get_all_active_by_stack(
            cnxt, stack.id).values())

    stock = found()
    install_shim(SHIM)
    heat_db.dispose()
    assert found() == stock == ['a', 'b']
