import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import template_processing


def test_bundled_roles_and_networks_load():
    src = template_processing.bundled_templates_dir()
    data = roles.load_roles(src + '/roles_data.yaml')
    assert roles.role_names(data) == ['Controller', 'Compute']
    # No "add the tag to your roles file" for the project's own file.
    assert roles.with_implied_tags(data)[1] == []


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


def test_implied_tags_as_process_templates():
    data, added = roles.with_implied_tags([
        {'name': 'ComputeOvsDpdk'}, {'name': 'CephStorage', 'tags': ['x']},
        {'name': 'Compute', 'tags': ['compute']}, {'name': 'Controller'}])
    assert [r['tags'] for r in data] == [
        ['compute', 'ovsdpdk'], ['x', 'ceph', 'storage'], ['compute'], []]
    assert added == [('ComputeOvsDpdk', 'compute'),
                     ('ComputeOvsDpdk', 'ovsdpdk'),
                     ('CephStorage', 'ceph'), ('CephStorage', 'storage')]
