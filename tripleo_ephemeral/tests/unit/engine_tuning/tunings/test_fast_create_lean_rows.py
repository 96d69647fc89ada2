"""A fast create's rows by single statements: the same rows and objects as
stock Heat's, on Heat's real database API and a SQLite file."""

import types

import pytest
import sqlalchemy

from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)
from tripleo_ephemeral.engine_tuning import guard

ROWS = 'fast_create_lean_rows'
STACKS = 'fast_create_lean_stacks'
#: Values of a row that differ on every write.
FRESH = ('id', 'uuid', 'created_at', 'updated_at', 'stack', 'data',
         'attr_data', 'rsrc_prop_data', 'raw_template', 'name')


@pytest.fixture
def db(heat_db, monkeypatch):
    """An admin context, a root stack, the statements run, and a fast
    create running in this thread."""
    from heat.common import context
    from heat.db import api as db_api

    cnxt = context.get_admin_context()
    tmpl = db_api.raw_template_create(cnxt, {
        'template': {'heat_template_version': 'wallaby'}, 'files': {},
        'environment': {}})
    root = db_api.stack_create(cnxt, {
        'name': 'root', 'raw_template_id': tmpl.id, 'username': 'u',
        'tenant': 't', 'action': 'CREATE', 'status': 'IN_PROGRESS',
        'status_reason': '', 'nested_depth': 0, 'disable_rollback': True,
        'parameters': {}})
    statements = []

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement.split()[0].upper())

    sqlalchemy.event.listen(heat_db, 'before_cursor_execute', count)
    monkeypatch.setattr(fast_state.local, 'create',
                        types.SimpleNamespace(nested={}), raising=False)
    yield cnxt, root, tmpl.id, statements
    sqlalchemy.event.remove(heat_db, 'before_cursor_execute', count)


def _plain(row, skip=FRESH):
    return {k: v for k, v in dict(row).items() if k not in skip}


def _writes(cnxt, stack_id, name):
    """A resource created, its properties and attributes stored, the ways
    Heat does; its row and the objects the callers got."""
    from heat.db import api as db_api
    from heat.objects import resource as resource_object
    from heat.objects import resource_properties_data as rpd

    res = resource_object.Resource.create(cnxt, {
        'name': name, 'stack_id': stack_id, 'action': 'INIT',
        'status': 'COMPLETE', 'status_reason': 'r' * 300,
        'rsrc_metadata': {'m': [1]}, 'needed_by': [], 'requires': [3, 1],
        'current_template_id': 7, 'root_stack_id': stack_id})
    props = rpd.ResourcePropertiesData.create(cnxt, {'p': {'q': [1, 'x']}})
    attr_id = resource_object.Resource.store_attributes(
        cnxt, res.id, res.atomic_key, {'a': 'b'}, None)
    again = resource_object.Resource.store_attributes(
        cnxt, res.id, res.atomic_key, {'a': 'c'}, None)  # a stale key
    keyed = resource_object.Resource.store_attributes(
        cnxt, res.id, 1, {'a': 'd'}, attr_id)  # its key now, its row
    row = db_api.resource_get(cnxt, res.id)
    return {
        'object': {f: res[f] for f in res.fields
                   if f not in FRESH and f != 'data'},
        'created': res.created_at is not None and res.uuid is not None,
        'props': (props.data, props.created_at is not None),
        'attr': attr_id is not None, 'stale': again,
        'keyed': keyed == attr_id,
        'row': _plain(row, FRESH + ('attr_data_id',)),
        'attr_row': row.attr_data.data,
        'props_row': db_api.resource_prop_data_get(cnxt, props.id).data}


def test_resource_rows_are_stocks(db, install_shim):
    cnxt, root, _tmpl, statements = db
    stock = _writes(cnxt, root.id, 'stock')
    stock_statements = list(statements)
    install_shim(ROWS)
    del statements[:]
    lean = _writes(cnxt, root.id, 'lean')
    assert lean == stock
    assert stock['attr'] and stock['stale'] is None and stock['keyed']
    assert stock['row']['atomic_key'] == 2
    # the same statements (without the ORM around them)
    assert sorted(statements) == sorted(stock_statements)


def test_outside_a_fast_create_heat_writes_its_own(db, install_shim,
                                                   monkeypatch):
    cnxt, root, _tmpl, _statements = db
    install_shim(ROWS)
    monkeypatch.setattr(fast_state.local, 'create', None)
    assert _writes(cnxt, root.id, 'stock')['attr']


def test_a_template_row_is_stocks(db, install_shim):
    from heat.db import api as db_api

    cnxt, _root, _tmpl, _statements = db
    values = {'template': {'heat_template_version': 'wallaby',
                           'resources': {'a': {'type': 'T'}}},
              'files_id': None, 'environment': {'parameters': {'x': 1}}}
    rows = []
    for lean in (False, True):
        if lean:
            install_shim(ROWS)
        created = db_api.raw_template_create(cnxt, dict(values))
        rows.append((_plain(created), _plain(
            db_api.raw_template_get(cnxt, created.id))))
    assert rows[0] == rows[1]


