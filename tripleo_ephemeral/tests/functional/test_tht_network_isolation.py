"""THT's own network templates resolve with the generated environment.

A small stack on a real Heat (seconds, not the whole overcloud): the
networks, VIP and host ports of tripleo-heat-templates 18.0.0 rendered for
network-data-samples/default-network-isolation.yaml, with the environment
deploy generates for 3 Controllers + 2 Computes, then THT's
environments/deployed-network-environment.yaml and network-environment.yaml
as an operator passes them. Every port gets its own address: none falls back
to the control plane's (what THT's noop ports would give).
"""

import os

import yaml

from tripleo_ephemeral.overcloud import deployed_environment
from tripleo_ephemeral.overcloud import ip_allocation
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.overcloud import vip_data
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.unit import fakes

WRAPPER = {
    'heat_template_version': 'wallaby',
    'resources': {
        'ControlVirtualIP': {
            'type': 'OS::TripleO::Network::Ports::ControlPlaneVipPort'},
        'Networks': {
            'type': 'OS::TripleO::Network',
            'properties': {'CtlplaneNetworkCidrs': {
                'get_attr': ['ControlVirtualIP', 'network', 'tags']}}},
        'InternalApiVirtualIP': {
            'type': 'OS::TripleO::Network::Ports::InternalApiVipPort'},
        'PublicVirtualIP': {
            'type': 'OS::TripleO::Network::Ports::ExternalVipPort'},
        'Controller1InternalApi': {
            'type': 'OS::TripleO::Controller::Ports::InternalApiPort',
            'properties': {'DnsName': 'overcloud-controller-1'}},
        'Controller2External': {
            'type': 'OS::TripleO::Controller::Ports::ExternalPort',
            'properties': {'DnsName': 'overcloud-controller-2'}},
        'Compute1Tenant': {
            'type': 'OS::TripleO::Compute::Ports::TenantPort',
            'properties': {'DnsName': 'overcloud-novacompute-1'}},
    },
    'outputs': {
        'ctlplane_vip': {'value': {'get_attr': [
            'ControlVirtualIP', 'fixed_ips', 0, 'ip_address']}},
        'cidrs': {'value': {'get_attr': ['Networks', 'net_cidr_map']}},
        'attributes': {'value': {'get_attr': ['Networks',
                                              'net_attributes_map']}},
        'internal_api_vip': {'value': {'get_attr': [
            'InternalApiVirtualIP', 'ip_address']}},
        'public_vip': {'value': {'get_attr': ['PublicVirtualIP',
                                              'ip_subnet']}},
        'ports': {'value': [
            {'get_attr': ['Controller1InternalApi', 'ip_address']},
            {'get_attr': ['Controller2External', 'ip_subnet']},
            {'get_attr': ['Compute1Tenant', 'ip_address']}]},
    },
}


def test_network_isolation_templates(heat, tht_dir, tmp_path):
    role_data, _ = roles.with_implied_tags(
        roles.load_roles(os.path.join(tht_dir, 'roles_data.yaml')))
    networks = network_data.load_networks(os.path.join(
        tht_dir, 'network-data-samples', 'default-network-isolation.yaml'))
    rendered = template_processing.prepare_templates(
        tht_dir, str(tmp_path / 'tht'), role_data, networks)
    servers = fakes.servers(controllers=3, computes=2)
    vips = vip_data.complete(vip_data.DEFAULT_VIPS, networks)[0]
    addresses = ip_allocation.allocate(servers, role_data, networks, vips)
    env = deployed_environment.write(
        deployed_environment.build(servers, role_data, networks, addresses,
                                   'overcloud', templates_dir=rendered),
        str(tmp_path / 'overcloud-deployed-servers.yaml'))
    wrapper = tmp_path / 'wrapper.yaml'
    wrapper.write_text(yaml.safe_dump(WRAPPER))
    envs = os.path.join(rendered, 'environments')
    args = template_processing.stack_create_args(
        'isolation', rendered, [
            env, os.path.join(envs, 'deployed-network-environment.yaml'),
            os.path.join(envs, 'network-environment.yaml')],
        template_name=str(wrapper), timeout_mins=5)

    created = heat.stacks.create(**args)
    stack = helpers.wait_for_stack(heat, created['stack']['id'])
    assert stack.stack_status == 'CREATE_COMPLETE', stack.stack_status_reason
    out = {o['output_key']: o['output_value']
           for o in heat.stacks.get(stack.id).outputs}
    vip = addresses.vips
    assert out['ctlplane_vip'] == str(vip['ctlplane'].ip) == '192.0.2.2'
    assert out['internal_api_vip'] == str(vip['internal_api'].ip)
    assert out['public_vip'] == '%s/24' % vip['external'].ip
    hosts = addresses.hosts
    assert out['ports'] == [
        str(hosts['overcloud-controller-1']['internal_api'].ip),
        '%s/24' % hosts['overcloud-controller-2']['external'].ip,
        str(hosts['overcloud-novacompute-1']['tenant'].ip)]
    # Not the control plane's addresses (THT's noop ports would give them).
    assert not [ip for ip in out['ports'] if ip.startswith('192.0.2.')]
    assert out['cidrs']['internal_api'] == ['172.16.2.0/24']
    assert out['cidrs']['ctlplane'] == ['192.0.2.0/24']
    assert out['attributes']['external']['subnets']['external_subnet'][
        'gateway_ip'] == '10.0.0.1'
