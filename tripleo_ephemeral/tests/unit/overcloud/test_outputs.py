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
        client, 'oc', path, ('AdminPassword', 'ContainerCli', 'Missing'), {})
    assert values == {'AdminPassword': 'pw', 'ContainerCli': 'podman'}
    assert outputs.load_environment(path) == values
    assert oct(os.stat(path).st_mode & 0o777) == '0o600'


def _masked_client():
    client = fakes.FakeHeat()
    client.stacks.environment = lambda stack_id: {'parameter_defaults': {
        'AdminPassword': '******', 'ContainerCli': 'podman'}}
    return client


def _request(*files, parameters=None):
    """A create request whose environment files (in order) are ``files``."""
    urls = ['file:///w/env-%d.yaml' % n for n in range(len(files))]
    request = {'environment_files': urls, 'files': dict(zip(urls, files))}
    if parameters:
        request['parameters'] = parameters
    return request


def test_a_masked_hidden_value_comes_from_the_stored_files(tmp_path):
    """Heat (17.0.2 and later) masks hidden parameters in the environment
    it returns; the environment file sent with the stack has the value."""
    values = outputs.fetch_and_save_environment(
        _masked_client(), 'oc', str(tmp_path / 'env.yaml'),
        ('AdminPassword', 'ContainerCli'),
        _request('{"parameter_defaults": {"AdminPassword": "pw"}}'))
    assert values == {'AdminPassword': 'pw', 'ContainerCli': 'podman'}


def test_blacklist_limit():
    assert outputs.blacklist_limit({'BlacklistedHostnames': []}) is None
    assert outputs.blacklist_limit(
        {'BlacklistedHostnames': ['a', None, 'b']}) == '!a:!b'


@pytest.mark.parametrize('files, parameters, expected', [
    # Issue 36: the generated passwords first, the operator's -e last.
    (['parameter_defaults: {AdminPassword: generated}\n',
      'parameter_defaults: {AdminPassword: mine}\n'], None, 'mine'),
    (['parameter_defaults: {AdminPassword: mine}\n',
      'parameter_defaults: {AdminPassword: later}\n'], None, 'later'),
    # parameters beat parameter_defaults, wherever they come.
    (['parameters: {AdminPassword: forced}\n',
      'parameter_defaults: {AdminPassword: later}\n'], None, 'forced'),
    # A file's merge strategy appends a string (Heat's own rule).
    (['parameter_defaults: {AdminPassword: ab}\n'
      'parameter_merge_strategies: {AdminPassword: merge}\n',
      'parameter_defaults: {AdminPassword: cd}\n'], None, 'abcd'),
    # A file's parameters beat the request's own.
    (['parameters: {AdminPassword: file}\n'], {'AdminPassword': 'req'},
     'file'),
    ([], {'AdminPassword': 'req'}, 'req'),
])
def test_a_hidden_value_given_in_several_files_is_heats(
        tmp_path, files, parameters, expected):
    values = outputs.fetch_and_save_environment(
        _masked_client(), 'oc', str(tmp_path / 'env.yaml'),
        ('AdminPassword',), _request(*files, parameters=parameters))
    assert values == {'AdminPassword': expected}


def test_a_hidden_value_no_file_gives_is_an_error_not_the_mask(tmp_path):
    path = tmp_path / 'env.yaml'
    with pytest.raises(exceptions.StackOutputsError, match=(
            'Stack oc has the hidden parameter AdminPassword, which Heat '
            'masks and no environment file of the deploy gives: give it in '
            r'an environment file \(-e\)')):
        outputs.fetch_and_save_environment(
            _masked_client(), 'oc', str(path), ('AdminPassword',),
            _request('parameter_defaults: {Other: 1}\n'))
    assert not path.exists()
    path.write_text("AdminPassword: '******'\n")  # an older release's
    with pytest.raises(exceptions.StackOutputsError, match=(
            r"holds Heat's mask \(\*\*\*\*\*\*\) for AdminPassword, "
            'not its value: deploy again')):
        outputs.load_environment(str(path))
