"""What network, VIP and node provision produced, from our inputs."""

import os

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import deployed_environment as de
from tripleo_ephemeral.overcloud import ip_allocation
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import vip_data
from tripleo_ephemeral.tests.unit import fakes

NETS = network_data.validate_networks(fakes.NETWORK_ISOLATION)
ROLES = fakes.THT_ROLES


def _build(servers, networks=NETS, templates=None, vips=()):
    vips = vip_data.complete(list(vips), networks)[0]
    addresses = ip_allocation.allocate(servers, ROLES, networks, vips)
    return de.build(servers, ROLES, networks, addresses, 'overcloud',
                    templates_dir=templates)


def test_ctlplane_only():
    servers = fakes.servers()
    servers['Controller'][0]['hostname'] = 'Overcloud-Controller-0'
    params = _build(servers, networks=[])['parameter_defaults']
    assert params['ControllerCount'] == 1 and params['CephStorageCount'] == 0
    assert params['ComputeHostnameFormat'] == '%stackname%-novacompute-%index%'
    assert params['CephStorageHostnameFormat'] == (
        '%stackname%-cephstorage-%index%')
    assert params['HostnameMap'] == {
        'overcloud-controller-0': 'Overcloud-Controller-0',
        'overcloud-novacompute-0': 'overcloud-novacompute-0'}
    # NodePortMap keys are lower-cased, as THT looks them up.
    assert params['NodePortMap']['overcloud-controller-0'] == {'ctlplane': {
        'ip_address': '192.0.2.10', 'ip_address_uri': '192.0.2.10',
        'ip_subnet': '192.0.2.10/24'}}
    ports = params['DeployedServerPortMap']
    assert ports['overcloud-controller-0-ctlplane']['fixed_ips'] == [
        {'ip_address': '192.0.2.10'}]
    # The ctlplane VIP is its own address, also for deployed-neutron-port
    # (environments/standalone/standalone-tripleo.yaml).
    assert ports['control_virtual_ip']['fixed_ips'] == [
        {'ip_address': '192.0.2.2'}]
    assert params['ControlPlaneVipData'] == {
        'name': 'control_virtual_ip', 'network': {'tags': ['192.0.2.0/24']},
        'fixed_ips': [{'ip_address': '192.0.2.2'}],
        'subnets': [{'ip_version': 4}]}
    attrs = params['CtlplaneNetworkAttributes']
    assert attrs['network']['dns_domain'] == 'ctlplane.localdomain.'
    assert attrs['subnets']['ctlplane-subnet']['cidr'] == '192.0.2.0/24'
    assert params['VipPortMap'] == {}
    assert 'DeployedNetworkEnvironment' not in params


def test_network_isolation():
    env = _build(fakes.servers(controllers=3, computes=2))
    params = env['parameter_defaults']
    node = params['NodePortMap']['overcloud-controller-1']
    assert sorted(node) == ['ctlplane', 'external', 'internal_api',
                            'storage', 'storage_mgmt', 'tenant']
    assert node['internal_api'] == {'ip_address': '172.16.2.6',
                                    'ip_address_uri': '172.16.2.6',
                                    'ip_subnet': '172.16.2.6/24'}
    assert sorted(params['NodePortMap']['overcloud-novacompute-0']) == [
        'ctlplane', 'internal_api', 'storage', 'tenant']
    assert sorted(params['VipPortMap']) == ['external', 'internal_api',
                                            'storage', 'storage_mgmt']
    assert params['VipPortMap']['external']['ip_address'] == '10.0.0.4'
    dne = params['DeployedNetworkEnvironment']
    assert dne['net_cidr_map']['internal_api'] == ['172.16.2.0/24']
    assert dne['net_ip_version_map'] == dict.fromkeys(
        ['storage', 'storage_mgmt', 'internal_api', 'tenant', 'external'], 4)
    api = dne['net_attributes_map']['internal_api']
    assert api['network'] == {
        'name': 'internal_api', 'mtu': 1500,
        'dns_domain': 'internalapi.localdomain.',
        'tags': ['tripleo_network_name=InternalApi', 'tripleo_net_idx=2',
                 'tripleo_vip=true']}
    assert api['subnets']['internal_api_subnet'] == {
        'name': 'internal_api_subnet', 'cidr': '172.16.2.0/24',
        'gateway_ip': None, 'host_routes': [], 'dns_nameservers': [],
        'ip_version': 4, 'tags': ['tripleo_vlan_id=20']}
    assert dne['net_attributes_map']['external']['subnets'][
        'external_subnet']['gateway_ip'] == '10.0.0.1'
    assert 'tripleo_vip=true' not in dne['net_attributes_map']['tenant'][
        'network']['tags']
    # No template set given: no registry.
    assert 'resource_registry' not in env


def test_registry_points_into_the_rendered_templates(tmp_path):
    for rel in ('network/deployed_networks.yaml',
                'network/ports/deployed_internal_api.yaml',
                'network/ports/deployed_tenant.yaml',
                'network/ports/deployed_vip_internal_api.yaml',
                'network/ports/deployed_vip_ctlplane.yaml'):
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
        (tmp_path / rel).write_text('heat_template_version: wallaby\n')
    registry = _build(fakes.servers(), templates=str(tmp_path))[
        'resource_registry']
    assert registry == {
        'OS::TripleO::Network': str(
            tmp_path / 'network/deployed_networks.yaml'),
        # Every role with the network, also CephStorage without hosts.
        'OS::TripleO::Controller::Ports::InternalApiPort': str(
            tmp_path / 'network/ports/deployed_internal_api.yaml'),
        'OS::TripleO::Compute::Ports::InternalApiPort': str(
            tmp_path / 'network/ports/deployed_internal_api.yaml'),
        'OS::TripleO::Controller::Ports::TenantPort': str(
            tmp_path / 'network/ports/deployed_tenant.yaml'),
        'OS::TripleO::Compute::Ports::TenantPort': str(
            tmp_path / 'network/ports/deployed_tenant.yaml'),
        'OS::TripleO::Network::Ports::InternalApiVipPort': str(
            tmp_path / 'network/ports/deployed_vip_internal_api.yaml'),
        'OS::TripleO::Network::Ports::ControlPlaneVipPort': str(
            tmp_path / 'network/ports/deployed_vip_ctlplane.yaml'),
    }


def test_hostname_collisions_are_refused():
    roles = [{'name': 'Compute'}, {'name': 'NovaCompute'}, {'name': 'X'}]
    servers = {'Compute': [{}], 'NovaCompute': [{}], 'X': []}
    with pytest.raises(exceptions.RolesDataError) as e:
        de.check_hostname_formats(servers, roles, 'oc', 'r.yaml')
    assert str(e.value) == (
        'Roles data file r.yaml: roles Compute and NovaCompute would both '
        'name a host oc-novacompute-0 (%stackname%-novacompute-%index%): '
        'rename one of them')
    # THT roles sharing a HostnameFormatDefault do not collide.
    de.check_hostname_formats(
        {'ControllerOpenstack': [{}], 'ControllerStorageNfs': [{}]},
        [{'name': 'ControllerOpenstack',
          'HostnameFormatDefault': '%stackname%-controller-%index%'},
         {'name': 'ControllerStorageNfs',
          'HostnameFormatDefault': '%stackname%-controller-%index%'}], 'oc')
