"""parameter_defaults encoded once per fast create: the same rows and
parameter values as stock Heat, on Heat's own environments, JSON column
and parameters (and a SQLite file)."""

import datetime
import types

import pytest

from tripleo_ephemeral.engine_tuning.tunings import fast_create
from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)

SHIM = 'fast_create_shared_defaults'

#: A deployment's parameter_defaults: per-node maps, text JSON escapes,
#: numbers, an empty map, a value JSON has no type for.
DEFAULTS = {
    'HostnameMap': {'overcloud-compute-%d' % n: 'compute-%d' % n
                    for n in range(30)},
    'NodePortMap': {'compute-%d' % n: {'ctlplane': {
        'ip_address': '192.0.2.%d' % n, 'ip_subnet': '192.0.2.%d/24' % n}}
        for n in range(30)},
    'Motd': 'caf\u00e9 "quoted"\n\u2603',
    'Count': 3, 'Ratio': 0.5, 'Flag': True, 'Nothing': None,
    'Empty': {}, 'Servers': ['a', 1, {'b': [None]}],
}


@pytest.fixture
def fast(install_shim, monkeypatch):
    """The shim on, and a fast create running in this thread."""
    install_shim(SHIM)
    create = types.SimpleNamespace()
    monkeypatch.setattr(fast_state.local, 'create', create, raising=False)
    return create


def _children(defaults, count=3):
    """Environments of nested stacks as Heat builds them from the root's
    (each a child of the one before), stored the way Template.store
    stores them."""
    from heat.engine import environment
    env = environment.Environment({
        'parameter_defaults': defaults, 'parameters': {'Root': 'r'},
        'resource_registry': {'My::Type': 'my.yaml'}})
    envs = []
    for n in range(count):
        env = environment.get_child_environment(
            env, {'Index': n, 'Data': {'n': [n]}}, child_resource_name='r')
        envs.append(env.env_as_dict())
    return envs


def _bound(value):
    """What Heat's JSON column writes of ``value``."""
    from heat.db import types as db_types
    return db_types.Json().process_bind_param(value, None)


def test_environments_are_encoded_as_stock_encodes_them(fast):
    from oslo_serialization import jsonutils  # stock's encoder
    envs = _children(DEFAULTS)
    for env in envs:
        assert _bound(env) == jsonutils.dumps(env)
    # the maps of every child after the first are the first's text
    assert fast.encoded_values.hits == (len(envs) - 1) * len(DEFAULTS)


def test_values_json_cannot_encode_go_the_stock_way(fast):
    from oslo_serialization import jsonutils  # stock's encoder
    odd = dict(DEFAULTS, When=datetime.datetime(2026, 11, 26, 23, 0),
               Tags={'a'})
    for env in _children(odd):
        assert _bound(env) == jsonutils.dumps(env)  # oslo's to_primitive
    assert fast.encoded_values.text(odd['When']) is None


def test_keys_that_are_not_text_go_the_stock_way(fast):
    from oslo_serialization import jsonutils  # stock's encoder
    env = _children(DEFAULTS, count=1)[0]
    env['parameter_defaults'] = dict(env['parameter_defaults'], **{})
    env['parameter_defaults'][7] = 'seven'
    assert _bound(env) == jsonutils.dumps(env)
    other = {1: 'x', 'parameter_defaults': {}}
    assert _bound(other) == jsonutils.dumps(other)


def test_other_columns_and_other_threads_are_stock(install_shim):
    from oslo_serialization import jsonutils  # stock's encoder
    install_shim(SHIM)
    env = _children(DEFAULTS, count=1)[0]
    assert fast_create.current() is None
    assert _bound(env) == jsonutils.dumps(env)
    assert _bound({'a': [1, 2]}) == '{"a": [1, 2]}'


def _parameter(name, value):
    from heat.engine import parameters
    schema = parameters.Schema.from_dict(name, {'Type': 'Json'})
    return parameters.JsonParam(name, schema, value)


def test_a_json_parameter_gets_its_own_copy_of_a_kept_value(fast):
    _bound(_children(DEFAULTS, count=1)[0])
    kept = DEFAULTS['NodePortMap']
    first = _parameter('NodePortMap', kept).parse(kept)
    assert first == kept and first is not kept
    first['compute-0']['ctlplane']['ip_address'] = 'changed'
    again = _parameter('NodePortMap', kept).parse(kept)
    assert again == kept
    assert kept['compute-0']['ctlplane']['ip_address'] == '192.0.2.0'
    assert fast.encoded_values.hits == 2


def test_a_json_parameter_of_another_value_parses_as_stock(fast):
    _bound(_children(DEFAULTS, count=1)[0])
    equal = dict(DEFAULTS['HostnameMap'])  # equal, not the kept object
    param = _parameter('HostnameMap', equal)
    assert param.parse(equal) == equal
    assert param.parse('{"a": 1}') == {'a': 1}
    assert fast.encoded_values.hits == 0
    with pytest.raises(ValueError):
        param.parse({'When': datetime.datetime(2026, 1, 1)})


def test_rows_are_those_stock_heat_writes(heat_db, install_shim,
                                          monkeypatch):
    from heat.common import context
    from heat.db import api as db_api
    from heat.engine import template

    cnxt = context.get_admin_context()
    envs = _children(DEFAULTS)

    def stored():
        texts = []
        for env in envs:
            tmpl = template.Template(
                {'heat_template_version': 'wallaby', 'resources': {}})
            row = db_api.raw_template_create(
                cnxt, {'template': tmpl.t, 'environment': env})
            with heat_db.connect() as conn:  # the text in the row
                texts.append(conn.exec_driver_sql(
                    'SELECT environment FROM raw_template WHERE id = %d'
                    % row.id).scalar())
        return texts

    stock = stored()
    install_shim(SHIM)
    create = types.SimpleNamespace()
    monkeypatch.setattr(fast_state.local, 'create', create, raising=False)
    assert stored() == stock
    assert create.encoded_values.hits
