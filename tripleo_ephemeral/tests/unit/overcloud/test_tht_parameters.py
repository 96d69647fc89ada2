import os

import yaml

from tripleo_ephemeral.overcloud import tht_parameters as tht

ROLES = [
    {'name': 'Controller', 'CountDefault': 1,
     'ServicesDefault': ['OS::TripleO::Services::Keystone',
                         'OS::TripleO::Services::Disabled']},
    {'name': 'Compute', 'ServicesDefault': ['OS::TripleO::Services::Nova']},
]


def _env(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_merged_environment_merges_nested_mappings(tmp_path):
    first = _env(tmp_path, 'first.yaml', {
        'resource_registry': {'OS::A': 'a.yaml',
                              'resources': {'x': {'hooks': 'pre'}}},
        'parameter_defaults': {'ComputeCount': 1,
                               'ComputeParameters': {'A': 1}}})
    second = _env(tmp_path, 'second.yaml', {
        'resource_registry': {'OS::B': 'OS::Heat::None'},
        'parameter_defaults': {'ComputeCount': 2,
                               'ComputeParameters': {'B': 2}},
        'parameters': {'ignored': True}})
    empty = _env(tmp_path, 'empty.yaml', None)
    env = tht.merged_environment([first, empty, second])
    assert env['parameter_defaults'] == {
        'ComputeCount': 2, 'ComputeParameters': {'A': 1, 'B': 2}}
    assert env['resource_registry']['OS::A'] == 'a.yaml'
    assert env['resource_registry']['OS::B'] == 'OS::Heat::None'
    assert set(env) == {'parameter_defaults', 'resource_registry'}


def test_prepare_environment(tmp_path):
    registry = _env(tmp_path, 'registry.yaml', {'resource_registry': {
        'OS::TripleO::Services::Disabled': 'OS::Heat::None'}})
    wanted = str(tmp_path / 'oc-tht-parameters.yaml')
    path = tht.prepare_environment(ROLES, wanted, [registry])
    assert path == wanted
    assert oct(os.stat(path).st_mode & 0o777) == '0o600'
    params = yaml.safe_load(open(path))['parameter_defaults']
    assert params['ControllerServices'] == ['OS::TripleO::Services::Keystone']
    assert params['ComputeServices'] == []
    assert params['ContainerKeystoneImage'] == (
        'quay.io/tripleomastercentos9/openstack-keystone:current-tripleo')
