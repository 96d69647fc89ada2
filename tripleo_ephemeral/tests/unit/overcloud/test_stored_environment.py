"""A stack's stored environment and outputs, turned into deploy inputs."""

import json

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tripleoclient_adoption import servers as adopted_servers
from tripleo_ephemeral.overcloud import stored_environment as adoption

OLD = 'file:///home/stack/overcloud-deploy/overcloud/tripleo-heat-templates'
PASSWORDS_URL = 'file:///home/stack/overcloud-deploy/overcloud/' \
                'overcloud-passwords.yaml'
FILES = {
    OLD + '/overcloud-resource-registry-puppet.yaml':
        '{"resource_registry": {"OS::TripleO::Services::Marker": '
        '"deployment/marker.yaml"}, "parameter_defaults": {}}',
    OLD + '/deployment/marker.yaml': '{"heat_template_version": "wallaby",'
                                     ' "parameters": {"AdminPassword": {}}}',
    PASSWORDS_URL: json.dumps({'parameter_defaults': {
        'AdminPassword': 's3cr3t', 'NovaPassword': 'n0va',
        'CephClusterFSID': '4b5c8c0a-ff60-454b-a1b4-9747aa737d19'}}),
    'file:///home/stack/custom/env.yaml': json.dumps({
        'resource_registry': {'OS::TripleO::Services::Custom':
                              'file:///home/stack/custom/svc.yaml'}}),
    'file:///home/stack/custom/svc.yaml': json.dumps({
        'heat_template_version': 'wallaby', 'resources': {
            'a': {'type': OLD + '/deployment/marker.yaml'},
            'b': {'type': 'file:///home/stack/custom/nested.yaml'}}}),
    'file:///home/stack/custom/nested.yaml':
        '{"heat_template_version": "wallaby"}',
}
ENVIRONMENT = {
    'resource_registry': {
        'resources': {},
        'OS::TripleO::Services::Marker': OLD + '/deployment/marker.yaml',
        'OS::TripleO::Services::Custom': 'file:///home/stack/custom/svc.yaml',
        'OS::TripleO::ControllerServer': 'OS::TripleO::Server',
    },
    'parameter_defaults': {
        'AdminPassword': adoption.MASK, 'CloudDomain': 'example.com',
        'DeployIdentifier': 1700000000, 'StackAction': 'UPDATE',
        'ControllerCount': 1},
    'parameters': {},
    'event_sinks': [], 'encrypted_param_names': [],
}


def test_unmask_recovers_a_hidden_value_from_the_environment_files():
    env, recovered = adoption.unmask(ENVIRONMENT, FILES, 'overcloud')
    assert env['parameter_defaults']['AdminPassword'] == 's3cr3t'
    assert recovered == ['AdminPassword']
    assert ENVIRONMENT['parameter_defaults']['AdminPassword'] == \
        adoption.MASK                       # the input is left alone


@pytest.mark.parametrize('files, count', [
    ({}, 0),
    ({'file:///a.yaml': '{"parameter_defaults": {"AdminPassword": "x"}}',
      'file:///b.yaml': 'parameter_defaults: {AdminPassword: y}'}, 2),
])
def test_unmask_refuses_without_exactly_one_candidate(files, count):
    with pytest.raises(exceptions.AdoptionError) as err:
        adoption.unmask(ENVIRONMENT, files, 'overcloud')
    assert ('Hidden parameter AdminPassword of stack overcloud cannot be '
            'recovered through the Heat API (%d candidates' % count
            in str(err.value))
    assert '--heat-db-dump' in str(err.value)


def test_passwords_from_the_environment_then_the_files():
    env, _ = adoption.unmask(ENVIRONMENT, FILES, 'overcloud')
    found, counts = adoption.passwords(
        env, FILES, ('AdminPassword', 'NovaPassword', 'RabbitPassword'))
    assert found == {'AdminPassword': 's3cr3t', 'NovaPassword': 'n0va'}
    assert counts == {'from_environment': 1, 'from_files': 1}


def test_templates_root():
    assert adoption.templates_root(FILES, 'overcloud') == OLD
    with pytest.raises(exceptions.AdoptionError) as err:
        adoption.templates_root({}, 'overcloud')
    assert 'no overcloud-resource-registry.yaml' in str(err.value)


