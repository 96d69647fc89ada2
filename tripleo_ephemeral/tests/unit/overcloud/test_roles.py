import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import template_processing


def test_bundled_roles_and_networks_load():
    src = template_processing.bundled_templates_dir()
    data = roles.load_roles(src + '/roles_data.yaml')
    assert roles.role_names(data) == ['Controller', 'Compute']
    assert roles.load_networks(src + '/network_data.yaml') == []


@pytest.mark.parametrize('data, fragment', [
    ([], 'non-empty list'),
    ([{'CountDefault': 1}], 'needs a "name"'),
    ([{'name': 'A'}, {'name': 'A'}], 'defined twice'),
    ([{'name': 'A', 'CountDefault': 'x'}], 'CountDefault must be an integer'),
    ([{'name': 'A', 'CountDefault': True}], 'CountDefault must be'),
    ([{'name': 'A', 'CountDefault': -1}], 'must not be negative'),
    ([{'name': 'A', 'disable_constraints': 'yes'}], 'a boolean'),
    ([{'name': 'A', 'ServicesDefault': [1]}], 'ServicesDefault'),
])
def test_invalid_roles(data, fragment):
    with pytest.raises(exceptions.RolesDataError) as e:
        roles.validate_roles(data, 'r.yaml')
    assert fragment in str(e.value)
    assert 'r.yaml' in str(e.value)
    assert '\n' not in str(e.value)


def test_malformed_yaml_names_file(tmp_path):
    path = tmp_path / 'roles.yaml'
    path.write_text('- name: a: b\n')
    with pytest.raises(exceptions.RolesDataError) as e:
        roles.load_roles(str(path))
    assert str(path) in str(e.value) and 'line 1' in str(e.value)


def test_missing_file(tmp_path):
    with pytest.raises(exceptions.RolesDataError, match='not found'):
        roles.load_roles(str(tmp_path / 'nope.yaml'))


def test_networks_defaults_and_role_networks():
    nets = roles.validate_networks([{'name': 'InternalApi'}])
    assert nets[0]['name_lower'] == 'internalapi'
    assert nets[0]['enabled'] is True
    roles.check_role_networks([{'name': 'A', 'networks': ['InternalApi']}],
                              nets)
    with pytest.raises(exceptions.RolesDataError, match='Storage'):
        roles.check_role_networks([{'name': 'A', 'networks': ['Storage']}],
                                  nets)


THT_ROLE = {'name': 'Controller', 'networks': {
    'External': {'subnet': 'external_subnet'},
    'InternalApi': {'subnet': 'internal_api_subnet'}}}


def test_tht_role_networks_by_name_or_name_lower():
    nets = roles.validate_networks([
        {'name': 'External'},
        {'name': 'InternalApi', 'name_lower': 'internal_api'}])
    roles.check_role_networks([THT_ROLE], nets)
    roles.check_role_networks(
        [{'name': 'C', 'networks': ['ctlplane', 'internal_api']}], nets)
    with pytest.raises(exceptions.RolesDataError,
                       match='role C uses network Tenant.*InternalApi'):
        roles.check_role_networks([{'name': 'C', 'networks': {
            'Tenant': {'subnet': 'tenant_subnet'}}}], nets, 'r.yaml')


def test_role_networks_unchecked_without_networks_data():
    # THT's default: network_data_default.yaml is [] (control plane only)
    roles.check_role_networks([THT_ROLE], roles.validate_networks([]))
