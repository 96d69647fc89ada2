import os

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import tht_parameters as tht

ROLES = [
    {'name': 'Controller', 'CountDefault': 1,
     'ServicesDefault': ['OS::TripleO::Services::Keystone',
                         'OS::TripleO::Services::Disabled']},
    {'name': 'Compute', 'ServicesDefault': ['OS::TripleO::Services::Nova']},
]
SERVICE_TEMPLATE = """heat_template_version: wallaby
parameters:
  ContainerKeystoneImage:
    type: string
  ContainerKeystoneConfigImage:
    type: string
  ContainerDefaultedImage:
    type: string
    default: somewhere/else
"""


def _env(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_role_services_follow_counts_and_registry(tmp_path):
    registry = _env(tmp_path, 'registry.yaml', {'resource_registry': {
        'OS::TripleO::Services::Disabled': 'OS::Heat::None'}})
    counts = _env(tmp_path, 'counts.yaml',
                  {'parameter_defaults': {'ComputeCount': 2}})
    env = tht.merged_environment([registry, counts])
    assert tht.role_services(ROLES, env) == {
        'ControllerServices': ['OS::TripleO::Services::Keystone'],
        'ComputeServices': ['OS::TripleO::Services::Nova'],
    }
    # A role with no servers gets no services; a value set in an
    # environment is kept.
    env = {'parameter_defaults': {
        'ComputeCount': 0, 'ControllerServices': ['OS::Mine']}}
    assert tht.role_services(ROLES, env) == {
        'ControllerServices': ['OS::Mine'], 'ComputeServices': []}


def test_role_services_bad_count():
    with pytest.raises(exceptions.EnvironmentFileError, match='ComputeCount'):
        tht.role_services(ROLES, {'parameter_defaults': {
            'ComputeCount': 'two'}})


@pytest.mark.parametrize('param,name', [
    ('ContainerKeystoneImage', 'keystone'),
    ('ContainerNovaLibvirtConfigImage', 'nova-libvirt'),
    ('ContainerHAProxyImage', 'ha-proxy'),
    ('ContainerOvnNbDbImage', 'ovn-nb-db'),
    ('ContainerConfigImage', 'config'),
])
def test_image_name(param, name):
    assert tht.image_name(param) == name


def test_container_image_parameters(tmp_path):
    templates = tmp_path / 'tht'
    (templates / 'deployment').mkdir(parents=True)
    (templates / 'deployment' / 'keystone.yaml').write_text(SERVICE_TEMPLATE)
    (templates / 'environments').mkdir()
    (templates / 'environments' / 'images.yaml').write_text(
        'parameter_defaults:\n  ContainerEnvOnlyImage: x\n')
    params = tht.container_image_parameters(str(templates), {})
    assert params == {
        'ContainerKeystoneConfigImage':
            'registry.invalid/tripleo-ephemeral/openstack-keystone:'
            'current-tripleo',
        'ContainerKeystoneImage':
            'registry.invalid/tripleo-ephemeral/openstack-keystone:'
            'current-tripleo',
    }
    prepare = {'parameter_defaults': {'ContainerImagePrepare': [{'set': {
        'namespace': 'quay.io/ns/', 'name_prefix': 'os-', 'tag': 'v1'}}]}}
    params = tht.container_image_parameters(str(templates), prepare)
    assert params['ContainerKeystoneImage'] == 'quay.io/ns/os-keystone:v1'


def test_prepare_environment(tmp_path):
    templates = tmp_path / 'tht'
    templates.mkdir()
    (templates / 'keystone.yaml').write_text(SERVICE_TEMPLATE)
    wanted = str(tmp_path / 'oc-tht-parameters.yaml')
    path = tht.prepare_environment(str(templates), ROLES, wanted, [])
    assert path == wanted
    assert oct(os.stat(path).st_mode & 0o777) == '0o600'
    params = yaml.safe_load(open(path))['parameter_defaults']
    assert params['ControllerServices'] == [
        'OS::TripleO::Services::Keystone', 'OS::TripleO::Services::Disabled']
    assert params['ComputeServices'] == []
    assert 'ContainerKeystoneImage' in params
