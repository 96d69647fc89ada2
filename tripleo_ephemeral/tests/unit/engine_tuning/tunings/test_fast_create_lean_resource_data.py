"""A fast create's resource data rows by single statements: the same rows
as stock Heat's, on Heat's real database API and a SQLite file."""

import types

from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)
# the fixture: a database, a root stack, the statements run
from tripleo_ephemeral.tests.unit.engine_tuning.tunings.test_fast_create_lean_rows import db  # noqa: F401,E501

DATA = 'fast_create_lean_resource_data'


def _resource(cnxt, stack_id, name):
    from heat.objects import resource as resource_object

    row = resource_object.Resource.create(cnxt, {
        'name': name, 'stack_id': stack_id, 'action': 'CREATE',
        'status': 'IN_PROGRESS', 'status_reason': '',
        'root_stack_id': stack_id})
    # what ResourceData.set reads of an engine resource
    return types.SimpleNamespace(context=cnxt, id=row.id)


def _writes(cnxt, stack_id, name):
    """Resource data written as a deployed server writes it, then a key
    written again; the rows as Heat reads them back, and what the caller
    got."""
    from heat.db import api as db_api
    from heat.objects import resource_data

    res = _resource(cnxt, stack_id, name)
    got = [resource_data.ResourceData.set(res, 'user_id', 'u-1'),
           resource_data.ResourceData.set(res, 'password', 's3cret',
                                          redact=True)]
    got.append(resource_data.ResourceData.set(res, 'user_id', 'u-2'))
    returned = [(row.key, row.resource_id == res.id, row.redact,
                 row.decrypt_method != '', row.id is not None)
                for row in got]
    return (db_api.resource_data_get_all(cnxt, res.id),
            db_api.resource_data_get(cnxt, res.id, 'password'), returned)


def test_resource_data_rows_are_stocks(db, install_shim):  # noqa: F811
    cnxt, root, _tmpl, statements = db
    stock = _writes(cnxt, root.id, 'stock')
    stock_statements = list(statements)
    install_shim(DATA)
    del statements[:]
    lean = _writes(cnxt, root.id, 'lean')
    assert lean == stock
    assert stock[0] == {'user_id': 'u-2', 'password': 's3cret'}
    # stock's statements (a SELECT, an INSERT: through Core, not the ORM),
    # and for the key written again one SELECT more before stock's own
    assert sorted(statements) == sorted(stock_statements + ['SELECT'])


def test_outside_a_fast_create_heat_writes_its_own(db, install_shim,  # noqa: F811,E501
                                                   monkeypatch):
    from heat.db import api as db_api

    cnxt, root, _tmpl, _statements = db
    install_shim(DATA)
    monkeypatch.setattr(fast_state.local, 'create', None)
    res = _resource(cnxt, root.id, 'stock')
    db_api.resource_data_set(cnxt, res.id, 'k', 'v')
    assert db_api.resource_data_get(cnxt, res.id, 'k') == 'v'
