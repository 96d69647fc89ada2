import ipaddress

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data as nd

INTERNAL = {'name': 'InternalApi', 'name_lower': 'internal_api', 'vip': True,
            'subnets': {'internal_api_subnet': {
                'ip_subnet': '172.16.2.0/24', 'vlan': 20,
                'allocation_pools': [{'start': '172.16.2.4',
                                      'end': '172.16.2.250'}]}}}


def test_defaults_and_bundled_file():
    from tripleo_ephemeral.overcloud import template_processing
    src = template_processing.bundled_templates_dir()
    assert nd.load_networks(src + '/network_data.yaml') == []
    nets = nd.validate_networks([{'name': 'InternalApi'}])
    assert nets[0]['name_lower'] == 'internalapi'
    assert nets[0]['enabled'] is True


@pytest.mark.parametrize('data, fragment', [
    ({}, 'must be a list'),
    ([{'name': 'A', 'ip_subnet': '10.0.0.0/24'}], 'network data v1'),
    ([{'name': 'A', 'subnets': ['x']}], 'subnets must map'),
    ([{'name': 'A', 'subnets': {'a': {}}}], 'needs ip_subnet'),
    ([{'name': 'A', 'ipv6': True, 'subnets': {'a': {
        'ip_subnet': '10.0.0.0/24'}}}], 'needs ipv6_subnet'),
    ([{'name': 'A', 'subnets': {'a': {'ip_subnet': 'nope'}}}], 'not a CIDR'),
    ([{'name': 'A', 'subnets': {'a': {
        'ip_subnet': '10.0.0.0/24',
        'allocation_pools': [{'start': '10.0.0.9', 'end': '10.0.1.1'}]}}}],
     'not a range inside'),
    ([{'name': 'A', 'subnets': {'a': {'ip_subnet': '10.0.0.0/24',
                                      'gateway_ip': '10.9.0.1'}}}],
     'outside'),
    ([{'name': 'A'}, {'name': 'B', 'name_lower': 'a'}], 'used twice'),
    ([{'name': 'A', 'subnets': {'a': {
        'ip_subnet': '10.0.0.0/24',
        'allocation_pools': [{'start': '10.0.0.200', 'end': '10.0.0.255'}]}}}],
     'network A subnet a: allocation pool 10.0.0.200-10.0.0.255 includes '
     '10.0.0.255, the broadcast address of 10.0.0.0/24, which no host can '
     'have: start after it or end before it'),
    ([{'name': 'A', 'subnets': {'a': {
        'ip_subnet': '10.0.0.0/24',
        'allocation_pools': [{'start': '10.0.0.0', 'end': '10.0.0.9'}]}}}],
     'includes 10.0.0.0, the network address'),
    ([{'name': 'A', 'ipv6': True, 'subnets': {'a': {
        'ipv6_subnet': 'fd00::/64', 'gateway_ipv6': 'fd00::'}}}],
     'gateway_ipv6 fd00:: is the subnet-router anycast address of '
     'fd00::/64, which no router can have'),
])
def test_invalid_networks(data, fragment):
    with pytest.raises(exceptions.RolesDataError) as e:
        nd.validate_networks(data, 'n.yaml')
    assert fragment in str(e.value) and 'n.yaml' in str(e.value)
    assert '\n' not in str(e.value)


def test_subnet_ranges():
    subnet = nd.subnets(INTERNAL)['internal_api_subnet']
    ip = ipaddress.ip_address
    assert subnet.ranges() == [(ip('172.16.2.4'), ip('172.16.2.250'))]
    whole = nd.subnets({'name': 'X', 'name_lower': 'x', 'subnets': {'s': {
        'ip_subnet': '10.0.0.0/29', 'gateway_ip': '10.0.0.1'}}})['s']
    assert whole.ranges() == [(ip('10.0.0.2'), ip('10.0.0.6'))]
    v6 = nd.subnets({'name': 'X', 'name_lower': 'x', 'ipv6': True,
                     'subnets': {'s': {'ipv6_subnet': 'fd00::/64'}}})['s']
    assert v6.ranges()[0][0] == ip('fd00::1') and v6.version == 6


def test_role_subnet_and_networks():
    nets = nd.validate_networks([INTERNAL, {
        'name': 'Tenant', 'subnets': {
            'a': {'ip_subnet': '10.0.0.0/24'},
            'b': {'ip_subnet': '10.0.1.0/24'}}},
        {'name': 'Off', 'enabled': False}])
    role = {'name': 'C', 'networks': {'InternalApi': {}, 'Tenant': {
        'subnet': 'b'}, 'Off': {}}}
    assert [n['name'] for n in nd.role_networks(role, nets)] == [
        'InternalApi', 'Tenant']
    assert nd.role_subnet(role, nets[0]).name == 'internal_api_subnet'
    assert nd.role_subnet(role, nets[1]).name == 'b'
    assert nd.role_subnet({'name': 'D'}, nets[1]).name == 'a'
    with pytest.raises(exceptions.RolesDataError, match='subnet z'):
        nd.role_subnet({'name': 'E', 'networks': {'Tenant': {
            'subnet': 'z'}}}, nets[1])
    assert nd.role_networks({'name': 'F', 'networks': ['ctlplane',
                                                       'tenant']}, nets) == [
        nets[1]]


THT_ROLE = {'name': 'Controller', 'networks': {
    'External': {'subnet': 'external_subnet'},
    'InternalApi': {'subnet': 'internal_api_subnet'}}}


def test_role_networks_by_name_or_name_lower():
    nets = nd.validate_networks([
        {'name': 'External'},
        {'name': 'InternalApi', 'name_lower': 'internal_api'}])
    nd.check_role_networks([THT_ROLE], nets)
    nd.check_role_networks(
        [{'name': 'C', 'networks': ['ctlplane', 'internal_api']}], nets)
    with pytest.raises(exceptions.RolesDataError,
                       match='role C uses network Tenant.*InternalApi'):
        nd.check_role_networks([{'name': 'C', 'networks': {
            'Tenant': {'subnet': 'tenant_subnet'}}}], nets, 'r.yaml')


def test_role_networks_unchecked_without_networks_data():
    # THT's default: network_data_default.yaml is [] (control plane only)
    nd.check_role_networks([THT_ROLE], nd.validate_networks([]))
