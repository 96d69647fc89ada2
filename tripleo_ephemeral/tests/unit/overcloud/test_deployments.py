"""Which deployments reach which server, by which name, in which order."""

from tripleo_ephemeral.overcloud import deployments
from tripleo_ephemeral.tests.unit import fakes

T0, T1 = '2024-01-01T00:00:00Z', '2024-01-01T00:00:01Z'


def _heat(deps, resources=()):
    listed = [{k: v for k, v in d.items() if k != 'config'} for d in deps]
    configs = {d['config_id']: d['config'] for d in deps}
    return fakes.FakeHeat(fakes.outputs(), listed, configs, resources)


def test_deployments_to_the_servers():
    heat = _heat([fakes.deployment('d2', 's-c0', 'B', creation_time=T1),
                  fakes.deployment('d1', 's-c0', 'A'),
                  fakes.deployment('d3', 's-gone', 'C')])
    found = deployments.fetch(heat, None, {'s-c0'})
    assert [(d['id'], d['deployment_name']) for d in found] == [
        ('d1', 'A'), ('d2', 'B')]
    assert found[0]['config']['id'] == 'cfg-d1'
    # No deployment to another server: nothing asked of the resources.
    heat = _heat([fakes.deployment('d1', 's-c0', 'A')])
    deployments.fetch(heat, 'oc', {'s-c0'})
    assert heat.resource_lists == []


def test_tripleo_heat_templates_deployments():
    """THT deploy to a fake server; a TripleODeployment value beside each
    names the server and the deployment (tripleo-common read these)."""
    deps = [fakes.deployment('d1', 'fake_server_id', 'deployment_resource'),
            fakes.deployment('d2', 'fake_server_id', 'deployment_resource'),
            fakes.deployment('d3', 'fake_server_id', 'deployment_resource')]
    values = [
        fakes.resource('TripleODeployment', 'st1', creation_time=T1,
                       parent_resource='0', attributes={'value': {
                           'name': 'ExtraDeployments', 'server': 's-c0',
                           'deployment': 'd1'}}),
        fakes.resource('TripleODeployment', 'st2', parent_resource='1',
                       attributes={'value': {
                           'name': '', 'server': 's-c0',
                           'deployment': 'd2'}}),
        fakes.resource('TripleODeployment', 'st3', attributes={'value': {
            'name': 'Elsewhere', 'server': 's-other', 'deployment': 'd3'}}),
    ]
    heat = _heat(deps, values)
    found = deployments.fetch(heat, 'oc', {'s-c0'})
    # The value's name, else the parent resource's; the value's time.
    assert [(d['id'], d['server_id'], d['deployment_name'])
            for d in found] == [('d2', 's-c0', '1'),
                                ('d1', 's-c0', 'ExtraDeployments')]
    assert found[1]['creation_time'] == T1


def _graph():
    """root: Pre -> Role(nested: Server(nested: Boot) -> RoleDeployment)
    -> AllNodes; Other is independent."""
    return [
        fakes.resource('AllNodes', 'root', 'all'),
        fakes.resource('Role', 'root', required_by=['AllNodes'],
                       nested='role'),
        fakes.resource('Pre', 'root', required_by=['Role']),
        fakes.resource('Other', 'root', 'other'),
        fakes.resource('RoleDeployment', 'role', 'role-dep'),
        fakes.resource('Server', 'role', required_by=['RoleDeployment'],
                       nested='server'),
        fakes.resource('Boot', 'server', 'boot'),
    ]


def test_creation_order():
    position = deployments.creation_order(
        [fakes._Obj(**r) for r in _graph()], 'root')
    order = sorted(position, key=position.get)
    # Dependencies first, a nested stack before its resource, names for
    # the independent ones.
    assert order == ['other', 'root-Pre', 'boot', 'role-Server',
                     'role-dep', 'root-Role', 'all']


def test_same_second_follows_dependencies_not_names():
    # Created in the same second, listed in any order: what a deployment
    # depends on comes first, whatever the names.
    deps = [fakes.deployment('all', 's-c0', 'AAllNodesDeployment'),
            fakes.deployment('boot', 's-c0', 'ZBootstrap'),
            fakes.deployment('role-dep', 's-c0', 'MRoleDeployment')]
    for listing in (deps, deps[::-1]):
        found = deployments.fetch(_heat(listing, _graph()), 'root',
                                  {'s-c0'})
        assert [d['id'] for d in found] == ['boot', 'role-dep', 'all']
    # Earlier seconds first, as tripleo-common sorted them.
    deps[0]['creation_time'] = T0
    for d in deps[1:]:
        d['creation_time'] = T1
    found = deployments.fetch(_heat(deps, _graph()), 'root', {'s-c0'})
    assert [d['id'] for d in found] == ['all', 'boot', 'role-dep']
