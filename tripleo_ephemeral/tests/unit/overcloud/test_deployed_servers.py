import os
import stat

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import deployed_servers as ds

ROLES = [
    {'name': 'Controller', 'tags': ['primary'],
     'HostnameFormatDefault': '%stackname%-controller-%index%'},
    {'name': 'Compute'},
    {'name': 'Storage'},
]
SERVERS = {
    'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.10',
                    'ssh_user': 'admin'}],
    'Compute': [{'hostname': 'n0', 'ctlplane_ip': '192.0.2.20',
                 'ctlplane_cidr': 25},
                {'hostname': 'n1', 'ctlplane_ip': '192.0.2.21'}],
}


def test_build_environment():
    servers = ds.validate_servers(SERVERS)
    params = ds.build_environment(servers, ROLES, 'oc')['parameter_defaults']
    assert params['ControllerCount'] == 1
    assert params['ComputeCount'] == 2
    assert params['StorageCount'] == 0
    assert params['HostnameMap'] == {'oc-controller-0': 'c0',
                                     'oc-compute-0': 'n0',
                                     'oc-compute-1': 'n1'}
    port = params['DeployedServerPortMap']['n0-ctlplane']
    assert port['fixed_ips'] == [{'ip_address': '192.0.2.20'}]
    assert port['subnets'][0]['cidr'] == '192.0.2.0/25'
    assert params['NodePortMap']['c0']['ctlplane'] == {
        'ip_address': '192.0.2.10', 'ip_address_uri': '192.0.2.10',
        'ip_subnet': '192.0.2.10/24'}
    assert params['ControlPlaneVipData']['fixed_ips'] == [
        {'ip_address': '192.0.2.10'}]
    assert params['CtlplaneNetworkAttributes']['subnets'][
        'ctlplane-subnet']['ip_version'] == 4
    assert params['VipPortMap'] == {}


def test_ipv6_uri():
    servers = ds.validate_servers(
        {'Controller': [{'hostname': 'c0', 'ctlplane_ip': 'fd00::5',
                         'ctlplane_cidr': 64}]})
    params = ds.build_environment(servers, ROLES, 'oc')['parameter_defaults']
    assert params['NodePortMap']['c0']['ctlplane']['ip_address_uri'] == (
        '[fd00::5]')


def test_unknown_role_names_role_and_roles_file(tmp_path):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump({'Networker': [
        {'hostname': 'x', 'ctlplane_ip': '192.0.2.1'}]}))
    with pytest.raises(exceptions.DeployedServersError) as e:
        ds.prepare_environment(str(path), ROLES, 'oc',
                               str(tmp_path / 'env.yaml'),
                               roles_file='roles_data.yaml')
    message = str(e.value)
    assert 'Networker' in message and 'roles_data.yaml' in message
    assert '\n' not in message


@pytest.mark.parametrize('data, fragment', [
    ({'Controller': [{'hostname': 'c0'}]}, 'ctlplane_ip'),
    ({'Controller': [{'ctlplane_ip': '192.0.2.1'}]}, 'needs a hostname'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'sshuser': 'x'}]}, 'unknown key'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1'},
                     {'hostname': 'C0', 'ctlplane_ip': '192.0.2.2'}]},
     'listed twice'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1'},
                     {'hostname': 'c1', 'ctlplane_ip': '192.0.2.1'}]},
     'used by both'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'ctlplane_cidr': '10.0.0.0/8'}]}, 'outside'),
    ([], 'must map role names'),
    ({'Controller': [{'hostname': 'bad host', 'ctlplane_ip': '192.0.2.1'}]},
     'not a valid DNS label'),
    ({'Controller': [{'hostname': '-c0', 'ctlplane_ip': '192.0.2.1'}]},
     'not a valid DNS label'),
    ({'Controller': [{'hostname': 'c' * 64, 'ctlplane_ip': '192.0.2.1'}]},
     'not a valid DNS label'),
    ({'Controller': [{'hostname': 'c0.example.com',
                      'ctlplane_ip': '192.0.2.1'}]}, 'short name'),
])
def test_invalid_servers(data, fragment):
    with pytest.raises(exceptions.DeployedServersError, match=fragment):
        ds.validate_servers(data, 's.yaml')


def test_write_environment_and_ssh_users(tmp_path):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump(SERVERS))
    wanted = str(tmp_path / 'oc-deployed-servers.yaml')
    env_path, servers = ds.prepare_environment(str(path), ROLES, 'oc',
                                               wanted)
    assert env_path == wanted
    assert stat.S_IMODE(os.stat(env_path).st_mode) == 0o600
    with open(env_path) as f:
        assert yaml.safe_load(f)['parameter_defaults']['ComputeCount'] == 2
    assert ds.ssh_users(servers) == {'c0': 'admin', 'n0': 'tripleo-admin',
                                     'n1': 'tripleo-admin'}
    assert ds.ssh_users(servers, default=None) == {'c0': 'admin'}
    assert ds.ssh_users(None, default=None) == {}


def test_removed_hosts():
    before = ds.validate_servers(SERVERS)
    after = ds.validate_servers({
        'Controller': SERVERS['Controller'],
        'Compute': [{'hostname': 'N0', 'ctlplane_ip': '192.0.2.20'},
                    {'hostname': 'n2', 'ctlplane_ip': '192.0.2.22'}]})
    removed = ds.removed_hosts(before, after)
    assert [(role, host['hostname']) for role, host in removed] == [
        ('Compute', 'n1')]
    assert ds.removed_hosts(None, after) == []
    assert len(ds.removed_hosts(before, None)) == 3
    text = ds.REMOVED_HOST_WARNING % {'host': 'n1', 'role': 'Compute',
                                      'ip': '192.0.2.21'}
    assert 'power it off' in text and 'reprovision' in text
