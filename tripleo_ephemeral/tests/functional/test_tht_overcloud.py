"""The real tripleo-heat-templates 18.0.0, as an operator deploys them.

Opt-in: each stack create takes a minute or more. Run it with::

    TRIPLEO_EPHEMERAL_THT=1 pytest -ra \\
        tripleo_ephemeral/tests/functional/test_tht_overcloud.py

The inputs are tools/tht_deploy.py's scenarios: THT's own defaults and
samples, TEST-NET servers. Each deploy is checked for what the stack made
of them: per-host addresses on every network of the host's role (none the
control plane's), the VIPs in the inventory and the rendered config. Each
stack is left running for tools/parity/config_download.py: our
config-download equals tripleo-common 18.0.0's for it, but for the
deliberate differences the tool lists (the work_dir fixture stops Heat).
"""

import importlib.util
import ipaddress
import os

import pytest
import yaml

from tripleo_ephemeral.tests.functional import helpers

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TOOL = os.path.join(REPO, 'tools', 'tht_deploy.py')
PARITY = os.path.join(REPO, 'tools', 'parity', 'config_download.py')
ISOLATED = {'Controller': ['external', 'internal_api', 'storage',
                           'storage_mgmt', 'tenant'],
            'Compute': ['internal_api', 'storage', 'tenant']}

pytestmark = [
    pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                       reason='set TRIPLEO_EPHEMERAL_THT=1 to deploy the '
                              'real tripleo-heat-templates (minutes)'),
    pytest.mark.skipif(not os.path.isfile(TOOL),
                       reason='needs a source checkout (tools/)'),
]


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='module')
def tool():
    return _load('tht_deploy', TOOL)


def _parity(work_dir, config_dir, stack, tmp_path):
    """tripleo-common's config download of the same stack: the same but
    for the deliberate differences."""
    parity = _load('parity_config_download', PARITY)
    ref = tmp_path / 'tripleo-common'
    parity.reference_config(parity.heat_endpoint(str(work_dir)), stack,
                            str(ref), 'tripleo-admin', 'ctlplane')
    result = parity.compare(str(config_dir), str(ref))
    assert (result['different'], result['only_ours'],
            result['only_theirs']) == ([], [], [])
    return result


def _deploy(cli, tool, tmp_path, work_dir, port, scenario):
    args = tool.write_inputs(tool.tht_dir(), str(tmp_path), scenario)
    done = cli.deploy(work_dir, *(args + ['--keep-running']), port=port,
                      timeout=3600)
    assert done.result['stack_status'] == 'CREATE_COMPLETE'
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    wd = helpers.Layout(work_dir)
    cd = wd.config_download_dir
    assert 'deployments.yaml' in _parity(
        work_dir, cd, 'overcloud', tmp_path)['deliberate']

    def read(*parts):
        return yaml.safe_load((cd.joinpath(*parts)).read_text())
    return wd, read


def _check_isolation(wd, read, controllers, computes):
    inventory = read('tripleo-ansible-inventory.yaml')
    record = yaml.safe_load(wd.ip_allocations_file.read_text())
    seen = set()
    for role, count in (('Controller', controllers), ('Compute', computes)):
        hosts = inventory[role]['hosts']
        assert len(hosts) == count
        assert inventory[role]['vars']['tripleo_role_networks'] == sorted(
            ['ctlplane'] + ISOLATED[role])
        for name, host in hosts.items():
            assert host['ansible_host'] == host['ctlplane_ip']
            for net in ISOLATED[role]:
                ip = host['%s_ip' % net]
                # Its own address on that network, none the ctlplane's.
                assert ip == record['hosts'][name][net]
                assert not ip.startswith('192.0.2.'), (name, net, ip)
                assert ip not in seen
                seen.add(ip)
    # The first Compute's addresses are the ones the servers file gave.
    compute0 = inventory['Compute']['hosts']['overcloud-novacompute-0']
    assert compute0['internal_api_ip'] == '172.16.2.120'
    # VIPs: their own addresses, in the inventory and the global vars.
    overcloud_vars = inventory['overcloud']['vars']
    global_vips = read('global_vars.yaml')['network_virtual_ips']
    for net in ('ctlplane', 'external', 'internal_api', 'storage',
                'storage_mgmt'):
        vip = record['vips'][net]
        assert overcloud_vars['%s_vip' % net] == vip
        assert global_vips[net]['ip_address'] == vip
        assert vip not in seen
    assert 'tenant_vip' not in overcloud_vars
    assert ipaddress.ip_address(record['vips']['internal_api']) in \
        ipaddress.ip_network('172.16.2.0/24')
    group_vars = read('group_vars', 'Controller')
    assert group_vars['vip_port_map']['internal_api']['ip_address'] == \
        record['vips']['internal_api']


