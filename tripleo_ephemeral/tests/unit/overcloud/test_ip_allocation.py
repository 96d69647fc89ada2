"""Addresses without Neutron: given, recorded, else allocated; never twice."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import deployed_servers
from tripleo_ephemeral.overcloud import ip_allocation
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import vip_data
from tripleo_ephemeral.tests.unit import fakes

NETS = network_data.validate_networks(fakes.NETWORK_ISOLATION)
ROLES = fakes.THT_ROLES


def _vips(entries=()):
    return vip_data.complete(list(entries), NETS)[0]


def _allocate(servers, vips=(), previous=None):
    return ip_allocation.allocate(servers, ROLES, NETS, _vips(vips),
                                  previous=previous, servers_path='s.yaml',
                                  vip_path='v.yaml', record_path='r.yaml')


def _ips(addresses):
    return ({net: str(a.ip) for net, a in addresses.vips.items()},
            {host: {net: str(a.ip) for net, a in nets.items()}
             for host, nets in addresses.hosts.items()})


def test_vips_first_then_hosts_in_roles_order():
    servers = fakes.servers(controllers=3, computes=2)
    vips, hosts = _ips(_allocate(servers))
    # The VIPs of every vip: true network, then ctlplane (.1 skipped).
    assert vips == {'storage': '172.16.1.4', 'storage_mgmt': '172.16.3.4',
                    'internal_api': '172.16.2.4', 'external': '10.0.0.4',
                    'ctlplane': '192.0.2.2'}
    assert hosts['overcloud-controller-0'] == {
        'storage': '172.16.1.5', 'storage_mgmt': '172.16.3.5',
        'internal_api': '172.16.2.5', 'tenant': '172.16.0.4',
        'external': '10.0.0.5'}
    assert hosts['overcloud-controller-2']['internal_api'] == '172.16.2.7'
    # Computes: only their role's networks (no external, no storage_mgmt).
    assert hosts['overcloud-novacompute-1'] == {
        'storage': '172.16.1.9', 'internal_api': '172.16.2.9',
        'tenant': '172.16.0.8'}
    every = [ip for nets in hosts.values() for ip in nets.values()]
    assert len(every) == len(set(every)) == 3 * 5 + 2 * 3


def test_given_addresses_are_kept_and_skipped_by_allocation():
    servers = fakes.servers(overcloud_controller_0={
        'internal_api': '172.16.2.4'})
    addresses = _allocate(servers, vips=[{'network': 'ctlplane',
                                          'ip_address': '192.0.2.5'}])
    vips, hosts = _ips(addresses)
    assert hosts['overcloud-controller-0']['internal_api'] == '172.16.2.4'
    assert vips['internal_api'] == '172.16.2.5'
    assert vips['ctlplane'] == '192.0.2.5'
    assert ('the ctlplane VIP', 'ctlplane', '192.0.2.5') not in \
        addresses.new
    address = addresses.hosts['overcloud-controller-0']['internal_api']
    assert address.ip_subnet == '172.16.2.4/24'
    assert address.subnet.name == 'internal_api_subnet'


def test_record_keeps_every_address_on_later_deploys():
    first = _allocate(fakes.servers(computes=2))
    record = first.record()
    assert record['hosts']['overcloud-novacompute-1']['tenant']
    # A new host comes first in the file: the others keep their addresses
    # and it gets a free one.
    servers = fakes.servers(computes=2)
    servers['Controller'].insert(0, {
        'hostname': 'new-controller', 'ctlplane_ip': '192.0.2.9',
        'ctlplane_cidr': '192.0.2.0/24', 'networks': {}})
    again = _allocate(servers, previous=record)
    assert _ips(again)[1]['overcloud-novacompute-1'] == \
        _ips(first)[1]['overcloud-novacompute-1']
    assert _ips(again)[0] == _ips(first)[0]
    assert {owner for owner, _net, _ip in again.new} == {
        'host new-controller'}
    assert again.describe_new().startswith(
        'host new-controller: storage 172.16.1.')
    assert first.describe_new().startswith(
        'VIPs: storage 172.16.1.4, storage_mgmt 172.16.3.4, ')
    # The same inputs again: nothing new.
    assert _allocate(fakes.servers(computes=2), previous=record).new == []


@pytest.mark.parametrize('servers, vips, fragment', [
    (fakes.servers(overcloud_novacompute_0={'internal_api': '10.9.9.9'}), (),
     'host overcloud-novacompute-0: its internal_api address 10.9.9.9 is '
     'outside'),
    (fakes.servers(overcloud_controller_0={'tenant': '172.16.0.9'},
                   overcloud_novacompute_0={'tenant': '172.16.0.9'}), (),
     'host overcloud-controller-0 and host overcloud-novacompute-0 both '
     'have 172.16.0.9'),
    (fakes.servers(overcloud_novacompute_0={'external': '10.0.0.9'}), (),
     'which its role Compute does not use'),
    (fakes.servers(overcloud_novacompute_0={'nope': '10.0.0.9'}), (),
     'nope, which the networks data does not define'),
    (fakes.servers(), [{'network': 'ctlplane', 'ip_address': '192.0.2.20'}],
     'host overcloud-novacompute-0 and the ctlplane VIP both have'),
    (fakes.servers(), [{'network': 'internal_api',
                        'ip_address': '172.16.9.1'}],
     'VIP data file v.yaml: the internal_api VIP 172.16.9.1 is outside'),
])
def test_bad_addresses(servers, vips, fragment):
    with pytest.raises(exceptions.DeployedServersError) as e:
        _allocate(servers, vips)
    assert fragment in str(e.value)
    assert '\n' not in str(e.value)


def test_pool_exhausted_names_host_and_network():
    nets = network_data.validate_networks([dict(
        fakes.NETWORK_ISOLATION[2], subnets={'internal_api_subnet': {
            'ip_subnet': '172.16.2.0/24', 'allocation_pools': [
                {'start': '172.16.2.4', 'end': '172.16.2.6'}]}})])
    roles = [{'name': 'Controller', 'networks': ['InternalApi']},
             {'name': 'Compute', 'networks': ['InternalApi']}]
    servers = fakes.servers(controllers=2, computes=1)
    with pytest.raises(exceptions.DeployedServersError) as e:
        ip_allocation.allocate(servers, roles, nets,
                               vip_data.complete([], nets)[0],
                               servers_path='s.yaml')
    assert str(e.value) == (
        'Deployed servers file s.yaml: host overcloud-novacompute-0 needs '
        'an address on internal_api (subnet internal_api_subnet, pool '
        '172.16.2.4-172.16.2.6) and the pool is exhausted: give one in the '
        'file or widen allocation_pools')
    # Given in the file, the host needs nothing from the pool.
    servers['Compute'][0]['networks'] = {'internal_api': '172.16.2.100'}
    ip_allocation.allocate(servers, roles, nets,
                           vip_data.complete([], nets)[0])


def test_recorded_address_given_to_another_host_is_refused():
    record = _allocate(fakes.servers()).record()
    taken = record['hosts']['overcloud-controller-0']['internal_api']
    servers = fakes.servers(computes=2, overcloud_novacompute_1={
        'internal_api': taken})
    with pytest.raises(exceptions.DeployedServersError) as e:
        _allocate(servers, previous=record)
    assert ('host overcloud-novacompute-1 has %s, which was allocated to '
            'host overcloud-controller-0 on internal_api by an earlier '
            'deploy (recorded in r.yaml)' % taken) in str(e.value)


def test_ctlplane_only():
    nets = network_data.validate_networks([])
    addresses = ip_allocation.allocate(
        fakes.servers(), ROLES, nets, vip_data.complete([], nets)[0])
    assert _ips(addresses) == ({'ctlplane': '192.0.2.2'}, {
        'overcloud-controller-0': {}, 'overcloud-novacompute-0': {}})


def test_ipv6_control_plane_defaults_to_a_64_and_its_vip_follows():
    """Issue 29 case 6: an IPv6 ctlplane_ip without ctlplane_cidr is on
    its /64 (it was a /24: 2001:d00::/24), the VIP in it, its URI
    bracketed."""
    servers = deployed_servers.validate_servers({
        'Controller': [{'hostname': 'c0', 'ctlplane_ip': '2001:db8::10'}],
        'Compute': [{'hostname': 'n0', 'ctlplane_ip': '2001:db8::20'}]})
    assert servers['Controller'][0]['ctlplane_cidr'] == '2001:db8::/64'
    nets = network_data.validate_networks([])
    addresses = ip_allocation.allocate(
        servers, ROLES, nets, vip_data.complete([], nets)[0])
    vip = addresses.vips['ctlplane']
    assert str(vip.ip) == '2001:db8::2'
    assert vip.uri == '[2001:db8::2]'
    assert str(vip.subnet.cidr) == '2001:db8::/64'


def test_control_plane_larger_than_a_24():
    """ctlplane_cidr gives a control plane of hundreds of hosts."""
    hosts = [{'hostname': 'n%d' % i, 'ctlplane_ip': '10.0.%d.%d' % divmod(
        i + 10, 256)} for i in range(600)]
    hosts[0]['ctlplane_cidr'] = 22  # once: every host in it follows
    hosts.append({'hostname': 'other', 'ctlplane_ip': '10.9.0.5'})
    servers = deployed_servers.validate_servers({'Compute': hosts})
    assert {h['ctlplane_cidr'] for h in servers['Compute'][:600]} == {
        '10.0.0.0/22'}
    assert servers['Compute'][600]['ctlplane_cidr'] == '10.9.0.0/24'
    nets = network_data.validate_networks([])
    addresses = ip_allocation.allocate(
        servers, ROLES, nets, vip_data.complete([], nets)[0])
    assert str(addresses.vips['ctlplane'].ip) == '10.0.0.2'
    assert len(addresses.hosts) == 601
