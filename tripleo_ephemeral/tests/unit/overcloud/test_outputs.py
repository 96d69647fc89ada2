import os

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import outputs
from tripleo_ephemeral.tests.unit import fakes


def _client():
    deps = [fakes.deployment('d2', 's-c0', 'B',
                             creation_time='2024-01-01T00:00:02Z'),
            fakes.deployment('d1', 's-c0', 'A'),
            fakes.deployment('d3', 's-gone', 'C')]
    listed = [{k: v for k, v in d.items() if k != 'config'} for d in deps]
    configs = {d['config_id']: d['config'] for d in deps}
    return fakes.FakeHeat(fakes.outputs(), listed, configs)


def test_fetch_outputs_and_deployments():
    client = _client()
    outs = outputs.fetch_outputs(client, 'oc')
    assert outs['VipMap']['ctlplane'] == '192.0.2.5'
    deps = outputs.fetch_deployments(client, outs)
    assert [d['id'] for d in deps] == ['d1', 'd2']
    assert deps[0]['config']['name'] == 'A'


def test_output_error_is_reported():
    client = fakes.FakeHeat()
    client.stacks.get = lambda i: type('S', (), {'outputs': [
        {'output_key': 'RoleData', 'output_error': 'boom'}]})()
    with pytest.raises(exceptions.StackOutputsError, match='RoleData.*boom'):
        outputs.fetch_outputs(client, 'oc')


def _paths(tmp_path):
    return str(tmp_path / 'o' / 'oc-outputs.yaml'), str(tmp_path / 'd.yaml')


def test_save_and_load(tmp_path):
    outs, deps = outputs.fetch_and_save(_client(), 'oc', *_paths(tmp_path))
    loaded = outputs.load(*_paths(tmp_path))
    assert loaded == (outs, deps)


def test_load_missing(tmp_path):
    with pytest.raises(exceptions.StackOutputsError,
                       match='oc-outputs.yaml.*config-download-only'):
        outputs.load(*_paths(tmp_path))


def test_save_and_load_environment(tmp_path):
    client = fakes.FakeHeat()
    client.stacks.environment = lambda stack_id: {'parameter_defaults': {
        'AdminPassword': 'pw', 'ContainerCli': 'podman', 'Other': 1}}
    path = str(tmp_path / 'o' / 'oc-environment.yaml')
    assert outputs.load_environment(path) == {}
    values = outputs.fetch_and_save_environment(
        client, 'oc', path, ('AdminPassword', 'ContainerCli', 'Missing'))
    assert values == {'AdminPassword': 'pw', 'ContainerCli': 'podman'}
    assert outputs.load_environment(path) == values
    assert oct(os.stat(path).st_mode & 0o777) == '0o600'


def test_a_masked_hidden_value_comes_from_the_stored_files(tmp_path):
    """Heat (17.0.2 and later) masks hidden parameters in the environment
    it returns; the environment file sent with the stack has the value."""
    client = fakes.FakeHeat()
    client.stacks.environment = lambda stack_id: {'parameter_defaults': {
        'AdminPassword': '******', 'ContainerCli': 'podman'}}
    client.stacks.files = lambda stack_id: {
        'file:///w/oc-passwords.yaml':
            '{"parameter_defaults": {"AdminPassword": "pw"}}'}
    values = outputs.fetch_and_save_environment(
        client, 'oc', str(tmp_path / 'env.yaml'),
        ('AdminPassword', 'ContainerCli'))
    assert values == {'AdminPassword': 'pw', 'ContainerCli': 'podman'}


def test_blacklist_limit():
    assert outputs.blacklist_limit({'BlacklistedHostnames': []}) is None
    assert outputs.blacklist_limit(
        {'BlacklistedHostnames': ['a', None, 'b']}) == '!a:!b'
