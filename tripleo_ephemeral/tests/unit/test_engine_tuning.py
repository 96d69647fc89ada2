"""The lazy resource definitions give what stock Heat gives, one at a time."""

import copy

import pytest

from heat.common import exception
from heat.common import identifier
from heat.engine import environment
from heat.engine import resources
from heat.engine import stk_defn
from heat.engine import template

from tripleo_ephemeral import engine_tuning

resources.initialise()

TEMPLATE = {
    'heat_template_version': 'rocky',
    'parameters': {'n': {'type': 'number', 'default': 2},
                   'flag': {'type': 'boolean', 'default': False}},
    'conditions': {'on': {'get_param': 'flag'}, 'off': {'not': 'on'}},
    'resources': {
        'a': {'type': 'OS::Heat::Value',
              'properties': {'value': {'get_param': 'n'}}},
        'b': {'type': 'OS::Heat::Value', 'depends_on': ['a'],
              'properties': {'value': {'get_attr': ['a', 'value']}}},
        'c': {'type': 'OS::Heat::Value', 'condition': 'on',
              'properties': {'value': 1}},
        'd': {'type': 'OS::Heat::Value', 'condition': 'off',
              'properties': {'value': {
                  'if': ['on', 1, {'get_resource': 'a'}]}}},
        'e': {'type': 'OS::Heat::Value', 'metadata': {'m': [1, 'x']},
              'deletion_policy': 'Retain',
              'properties': {'value': {'list_join': [
                  ',', [{'get_param': 'OS::stack_name'}, 'z']]}}},
    },
}
ENABLED = ('a', 'b', 'd', 'e')


def _definition(tmpl=TEMPLATE):
    t = template.Template(copy.deepcopy(tmpl),
                          env=environment.Environment({}))
    sid = identifier.HeatIdentifier('tenant', 'stack', 'id')
    return stk_defn.StackDefinition(None, t, sid, None)


@pytest.fixture
def lazy(monkeypatch):
    """Install the shim for one test and take it away after."""
    cls = stk_defn.StackDefinition
    for name in ('resource_definition', '_load_rsrc_defns'):
        monkeypatch.setattr(cls, name, getattr(cls, name))
    for name in ('add_resource', 'remove_resource', 'update_resource_data'):
        monkeypatch.setattr(stk_defn, name, getattr(stk_defn, name))
    monkeypatch.setattr(cls, '_tripleo_lazy', False, raising=False)
    engine_tuning.install_lazy_resource_definitions()


def test_each_definition_equals_stock():
    stock = _definition()
    eager = {name: stock.resource_definition(name) for name in ENABLED}
    lazy_defns, keep = {}, []  # functions hold weak refs to the stack
    cls = stk_defn.StackDefinition
    saved = (cls.resource_definition, cls._load_rsrc_defns,
             stk_defn.add_resource, stk_defn.remove_resource,
             stk_defn.update_resource_data)
    try:
        engine_tuning.install_lazy_resource_definitions()
        for name in reversed(ENABLED):  # any order, each on its own
            defn = _definition()
            keep.append(defn)
            lazy_defns[name] = defn.resource_definition(name)
            assert defn._resource_defns is None  # nothing else parsed
    finally:
        (cls.resource_definition, cls._load_rsrc_defns,
         stk_defn.add_resource, stk_defn.remove_resource,
         stk_defn.update_resource_data) = saved
        cls._tripleo_lazy = False
    for name in ENABLED:
        assert lazy_defns[name] == eager[name]
        assert repr(lazy_defns[name]) == repr(eager[name])
        assert lazy_defns[name].render_hot() == eager[name].render_hot()


def test_disabled_or_absent_is_a_key_error(lazy):
    defn = _definition()
    for name in ('c', 'nope'):
        with pytest.raises(KeyError):
            defn.resource_definition(name)


def test_parses_only_what_is_asked(lazy, monkeypatch):
    parsed = []
    hot = type(_definition().t)
    stock_args = hot._rsrc_defn_args

    def counting(self, stack, name, data):
        parsed.append(name)
        return stock_args(self, stack, name, data)

    monkeypatch.setattr(hot, '_rsrc_defn_args', counting)
    defn = _definition()
    first = defn.resource_definition('b')
    assert defn.resource_definition('b') is first
    assert parsed == ['b']
    # a full load later keeps the definition already handed out
    assert defn.enabled_rsrc_names() == set(ENABLED)
    assert defn.resource_definition('b') is first


def test_a_bad_resource_fails_only_when_asked_for(lazy):
    tmpl = copy.deepcopy(TEMPLATE)
    tmpl['resources']['bad'] = {'type': 'OS::Heat::Value', 'nonsense': 1}
    defn = _definition(tmpl)
    assert defn.resource_definition('a').resource_type == 'OS::Heat::Value'
    with pytest.raises(exception.StackValidationFailed):
        defn.resource_definition('bad')


def test_added_and_removed_resources_are_seen(lazy):
    defn = _definition()
    old = defn.resource_definition('a')
    stk_defn.remove_resource(defn, 'a')
    with pytest.raises(KeyError):
        defn.resource_definition('a')
    stk_defn.add_resource(defn, old)
    assert defn.resource_definition('a') == old
