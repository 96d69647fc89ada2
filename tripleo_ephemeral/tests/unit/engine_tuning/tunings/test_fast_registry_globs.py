"""Registry lookups with the wildcard entries listed by a comprehension:
the same entries, in the same order, as Heat's own ``iterable_by`` on a
registry of every kind of entry (and the global one)."""

import pytest

SHIM = 'fast_registry_globs'

REGISTRY = {
    'OS::TripleO::Services::Ntp': 'deployment/timesync/ntp.yaml',
    'OS::TripleO::Services::Off': 'OS::Heat::None',
    'OS::TripleO::Network::*': 'OS::Heat::None',
    'OS::TripleO::*': 'OS::Heat::None',
    'OS::TripleO::Port::*': 'OS::TripleO::Network::*',
    'my/template.yaml': 'other/template.yaml',
    'resources': {'Compute': {'OS::TripleO::Server': 'server.yaml'},
                  'Contr*': {'OS::TripleO::Server': 'OS::Heat::None'}},
}

LOOKUPS = [
    ('OS::TripleO::Services::Ntp', None), ('OS::TripleO::Services::X', None),
    ('OS::TripleO::Network::Ctlplane', None), ('OS::TripleO::Port::A', None),
    ('OS::TripleO::Server', 'Compute'), ('OS::TripleO::Server', 'Other'),
    ('my/template.yaml', None), ('new/template.yaml', 'R'),
    ('OS::Heat::None', None), ('OS::Heat::RandomString', None),
]


def _seen(env):
    """Each lookup's candidates (class, path, value) and what it found."""
    out = []
    for resource_type, name in LOOKUPS:
        found = [[(type(i).__name__, i.path, i.value)
                  for i in registry.iterable_by(resource_type, name)]
                 for registry in (env.registry, env.registry.global_registry)]
        info = env.get_resource_info(resource_type, name)
        out.append((found, type(info).__name__, info.path, str(info.value)))
    return out, sorted(env.registry._registry)


@pytest.fixture
def env():
    from heat.engine import environment
    from heat.engine import resources

    resources.initialise()
    return lambda: environment.Environment({'resource_registry': REGISTRY})


def test_lookups_are_stocks(env, install_shim):
    stock = _seen(env())
    install_shim(SHIM)
    fast = _seen(env())
    assert fast == stock
    assert any(len(found[0]) > 1 for found, *_ in stock[0])
