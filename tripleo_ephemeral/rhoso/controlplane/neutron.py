"""Adopting the Networking service: ML2/OVN as TripleO configured it.

``proc_adopting-the-networking-service.adoc`` patches Neutron on with its
internal endpoint on the load balancer and the ``internalapi`` attachment;
its notes turn ``dhcp_agent_notification`` on where DHCP agents run and
add ``baremetal`` to the mechanism drivers with Ironic. Everything else
neutron-server had is carried in ``customServiceConfig`` from the
Controller's hiera (THT's ``NeutronTypeDrivers``, ``NeutronNetworkType``,
``NeutronNetworkVLANRanges``, ``NeutronFlatNetworks``...). The bridge
mappings (``NeutronBridgeMappings``) belong to the chassis: the data
plane's NodeSets carry them (``edpm_ovn_bridge_mappings``); gateways on
OpenShift nodes would need ``ovnController.nicMappings``, which only the
operator knows.
"""

from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGE = 'proc_adopting-the-networking-service.adoc'
ML2 = 'neutron::plugins::ml2::'
#: (section, option, hiera key, THT parameter)
OPTIONS = (
    ('ml2', 'type_drivers', ML2 + 'type_drivers', 'NeutronTypeDrivers'),
    ('ml2', 'tenant_network_types', ML2 + 'tenant_network_types',
     'NeutronNetworkType'),
    ('ml2', 'extension_drivers', ML2 + 'extension_drivers',
     'NeutronPluginExtensions'),
    ('ml2', 'overlay_ip_version', ML2 + 'overlay_ip_version', None),
    ('ml2_type_vlan', 'network_vlan_ranges', ML2 + 'network_vlan_ranges',
     'NeutronNetworkVLANRanges'),
    ('ml2_type_flat', 'flat_networks', ML2 + 'flat_networks',
     'NeutronFlatNetworks'),
    ('ml2_type_geneve', 'vni_ranges', ML2 + 'vni_ranges', 'NeutronVniRanges'),
    ('ml2_type_geneve', 'max_header_size', ML2 + 'max_header_size',
     'NeutronGeneveMaxHeaderSize'),
    ('DEFAULT', 'global_physnet_mtu', 'neutron::global_physnet_mtu',
     'NeutronGlobalPhysnetMtu'),
    ('DEFAULT', 'service_plugins', 'neutron::service_plugins',
     'NeutronServicePlugins'),
    ('DEFAULT', 'dns_domain', 'neutron::dns_domain', 'NeutronDnsDomain'),
    ('DEFAULT', 'vlan_transparent', 'neutron::vlan_transparent',
     'EnableVLANTransparency'),
    ('DEFAULT', 'agent_down_time', 'neutron::server::agent_down_time',
     'NeutronAgentDownTime'),
    ('ovn', 'ovn_metadata_enabled', ML2 + 'ovn::ovn_metadata_enabled',
     'OVNMetadataEnabled'),
    ('ovn', 'enable_distributed_floating_ip', ML2 + 'ovn::dvr_enabled',
     'NeutronEnableDVR'),
    ('ovn', 'dns_servers', ML2 + 'ovn::dns_servers', 'OVNDnsServers'),
    ('ovn', 'ovn_emit_need_to_frag', ML2 + 'ovn::ovn_emit_need_to_frag',
     'OVNEmitNeedToFrag'),
    ('ovn', 'disable_ovn_dhcp_for_baremetal_ports',
     ML2 + 'ovn::disable_ovn_dhcp_for_baremetal_ports',
     'DisableOvnDhcpForBaremetalPorts'),
    ('quotas', 'quota_port', 'neutron::quota::quota_port', 'NeutronPortQuota'),
    ('quotas', 'quota_security_group', 'neutron::quota::quota_security_group',
     'NeutronSecurityGroupQuota'),
)
DHCP_AGENTS = ('neutron_dhcp',)


def _dhcp_roles(deployment):
    return sorted(r.name for r in deployment.roles.values()
                  if any(s in r.services for s in DHCP_AGENTS))


def bridge_mappings(deployment):
    """``{role: mappings}`` of the chassis (ovn_controller's hiera)."""
    found = {}
    for role in deployment.roles.values():
        value = role.config('ovn::controller::ovn_bridge_mappings')
        if value:
            found[role.name] = ini.value_text(value)
    return found


def build(deployment, role, endpoints):
    """The :class:`~.patch.Patch` of the Networking service."""
    config = ini.Config(role)
    for section, option, key, parameter in OPTIONS:
        config.hiera(section, option, key, parameter)
    dhcp = _dhcp_roles(deployment)
    if dhcp:
        config.set('DEFAULT', 'dhcp_agent_notification', True,
                   'the procedure\'s note: role %s runs the DHCP agent '
                   '(neutron_dhcp)' % ', '.join(dhcp))
    template = {'databaseInstance': 'openstack', 'databaseAccount': 'neutron',
                'secret': 'osp-secret', 'networkAttachments': [
                    endpoints.internal]}
    if 'internal' in endpoints.addresses:
        template['override'] = {'service': endpoints.internal_override()}
    values = []
    drivers = role.config(ML2 + 'mechanism_drivers') or ['ovn']
    if list(drivers) != ['ovn']:
        template['ml2MechanismDrivers'] = list(drivers)
        values.append(('spec.neutron.template.ml2MechanismDrivers', drivers,
                       'NeutronMechanismDrivers, from hiera %s'
                       'mechanism_drivers (group_vars/%s)' % (ML2, role.name)))
    template['customServiceConfig'] = config.text()
    inputs = []
    mappings = bridge_mappings(deployment)
    if mappings:
        values.append(('bridge mappings (the chassis\')', mappings,
                       'NeutronBridgeMappings, from hiera ovn::controller::'
                       'ovn_bridge_mappings: the data plane\'s NodeSets '
                       'carry them (edpm_ovn_bridge_mappings)'))
        inputs.append('OVN gateways on OpenShift nodes (instead of networker '
                      'nodes) need ovnController.nicMappings (physnet: NIC '
                      'of the workers), which only you know')
    spec = {'neutron': {'enabled': True, 'apiOverride': {'route': {}},
                        'template': template}}
    return patch_mod.Patch(
        'neutron', 'neutron', spec, PAGE,
        configs={'spec.neutron.template.customServiceConfig': config},
        inputs=inputs, values=values,
        after=['oc get pods -l service=neutron',
               'openstack endpoint list | grep network'])
