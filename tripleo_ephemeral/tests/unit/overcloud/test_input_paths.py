"""tripleoclient's default files and path rules."""

import os

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import input_paths as ip
from tripleo_ephemeral.overcloud import template_processing


@pytest.fixture
def tht(tmp_path):
    root = tmp_path / 'tht'
    for rel in ('roles_data.yaml', 'network_data_default.yaml',
                'vip_data_default.yaml', 'environments/plain.yaml',
                'environments/network-environment.j2.yaml'):
        os.makedirs(root / os.path.dirname(rel), exist_ok=True)
        (root / rel).write_text('{}\n')
    return str(root)


def test_defaults_of_a_tht_set(tht):
    assert ip.default_roles_file(tht) == tht + '/roles_data.yaml'
    assert ip.default_networks_file(tht) == (
        tht + '/network_data_default.yaml')
    assert ip.default_vip_file(tht) == tht + '/vip_data_default.yaml'


def test_defaults_of_the_bundled_set():
    bundled = template_processing.bundled_templates_dir()
    assert ip.default_networks_file(bundled) == bundled + '/network_data.yaml'
    assert ip.default_vip_file(bundled) is None


def test_defaults_name_the_tht_file_when_missing(tmp_path):
    assert ip.default_networks_file(str(tmp_path)) == str(
        tmp_path / 'network_data_default.yaml')


def test_environments_under_the_templates_come_from_the_rendered_copy(
        tht, tmp_path):
    rendered = str(tmp_path / 'work/tripleo-heat-templates')
    # Exists only as a template: the rendered copy.
    assert ip.environment_path(
        tht + '/environments/network-environment.yaml', tht, rendered) == (
        rendered + '/environments/network-environment.yaml')
    # A plain file too (as tripleoclient's rewrite_env_path).
    assert ip.environment_path(tht + '/environments/plain.yaml', tht,
                               rendered) == (
        rendered + '/environments/plain.yaml')
    # Outside the set (a sibling sharing its prefix too): as given.
    outside = tht + '-custom/env.yaml'
    assert ip.environment_path(outside, tht, rendered) == outside


def test_environment_errors(tht, tmp_path):
    rendered = str(tmp_path / 'r')
    with pytest.raises(exceptions.EnvironmentFileError) as e:
        ip.environment_path(tht + '/environments/network-environment.j2.yaml',
                            tht, rendered)
    assert 'did you mean %s/environments/network-environment.yaml' % tht \
        in str(e.value)
    with pytest.raises(exceptions.EnvironmentFileError, match='not found'):
        ip.environment_path(tht + '/environments/nope.yaml', tht, rendered)


def test_data_files_cannot_be_templates(tht):
    with open(tht + '/roles_only.j2.yaml', 'w') as f:
        f.write('[]\n')
    with pytest.raises(exceptions.RolesDataError, match='give -r a plain'):
        ip.check_data_file(tht + '/roles_only.yaml', 'Roles data file', '-r')
    ip.check_data_file(tht + '/roles_data.yaml', 'Roles data file', '-r')
    ip.check_data_file(tht + '/missing.yaml', 'Roles data file', '-r')


def test_prepare_environment(tmp_path):
    env = tmp_path / 'environments' / 'lifecycle' / 'update-prepare.yaml'
    env.parent.mkdir(parents=True)
    env.write_text('{}')
    assert ip.prepare_environment(str(tmp_path), 'update') == str(env)
    assert ip.is_prepare_environment(str(env))
    assert not ip.is_prepare_environment(
        str(tmp_path / 'update-prepare.yaml'))
    with pytest.raises(exceptions.EnvironmentFileError,
                       match='upgrade-prepare.yaml not found'):
        ip.prepare_environment(str(tmp_path), 'upgrade')