def test_the_adopted_environment_points_into_the_work_dir():
    env, _ = adoption.unmask(ENVIRONMENT, FILES, 'overcloud')
    adopted, custom = adoption.adopted_environment(
        env, FILES, OLD, password_names=['AdminPassword'],
        templates_dir='tripleo-heat-templates', custom_dir='adopted/files')
    assert adopted['parameter_defaults'] == {
        'CloudDomain': 'example.com', 'ControllerCount': 1}
    assert set(adopted) == {'resource_registry', 'parameter_defaults',
                            'parameters'}
    assert adopted['resource_registry'] == {
        'OS::TripleO::Services::Marker':
            'tripleo-heat-templates/deployment/marker.yaml',
        'OS::TripleO::Services::Custom':
            'adopted/files/home/stack/custom/svc.yaml',
        'OS::TripleO::ControllerServer': 'OS::TripleO::Server'}
    assert sorted(custom) == ['adopted/files/home/stack/custom/nested.yaml',
                              'adopted/files/home/stack/custom/svc.yaml']
    svc = json.loads(custom['adopted/files/home/stack/custom/svc.yaml'])
    # Relative to the copy's directory, five levels below the work dir.
    assert svc['resources']['a']['type'] == \
        '../../../../../tripleo-heat-templates/deployment/marker.yaml'
    assert svc['resources']['b']['type'] == 'nested.yaml'


def test_roles_rendered_the_tht_way_come_back_as_given():
    """THT renders ``{{ roles }}`` (Python's repr): YAML reads a newline
    back as backslash-n, which the next rendering would escape again."""
    roles = [{'name': 'Controller', 'description': 'All of it\nand more.\n',
              'tags': ['primary'], 'CountDefault': 1}]
    rendered = yaml.safe_load('roles_data: %s' % (roles,))['roles_data']
    assert rendered[0]['description'] == 'All of it\\nand more.\\n'
    outputs = {'TripleoHeatTemplatesJinja2RenderingDataSources': {
        'roles_data': rendered, 'networks_data': []}}
    assert adoption.roles_and_networks(outputs)[0] == roles
    # Rendered as JSON (the bundled templates), it comes back as it is.
    outputs['TripleoHeatTemplatesJinja2RenderingDataSources'][
        'roles_data'] = roles
    assert adoption.roles_and_networks(outputs)[0] == roles


def test_roles_and_networks_lose_the_renderer_index():
    outputs = {'TripleoHeatTemplatesJinja2RenderingDataSources': {
        'roles_data': [{'name': 'Controller'}],
        'networks_data': [{'name': 'InternalApi', 'idx': 0}]}}
    assert adoption.roles_and_networks(outputs) == (
        [{'name': 'Controller'}], [{'name': 'InternalApi'}])
    assert adoption.roles_and_networks({}) == (None, None)


OUTPUTS = {
    'RoleNetHostnameMap': {
        'Controller': {'ctlplane': ['ctrl-0.ctlplane.example.com'],
                       'canonical': ['ctrl-0.example.com']},
        'Compute': {'ctlplane': ['cmp-0.ctlplane.example.com',
                                 'cmp-1.ctlplane.example.com']},
        'Storage': {'ctlplane': []}},
    'RoleNetIpMap': {
        'Controller': {'ctlplane': ['192.0.2.10'],
                       'ctlplane_subnet': ['192.0.2.10/24'],
                       'internal_api': ['172.16.2.10'],
                       'internal_api_uri': ['172.16.2.10']},
        'Compute': {'ctlplane': ['192.0.2.20', '192.0.2.21']}},
}
PARAMETERS = {
    'DeployedServerPortMap': {'ctrl-0-ctlplane': {
        'subnets': [{'cidr': '192.0.2.0/25'}]}},
    'CtlplaneNetworkAttributes': {'subnets': {'ctlplane-subnet': {
        'cidr': '192.0.2.0/24'}}},
    'NodePortMap': {'cmp-1': {'storage': {'ip_address': '172.16.1.21'}}},
}


def test_servers_from_the_outputs_and_the_provisioning_parameters():
    assert adopted_servers.servers(OUTPUTS, PARAMETERS, 'overcloud') == {
        'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.0.2.10',
                        'ctlplane_cidr': '192.0.2.0/25',
                        'networks': {'internal_api': '172.16.2.10'}}],
        'Compute': [
            {'hostname': 'cmp-0', 'ctlplane_ip': '192.0.2.20',
             'ctlplane_cidr': '192.0.2.0/24'},
            {'hostname': 'cmp-1', 'ctlplane_ip': '192.0.2.21',
             'ctlplane_cidr': '192.0.2.0/24',
             'networks': {'storage': '172.16.1.21'}}],
        'Storage': [],
    }


def test_servers_need_addresses_and_hosts():
    outputs = {'RoleNetHostnameMap': OUTPUTS['RoleNetHostnameMap'],
               'RoleNetIpMap': {}}
    with pytest.raises(exceptions.AdoptionError) as err:
        adopted_servers.servers(outputs, {}, 'overcloud')
    assert 'no ctlplane address for cmp-0 (role Compute)' in str(err.value)
    with pytest.raises(exceptions.AdoptionError):
        adopted_servers.servers({}, {}, 'overcloud')
