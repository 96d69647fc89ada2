import os
import stat

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import workdir
from tripleo_ephemeral.archives import install_archives as workdir_archive


def test_status_round_trip(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'oc').create()
    assert wd.status() is None
    wd.set_status(workdir.DEPLOY_FAILED)
    assert wd.status() == 'DEPLOY_FAILED'
    assert stat.S_IMODE(os.stat(wd.path).st_mode) == 0o700


def test_layout():
    wd = workdir.WorkDir('/w', 'oc')
    assert wd.heat_dir == '/w/heat-launcher'
    assert wd.heat_dump == '/w/heat-launcher/heat-db-dump.sql.gz'
    assert wd.templates_dir == '/w/tripleo-heat-templates'
    assert wd.outputs_file == '/w/outputs/oc-outputs.yaml'
    assert wd.deployments_file == '/w/outputs/oc-deployments.yaml'
    assert wd.config_download_dir == '/w/config-download/oc'
    assert wd.agent_config_file('Compute', 1) == (
        '/w/os-collect-config/Compute-1.conf')
    assert [wd.passwords_file, wd.deployed_servers_file,
            wd.tht_parameters_file, wd.deploy_parameters_file,
            wd.deploy_inputs_file, wd.status_file, wd.last_success_file,
            wd.stack_size_file] == [
        '/w/oc-passwords.yaml', '/w/oc-deployed-servers.yaml',
        '/w/oc-tht-parameters.yaml', '/w/oc-deploy-parameters.yaml',
        '/w/oc-deploy-inputs.yaml', '/w/oc-deployment_status.yaml',
        '/w/oc-last-success.yaml', '/w/oc-stack-size.yaml']
    default = workdir.WorkDir(stack='oc')
    assert default.path == os.path.expanduser('~/overcloud-deploy/oc')


def test_generated_and_transient_files():
    wd = workdir.WorkDir('/w', 'oc')
    for path in (wd.passwords_file, wd.deployed_servers_file,
                 wd.tht_parameters_file, wd.deploy_parameters_file):
        assert workdir.is_generated_environment(path)
    assert not workdir.is_generated_environment('/e/network-isolation.yaml')
    for name in ('.tripleo-ephemeral.lock', 'heat.sqlite',
                 'heat.sqlite-wal', 'oc-install-20300101-000000.tar.gz'):
        assert workdir_archive.is_transient(name), name
    for name in ('heat-db-dump.sql.gz', 'oc-passwords.yaml', 'backup.tar.gz'):
        assert not workdir_archive.is_transient(name), name
    # config-download's history travels; a templates checkout's does not.
    for path in ('w/config-download/oc/.git', 'config-download/oc/.gitignore'):
        assert not workdir_archive.is_transient(path), path
    for path in ('w/tripleo-heat-templates/.git', 'w/.gitignore'):
        assert workdir_archive.is_transient(path), path


def test_load_is_a_hint(tmp_path):
    wd = workdir.WorkDir(str(tmp_path), 'oc')
    assert wd.load(wd.deploy_inputs_file) is None
    with open(wd.deploy_inputs_file, 'w') as f:
        f.write('a: [unclosed\n')
    assert wd.load(wd.deploy_inputs_file) is None
    wd.save(wd.deploy_inputs_file, {'a': 1})
    assert wd.load(wd.deploy_inputs_file) == {'a': 1}
    assert stat.S_IMODE(os.stat(wd.deploy_inputs_file).st_mode) == 0o600


def test_what_the_last_deploy_saved_read_back(tmp_path):
    wd = workdir.WorkDir(str(tmp_path), 'oc')
    with pytest.raises(exceptions.StackOutputsError, match='No saved outputs'):
        wd.saved_outputs()
    with pytest.raises(exceptions.DeployError, match='No inventory .*oc'):
        wd.inventory()
    os.makedirs(wd.outputs_dir)
    wd.save(wd.outputs_file, {'KeystoneURL': 'http://x'})
    assert wd.saved_outputs() == {'KeystoneURL': 'http://x'}
    assert wd.saved_outputs_and_deployments() == (
        {'KeystoneURL': 'http://x'}, [])
    wd.save(wd.deployments_file, [{'id': 'd1'}])
    assert wd.saved_outputs_and_deployments()[1] == [{'id': 'd1'}]
    os.makedirs(wd.config_download_dir)
    wd.save(wd.inventory_file, {'Compute': {'hosts': {'c-0': {}}}})
    assert wd.inventory_file == os.path.join(
        wd.config_download_dir, 'tripleo-ansible-inventory.yaml')
    assert wd.inventory() == {'Compute': {'hosts': {'c-0': {}}}}


@pytest.mark.parametrize('name', ['overcloud', 'a', 'site-1.b_c',
                                  'x' * 255])
def test_stack_names_heat_takes(name):
    workdir.check_stack_name(name)


@pytest.mark.parametrize('name', ['1site', 'over cloud', '../../evil',
                                  'a/b', '', '.hidden', 'x' * 256,
                                  'over\ncloud', 'é'])
def test_stack_names_heat_refuses(name):
    """Issue 29 case 5: Heat's rule (heat/engine/stack.py), which also
    keeps path separators out of the work dir's paths."""
    with pytest.raises(exceptions.InputError) as err:
        workdir.check_stack_name(name)
    assert str(err.value).startswith('--stack %r is not a valid stack '
                                     'name' % name)
    assert str(err.value).endswith('choose another --stack')