def test_control_plane_1_1_with_tht_defaults(cli, tool, tmp_path, work_dir,
                                             port):
    wd, read = _deploy(cli, tool, tmp_path, work_dir, port, 'ctlplane')
    params = yaml.safe_load(wd.tht_parameters_file.read_text())[
        'parameter_defaults']
    assert 'OS::TripleO::Services::Keystone' in params['ControllerServices']
    # tripleoclient's: no service the registry maps to OS::Heat::None.
    assert len(params['ControllerServices']) == 47
    assert params['ContainerKeystoneImage'] == (
        'quay.io/tripleomastercentos9/openstack-keystone:current-tripleo')
    for name in ('deploy_steps_playbook.yaml', 'deployments.yaml',
                 'external_deploy_steps_tasks_step1.yaml',
                 'Controller/deploy_steps_tasks_step1.yaml',
                 'Compute/step_config.pp', 'group_vars/Controller',
                 'host_vars/overcloud-novacompute-0'):
        assert (wd.config_download_dir / name).is_file(), name
    inventory = read('tripleo-ansible-inventory.yaml')
    host = inventory['Controller']['hosts']['overcloud-controller-0']
    assert host['ansible_host'] == '192.0.2.10'
    assert inventory['Controller']['vars']['tripleo_role_networks'] == [
        'ctlplane']
    assert 'Compute' in inventory['nova_compute']['children']
    # The control plane VIP has its own address, not the controller's.
    assert inventory['overcloud']['vars']['ctlplane_vip'] == '192.0.2.2'
    assert [v for v in inventory['overcloud']['vars'] if v.endswith(
        '_vip')] == ['ctlplane_vip']
    assert read('global_vars.yaml')['control_virtual_ip'] == '192.0.2.2'


def test_network_isolation_1_1(cli, tool, tmp_path, work_dir, port):
    wd, read = _deploy(cli, tool, tmp_path, work_dir, port, 'isolation')
    _check_isolation(wd, read, 1, 1)


def test_network_isolation_3_controllers_2_computes(cli, tool, tmp_path,
                                                    work_dir, port):
    wd, read = _deploy(cli, tool, tmp_path, work_dir, port, 'isolation-ha')
    _check_isolation(wd, read, 3, 2)
    bootstrap = read('global_vars.yaml')
    assert bootstrap['control_virtual_ip'] == '192.0.2.2'


def test_standalone_role_on_one_host(cli, tool, tmp_path, work_dir, port):
    wd, read = _deploy(cli, tool, tmp_path, work_dir, port, 'standalone')
    inventory = read('tripleo-ansible-inventory.yaml')
    assert list(inventory['Standalone']['hosts']) == ['standalone-0']
    assert 'Controller' not in inventory
    # standalone-tripleo.yaml's ctlplane VIP port reads
    # DeployedServerPortMap['control_virtual_ip'].
    assert read('global_vars.yaml')['control_virtual_ip'] == '192.0.2.2'
    assert inventory['overcloud']['vars']['ctlplane_vip'] == '192.0.2.2'


def test_tripleo_deploy_standalone(cli, tool, tmp_path, work_dir, port):
    tht = tool.tht_dir()
    result = cli.json(
        'tripleo', 'deploy', '--standalone', '--templates', tht,
        '--local-ip', '192.0.2.40/24', '--control-virtual-ip', '192.0.2.41',
        '-e', os.path.join(tht, 'environments', 'standalone',
                           'standalone-tripleo.yaml'),
        '--output-only', '--keep-running', '--work-dir', str(work_dir),
        '--heat-api-port', str(port), timeout=3600)
    assert result['stack'] == 'standalone'
    assert result['stack_status'] == 'CREATE_COMPLETE'
    wd = helpers.Layout(work_dir, 'standalone')
    cd = wd.config_download_dir
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    (name, host), = inventory['Standalone']['hosts'].items()
    assert host['ansible_host'] == '192.0.2.40'
    assert host['ansible_ssh_user'] == 'root'
    assert yaml.safe_load((cd / 'global_vars.yaml').read_text())[
        'control_virtual_ip'] == '192.0.2.41'
    params = yaml.safe_load(wd.deployed_servers_file.read_text())[
        'parameter_defaults']
    assert params['CloudName'] == '192.0.2.40'
    assert params['HostnameMap'] == {'standalone-standalone-0': name}
    assert params['OVNDBsVirtualFixedIPs'] == [
        {'ip_address': '192.0.2.41', 'use_neutron': False}]
    # tripleo deploy ran Ansible as root: the host's ssh_user (deliberate).
    _parity(work_dir, cd, 'standalone', tmp_path)
