"""The lazy resource definitions give what stock Heat gives, one at a time."""

import copy

import pytest

from heat.common import exception
from heat.engine import stk_defn

from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.tests.unit.engine_tuning.tunings import stacks


def test_each_definition_equals_stock():
    stock = stacks.definition()
    eager = {name: stock.resource_definition(name) for name in stacks.ENABLED}
    lazy_defns, keep = {}, []  # functions hold weak refs to the stack
    cls = stk_defn.StackDefinition
    stock_resource_definition = cls.resource_definition
    assert guard.install_shim('lazy_resource_definitions') is not None
    try:
        for name in reversed(stacks.ENABLED):  # any order, each on its own
            defn = stacks.definition()
            keep.append(defn)
            lazy_defns[name] = defn.resource_definition(name)
            assert defn._resource_defns is None  # nothing else parsed
    finally:
        guard.uninstall(['lazy_resource_definitions'])
    assert cls.resource_definition is stock_resource_definition
    for name in stacks.ENABLED:
        assert lazy_defns[name] == eager[name]
        assert repr(lazy_defns[name]) == repr(eager[name])
        assert lazy_defns[name].render_hot() == eager[name].render_hot()


def test_disabled_or_absent_is_a_key_error(lazy):
    defn = stacks.definition()
    for name in ('c', 'nope'):
        with pytest.raises(KeyError):
            defn.resource_definition(name)


def test_parses_only_what_is_asked(lazy, monkeypatch):
    parsed = []
    hot = type(stacks.definition().t)
    stock_args = hot._rsrc_defn_args

    def counting(self, stack, name, data):
        parsed.append(name)
        return stock_args(self, stack, name, data)

    monkeypatch.setattr(hot, '_rsrc_defn_args', counting)
    defn = stacks.definition()
    first = defn.resource_definition('b')
    assert defn.resource_definition('b') is first
    assert parsed == ['b']
    # a full load later keeps the definition already handed out
    assert defn.enabled_rsrc_names() == set(stacks.ENABLED)
    assert defn.resource_definition('b') is first


def test_a_bad_resource_fails_only_when_asked_for(lazy):
    tmpl = copy.deepcopy(stacks.TEMPLATE)
    tmpl['resources']['bad'] = {'type': 'OS::Heat::Value', 'nonsense': 1}
    defn = stacks.definition(tmpl)
    assert defn.resource_definition('a').resource_type == 'OS::Heat::Value'
    with pytest.raises(exception.StackValidationFailed):
        defn.resource_definition('bad')


def test_added_and_removed_resources_are_seen(lazy):
    defn = stacks.definition()
    old = defn.resource_definition('a')
    stk_defn.remove_resource(defn, 'a')
    with pytest.raises(KeyError):
        defn.resource_definition('a')
    stk_defn.add_resource(defn, old)
    assert defn.resource_definition('a') == old


# -- the fast parser ---------------------------------------------------------