def _stack(cnxt, root, tmpl_id, name):
    from heat.objects import stack as stack_object

    return stack_object.Stack.create(cnxt, {
        'name': name, 'raw_template_id': tmpl_id, 'owner_id': root.id,
        'username': 'u', 'tenant': cnxt.project_id, 'action': 'CREATE',
        'status': 'IN_PROGRESS', 'status_reason': '', 'nested_depth': 1,
        'disable_rollback': True, 'current_deps': {}, 'convergence': False})


def test_a_stack_row_and_its_name_check_are_stocks(db, install_shim):
    from heat.common import exception
    from heat.db import api as db_api
    from heat.objects import stack as stack_object

    cnxt, root, tmpl_id, statements = db
    stock = _stack(cnxt, root, tmpl_id, 'stock-a')
    install_shim(STACKS)
    del statements[:]
    assert stack_object.Stack.get_by_name(cnxt, 'lean-a') is None
    lean = _stack(cnxt, root, tmpl_id, 'lean-a')
    assert statements.count('SELECT') == 2  # ids only: no row, no template

    def fields(obj):
        return {f: obj.get(f) for f in obj.fields
                if f not in FRESH + ('raw_template_obj', 'prev_raw_template')}

    assert fields(lean) == fields(stock) and 'owner_id' in fields(lean)
    assert (_plain(db_api.stack_get(cnxt, lean.id)) ==
            _plain(db_api.stack_get(cnxt, stock.id)))
    found = stack_object.Stack.get_by_name(cnxt, 'lean-a')
    assert found.id == lean.id and found.raw_template.id == tmpl_id
    with pytest.raises(exception.StackExists):
        _stack(cnxt, root, tmpl_id, 'lean-a')
    from heat.db import models
    with db_api.context_manager.reader.using(cnxt) as session:
        assert session.query(models.Stack).filter_by(
            name='lean-a').count() == 1


def test_a_nested_stacks_state_and_root(db, install_shim, monkeypatch):
    """Its state written with one UPDATE, the event after it; its root
    answered from its owner's once known."""
    from heat.db import api as db_api
    from heat.engine.notification import stack as notification
    from heat.engine import stack as heat_stack
    from heat.objects import event as event_object

    monkeypatch.setattr(notification, 'send', lambda stack: None)

    cnxt, root, tmpl_id, statements = db
    rows = []
    for name in ('stock', 'lean'):
        if name == 'lean':
            install_shim('lean_database_writes')
            install_shim(STACKS)
        created = _stack(cnxt, root, tmpl_id, name)
        nested = heat_stack.Stack.load(cnxt, stack_id=created.id)
        del statements[:]
        nested.state_set(nested.CREATE, nested.IN_PROGRESS, 'going')
        nested.state_set(nested.CREATE, nested.COMPLETE, 'done')
        nested.persist_state_and_release_lock(None)
        writes = list(statements)
        del statements[:]
        assert nested.root_stack_id() == root.id
        looked_up = statements.count('SELECT')
        row = db_api.stack_get(cnxt, created.id)
        events = sorted((e.resource_action, e.resource_status,
                         e.resource_status_reason) for e in
                        event_object.Event.get_all_by_stack(cnxt, nested.id))
        rows.append((_plain(row, FRESH + ('current_traversal',)), events,
                     writes.count('SELECT'), looked_up))
    (stock, stock_events, stock_reads, _), (lean, lean_events, reads,
                                            looked) = rows
    assert lean == stock and lean_events == stock_events
    assert stock['status'] == 'COMPLETE' and len(stock_events) == 2
    assert reads == 0 < stock_reads
    assert looked == 1  # the owner's root once, by stock's walk


def test_a_converted_stack_is_stored_as_stock_stores_it(db, install_shim):
    from heat.db import api as db_api
    from heat.engine import stack as heat_stack

    cnxt, root, tmpl_id, _statements = db
    rows = []
    for name in ('stock', 'lean'):
        if name == 'lean':
            install_shim(STACKS)
        nested = heat_stack.Stack.load(
            cnxt, stack_id=_stack(cnxt, root, tmpl_id, name).id)
        nested.convergence = True
        nested.current_traversal = 'trav'
        nested.current_deps = {'edges': [[[1, True], None]]}
        nested.status_reason = 'x' * 300
        assert nested.store(ignore_traversal_check=True) == nested.id
        nested.current_traversal = 'other'
        assert nested.store(exp_trvsl='elsewhere') is None  # not updated
        rows.append(_plain(db_api.stack_get(cnxt, nested.id)))
    assert rows[0] == rows[1]
    assert rows[0]['convergence'] and rows[0]['current_traversal'] == 'trav'
    guard.uninstall([STACKS])
