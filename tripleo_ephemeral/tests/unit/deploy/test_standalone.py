"""tripleo deploy's inputs: one host, its VIPs, what it generated."""

import ipaddress
import os

import pytest

from tripleo_ephemeral.deploy import standalone
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import deployed_environment
from tripleo_ephemeral.overcloud import standalone as standalone_params
from tripleo_ephemeral.tests.unit import fakes


def _inputs(tht_dir, tmp_path, roles_file=None, **host):
    return standalone.StandaloneInputs(fakes.deploy_request(
        'standalone', str(tmp_path / 'w'), templates=tht_dir,
        roles_file=roles_file,
        standalone=standalone.StandaloneHost(hostname='sa', **host)))


def test_defaults_are_tripleo_deploys(tht_dir, tmp_path):
    given = _inputs(tht_dir, tmp_path, local_ip='192.0.2.40/24')
    assert given.roles_file == os.path.join(tht_dir,
                                            'roles_data_standalone.yaml')
    assert given.networks_file == os.devnull
    assert given.control_ip == given.public_ip == ipaddress.ip_address(
        '192.0.2.40')
    checked = given.check(lambda line: None)
    assert checked.servers == {'Standalone': [{
        'hostname': 'sa', 'ctlplane_ip': '192.0.2.40',
        'ctlplane_cidr': '192.0.2.0/24', 'ssh_user': 'root',
        'networks': {}}]}
    # The control plane VIP is the host's own address, as tripleoclient's.
    assert str(checked.addresses.vips['ctlplane'].ip) == '192.0.2.40'
    assert checked.networks == []


def test_roles_file_relative_to_the_templates(tht_dir, tmp_path):
    given = _inputs(tht_dir, tmp_path, local_ip='192.0.2.40/24',
                    roles_file='roles/Standalone.yaml')
    assert given.roles_file == os.path.join(tht_dir, 'roles',
                                            'Standalone.yaml')


@pytest.mark.parametrize('kwargs, fragment', [
    ({'local_ip': '192.0.2.40'}, '--local-ip 192.0.2.40 is not an address '
     'with its prefix'),
    ({'local_ip': '192.0.2.40/24', 'control_virtual_ip': 'x'},
     '--control-virtual-ip x is not an IP address'),
])
def test_bad_addresses(tht_dir, tmp_path, kwargs, fragment):
    with pytest.raises(exceptions.DeployedServersError, match=fragment):
        _inputs(tht_dir, tmp_path, **kwargs)


def test_generated_on_top():
    env = {'parameter_defaults': {
        'DeployedServerPortMap': {}, 'VipPortMap': {},
        'CtlplaneNetworkAttributes': {
            'network': {'mtu': 1500},
            'subnets': {deployed_environment.CTLPLANE_SUBNET: {}}}}}
    standalone_params.adjust(
        env, 'sa', ipaddress.ip_interface('192.0.2.40/24'),
        ipaddress.ip_address('192.0.2.41'), ipaddress.ip_address('192.0.2.42'),
        user_parameters={'NeutronBridgeMappings': 'datacentre:br-ex,t:br-t',
                         'InterfaceLocalMtu': 9000})
    params = env['parameter_defaults']
    assert params['CloudName'] == '192.0.2.42'
    assert params['CloudNameInternal'] == 'sa.internalapi.localdomain'
    assert params['RedisVirtualFixedIPs'] == [
        {'ip_address': '192.0.2.41', 'use_neutron': False}]
    assert params['OVNStaticBridgeMacMappings'] == {'sa': {
        'datacentre': 'fa:16:3a:00:53:00', 't': 'fa:16:3a:00:53:01'}}
    assert params['DeployedServerPortMap']['public_virtual_ip'][
        'fixed_ips'] == [{'ip_address': '192.0.2.42'}]
    assert params['VipPortMap']['external']['ip_subnet'] == '192.0.2.42/24'
    assert params['CtlplaneNetworkAttributes']['network']['mtu'] == 9000
