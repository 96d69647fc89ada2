"""Yaql results kept during a fast create: Heat's own Yaql function."""

import types

import pytest

from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)

EXPRESSION = '$.data.roles.select({name => $, n => len($)})'


def _yaql(expression=EXPRESSION, roles=('Controller', 'Compute')):
    from heat.engine.hot import functions
    return functions.Yaql(None, 'yaql', {'expression': expression,
                                         'data': {'roles': list(roles)}})


@pytest.fixture
def evaluations(install_shim, monkeypatch):
    """The fast create of this thread, the shim on, and the expressions
    yaql really evaluated."""
    from heat.engine.hot import functions

    parsed = []
    stock_parse = functions.Yaql._parse

    def parse(self, expression):
        parsed.append(expression)
        return stock_parse(self, expression)

    monkeypatch.setattr(functions.Yaql, '_parse', parse)
    install_shim('fast_create_yaql_cache')
    fast = types.SimpleNamespace()
    monkeypatch.setattr(fast_state.local, 'create', fast, raising=False)
    return fast, parsed


def test_the_same_data_gives_a_copy_of_the_first_result(evaluations):
    fast, parsed = evaluations
    first = _yaql().result()
    again = _yaql().result()
    assert first == again == [{'name': 'Controller', 'n': 10},
                              {'name': 'Compute', 'n': 7}]
    assert again is not first and again[0] is not first[0]
    assert parsed == [EXPRESSION]       # evaluated once
    again[0]['name'] = 'changed'        # a caller's change stays its own
    assert _yaql().result() == first
    assert len(fast.yaql_results) == 1


def test_other_data_or_types_are_evaluated(evaluations):
    _fast, parsed = evaluations
    _yaql(roles=('A',)).result()
    _yaql(roles=('B',)).result()
    assert _yaql('$.data.roles', roles=(1,)).result() == [1]
    assert _yaql('$.data.roles', roles=(True,)).result() == [True]
    assert _yaql('$.data.roles', roles=(1.0,)).result() == [1.0]
    assert len(parsed) == 5


def test_the_clock_is_always_read(evaluations):
    _fast, parsed = evaluations
    for _ in range(2):
        _yaql('now().year').result()
    assert parsed == ['now().year'] * 2


def test_outside_a_fast_create_every_result_is_evaluated(evaluations,
                                                         monkeypatch):
    _fast, parsed = evaluations
    monkeypatch.setattr(fast_state.local, 'create', None)
    _yaql().result()
    _yaql().result()
    assert parsed == [EXPRESSION] * 2


def test_data_marshal_does_not_take_is_told_apart_by_its_repr():
    from tripleo_ephemeral.engine_tuning.tunings import (
        fast_create_yaql_cache as yaql_cache)

    class Text(str):
        pass

    assert yaql_cache._digest({'a': [1]}) == yaql_cache._digest({'a': [1]})
    assert len({yaql_cache._digest(v) for v in (
        [1], [1.0], [True], {'a': 1, 'b': 2}, {'b': 2, 'a': 1},
        [Text('x')], ['x'], [Text('y')])}) == 8


def test_equal_data_share_a_digest_however_their_parts_are_shared():
    from tripleo_ephemeral.engine_tuning.tunings import (
        fast_create_yaql_cache as yaql_cache)

    part = {'service_names': ['nova_compute', 'ovn_controller']}
    shared = {'Compute': part, 'Other': part, 'held': [part] * 3}
    copied = {'Compute': dict(part), 'Other': {'service_names': [
        'nova_' + 'compute', 'ovn_controller']}, 'held': [
        {'service_names': list(part['service_names'])} for _ in range(3)]}
    assert shared == copied
    assert yaql_cache._digest(shared) == yaql_cache._digest(copied)


def test_yaqls_input_converted_as_yaql_converts_it(install_shim):
    import collections

    from yaql.language import utils

    class Text(str):
        pass

    data = {'a': [1, 2.5, None, True, 'x', Text('y'), ('t', ['u'])],
            'b': {'c': {'d': []}}, 'e': {1, 2}, 'f': collections.OrderedDict(
                g=[{'h': 'i'}])}
    stock = utils.convert_input_data(data)
    install_shim('fast_yaql_input')
    fast = utils.convert_input_data(data)
    assert fast == stock and hash(fast) == hash(stock)
    assert type(fast['a']) is tuple and type(fast['a'][5]) is Text
    assert utils.convert_input_data('s') == 's'
