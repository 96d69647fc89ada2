"""A nested stack's registry copied from its parent's: the same
environment as stock Heat's ``get_child_environment`` gives, on Heat's own
environments (every kind of registry entry, hooks, restricted actions,
an entry the parent looked up in the global registry)."""

import types

import pytest

from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)

SHIM = 'fast_create_child_environment'

PARENT = {
    'parameters': {'RootOnly': 1},
    'parameter_defaults': {'NodeCount': 3, 'Map': {'a': [1, None]}},
    'resource_registry': {
        'OS::TripleO::Services::Ntp': 'deployment/timesync/ntp.yaml',
        'OS::TripleO::Services::Off': 'OS::Heat::None',
        'OS::TripleO::Network::*': 'OS::Heat::None',
        'OS::TripleO::Port::*': 'OS::TripleO::Network::*',
        'my/template.yaml': 'other/template.yaml',
        'resources': {
            'Compute': {'OS::TripleO::Server': 'server.yaml',
                        'hooks': ['pre-create', 'pre-update']},
            'Contr*': {'restricted_actions': 'replace',
                       'OS::TripleO::Server': 'OS::Heat::None'},
            'Empty': {},
        },
    },
}


def _shape(level, registry):
    """A registry level as plain data: every entry's class, path, name,
    value, owner and order."""
    from heat.engine import environment

    out = []
    for key, value in level.items():
        if isinstance(value, dict):
            out.append((key, _shape(value, registry)))
        elif isinstance(value, environment.ResourceInfo):
            out.append((key, type(value).__name__, value.path, value.name,
                        value.value, value.user_resource,
                        getattr(value, 'template_name', None),
                        value.registry is registry))
        else:
            out.append((key, 'item', value))
    return out


def _children(parent):
    """Children of ``parent`` as Heat's nested stacks get them."""
    from heat.engine import environment

    return [
        environment.get_child_environment(parent, {'Index': 2}),
        environment.get_child_environment(
            parent, {'parameters': {'Index': 3},
                     'resource_registry': {'OS::Extra': 'extra.yaml'}}),
        environment.get_child_environment(
            parent, None, item_to_remove=parent.registry._registry.get(
                'OS::TripleO::Services::Ntp'),
            child_resource_name='Compute'),
    ]


def _seen(env):
    return (_shape(env.registry._registry, env.registry), env.params,
            env.param_defaults, env.env_as_dict(), env.get_event_sinks())


@pytest.fixture
def parent(monkeypatch):
    """The parent's environment: PARENT, a class registered, and a global
    mapping it looked up (Heat then holds it as the parent's own)."""
    from heat.engine import environment
    from heat.engine import resource
    from heat.engine import resources

    resources.initialise()  # the global registry
    held = resources.global_env().registry
    alias = environment.ResourceInfo(held, ['My::Alias'], 'OS::Heat::None')
    alias.user_resource = False
    monkeypatch.setitem(held._registry, 'My::Alias', alias)
    env = environment.Environment(PARENT)
    env.register_class('My::Plugin', resource.Resource)
    env.get_resource_info('My::Alias')
    assert env.registry._registry['My::Alias'] is alias
    return env


@pytest.mark.parametrize('grandchildren', [False, True])
def test_children_are_stocks(install_shim, monkeypatch, parent,
                             grandchildren):
    stock = _children(parent)
    install_shim(SHIM)
    monkeypatch.setattr(fast_state.local, 'create',
                        types.SimpleNamespace(), raising=False)
    fast = _children(parent)
    if grandchildren:
        fast = [c for child in fast for c in _children(child)]
        monkeypatch.setattr(fast_state.local, 'create', None)
        stock = [c for child in stock for c in _children(child)]
    assert [_seen(env) for env in fast] == [_seen(env) for env in stock]
    assert fast[0].param_defaults is not parent.param_defaults


def test_outside_a_fast_create_heat_builds_its_own(
        install_shim, monkeypatch, parent):
    from heat.engine import environment

    install_shim(SHIM)
    monkeypatch.setattr(fast_state.local, 'create', None, raising=False)
    calls = []
    stock_as_dict = environment.ResourceRegistry.as_dict

    def as_dict(self):
        calls.append(self)
        return stock_as_dict(self)

    monkeypatch.setattr(environment.ResourceRegistry, 'as_dict', as_dict)
    environment.get_child_environment(parent, {'Index': 2})
    assert calls == [parent.registry]
