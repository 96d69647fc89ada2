"""The NIC template: renamed, carried, rendered on both sides."""

import pytest

from tripleo_ephemeral.rhoso import edpm_inventory
from tripleo_ephemeral.rhoso import nic

TEMPLATE = """---
network_config:
- type: ovs_bridge
  name: {{ neutron_physical_bridge_name }}
  domain: {{ dns_search_domains }}
  addresses:
  - ip_netmask: {{ ctlplane_ip }}/{{ ctlplane_subnet_cidr }}
  members:
{% for network in role_networks %}
  - type: vlan
    vlan_id: {{ lookup('vars', networks_lower[network] ~ '_vlan_id') }}
    addresses:
    - ip_netmask: {{ internal_api_ip }}/{{ lookup('vars',
        networks_lower[network] ~ '_cidr') }}
    routes: {{ lookup('vars', networks_lower[network] ~ '_host_routes') }}
{% endfor %}
# role_networks in a comment stays
"""

TRIPLEO = {'h0': {
    'neutron_physical_bridge_name': 'br-ex', 'dns_search_domains': [],
    'ctlplane_ip': '192.0.2.20', 'ctlplane_subnet_cidr': '24',
    'role_networks': ['InternalApi'],
    'networks_lower': {'InternalApi': 'internal_api'},
    'internal_api_ip': '172.17.0.20', 'internal_api_cidr': '24',
    'internal_api_vlan_id': 20,
    'internal_api_host_routes': [{'default': True, 'next_hop': '172.17.0.1'}],
}}
EDPM = {'h0': {
    'dns_search_domains': ['localdomain', 'ctlplane.localdomain'],
    'ctlplane_ip': '192.0.2.20', 'ctlplane_cidr': 24,
    'nodeset_networks': ['internalapi'],
    'networks_lower': {'internalapi': 'internalapi'},
    'internalapi_ip': '172.17.0.20', 'internalapi_cidr': 24,
    'internalapi_vlan_id': 20, 'internalapi_host_routes': [],
}}
NETWORK_MAP = {'internal_api': 'internalapi', 'ctlplane': 'ctlplane'}


def test_convert_and_prove():
    conversion = nic.convert(TEMPLATE, TRIPLEO, EDPM, NETWORK_MAP)
    assert conversion.renamed == {
        'role_networks': 'nodeset_networks',
        'ctlplane_subnet_cidr': 'ctlplane_cidr',
        'internal_api_ip': 'internalapi_ip',
        'dns_search_domains': 'tripleo_dns_search_domains',
        '<net>_host_routes': 'tripleo_<net>_host_routes'}
    assert conversion.carried['h0'] == {
        'neutron_physical_bridge_name': ('br-ex',
                                         'neutron_physical_bridge_name'),
        'tripleo_dns_search_domains': ([], 'dns_search_domains'),
        'tripleo_internalapi_host_routes': (
            [{'default': True, 'next_hop': '172.17.0.1'}],
            'internal_api_host_routes')}
    assert '# role_networks in a comment stays' in conversion.template
    assert "'tripleo_' ~ networks_lower[network] ~ '_host_routes'" in \
        conversion.template
    edpm = {'h0': dict(EDPM['h0'], **{
        k: v for k, (v, _) in conversion.carried['h0'].items()})}
    assert nic.prove(TEMPLATE, conversion.template, TRIPLEO, edpm) == \
        {'h0': None}


def test_unconverted_template_differs_and_says_where():
    edpm = {'h0': dict(EDPM['h0'], neutron_physical_bridge_name='br-ex',
                       role_networks=['internalapi'],
                       ctlplane_subnet_cidr=24, internal_api_ip='x')}
    why = nic.prove(TEMPLATE, TEMPLATE, TRIPLEO, edpm)['h0']
    assert why.startswith('they differ at network_config[0].domain: '
                          'TripleO [], EDPM')


def test_strict_undefined_and_live_values():
    result = nic.prove(TEMPLATE, '{{ nothing }}', TRIPLEO, EDPM)['h0']
    assert result == ("the EDPM template does not render: 'nothing' is "
                      "undefined")
    live = dict(EDPM['h0'], x=edpm_inventory.live('the cluster DNS'))
    with pytest.raises(nic.RenderError, match='only the cluster knows'):
        nic.render('network_config: {{ x }}', live)


def test_none_renders_as_nothing_like_ansible():
    assert nic.render('{{ a.append(1) }}network_config: {{ b }}',
                      {'a': [], 'b': None}) is None


def test_network_names_compared_in_the_template_follow_the_map():
    text = ('network_config:\n{% for network in networks_all %}'
            '{% if network in role_networks and network != "Tenant" %}\n'
            '- name: {{ network }}\n{% endif %}{% endfor %}\n')
    tripleo = {'h0': {'networks_all': ['InternalApi', 'Tenant', 'External'],
                      'role_networks': ['InternalApi', 'Tenant']}}
    edpm = {'h0': {'nodeset_networks': ['internalapi', 'tenant']}}
    names = {'InternalApi': 'internalapi', 'Tenant': 'tenant',
             'External': 'external'}
    conversion = nic.convert(text, tripleo, edpm, {}, names)
    assert 'network != "tenant"' in conversion.template
    assert conversion.carried['h0']['networks_all'] == (
        ['internalapi', 'tenant', 'external'], 'networks_all')
    assert nic.render(conversion.template, dict(
        edpm['h0'], networks_all=['internalapi', 'tenant', 'external'])) == \
        [{'name': 'internalapi'}]


def test_not_a_template():
    with pytest.raises(nic.RenderError, match=r"line 1: unexpected '\)'"):
        nic.referenced('{{ a }} }}{{ )')
