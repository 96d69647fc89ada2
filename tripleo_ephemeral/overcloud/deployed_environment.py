"""What provisioning gave tripleo-heat-templates, for deployed servers.

tripleoclient got these from ``openstack overcloud network provision``,
``network vip provision`` and ``node provision`` (tripleo-ansible writing
what Neutron and Ironic answered). Here they come from the deployed servers
file, the networks and VIP data and the addresses of
:mod:`~tripleo_ephemeral.overcloud.ip_allocation`, with no Neutron:

* ``resource_registry``: ``OS::TripleO::Network`` to
  ``network/deployed_networks.yaml``, every role port to
  ``network/ports/deployed_<net>.yaml``, every VIP port to
  ``network/ports/deployed_vip_<net>.yaml`` (absolute paths into the
  rendered templates; only those the template set has);
* ``parameter_defaults``: ``<Role>Count`` and ``<Role>HostnameFormat``
  (every role), ``HostnameMap``, ``DeployedServerPortMap`` (each host's
  ctlplane port and ``control_virtual_ip``), ``NodePortMap`` (lower-cased
  hostnames, every network of the host, ctlplane included),
  ``VipPortMap``, ``ControlPlaneVipData``, ``CtlplaneNetworkAttributes``
  and ``DeployedNetworkEnvironment``.
"""

import ipaddress
import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import ip_allocation
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

CTLPLANE = network_data.CTLPLANE
CTLPLANE_SUBNET = 'ctlplane-subnet'
CONTROL_VIRTUAL_IP = 'control_virtual_ip'
DEFAULT_MTU = 1500


def hostname_format(role):
    """``<Role>HostnameFormat`` as node provision wrote it (tripleo-ansible's
    ``build_hostname_format``): ``%stackname%-<role lower>-%index%``,
    ``novacompute`` for Compute. The role's ``HostnameFormatDefault`` is
    not used, as with tripleoclient: several THT roles share one, and the
    generated names only key ``HostnameMap``."""
    return '%%stackname%%-%s-%%index%%' % (
        'novacompute' if role['name'] == 'Compute' else role['name'].lower())


def generated_hostname(fmt, stack_name, index):
    return fmt.replace('%stackname%', stack_name).replace(
        '%index%', str(index))


def check_hostname_formats(servers, roles, stack_name,
                           roles_path='<roles data>'):
    """Fail when two roles with hosts would generate the same hostname
    (``HostnameMap`` could not tell their hosts apart)."""
    seen = {}
    for role in roles:
        fmt = hostname_format(role)
        for index in range(len(servers.get(role['name']) or [])):
            name = generated_hostname(fmt, stack_name, index).lower()
            if name in seen:
                raise exceptions.RolesDataError(
                    'Roles data file %s: roles %s and %s would both name a '
                    'host %s (%s): rename one of them' % (
                        roles_path, seen[name], role['name'], name, fmt))
            seen[name] = role['name']


def _port(address):
    return {'ip_address': str(address.ip), 'ip_address_uri': address.uri,
            'ip_subnet': address.ip_subnet}


def _fake_port(address):
    """A port as ``deployed-neutron-port.yaml`` reads it."""
    cidr = str(address.subnet.cidr)
    return {'fixed_ips': [{'ip_address': str(address.ip)}],
            'subnets': [{'cidr': cidr, 'ip_version': address.ip.version}],
            'network': {'name': CTLPLANE, 'tags': [cidr]}}


def _ctlplane_address(host):
    cidr = ipaddress.ip_network(host['ctlplane_cidr'])
    return ip_allocation.Address(
        ipaddress.ip_address(host['ctlplane_ip']),
        network_data.Subnet(CTLPLANE, CTLPLANE_SUBNET, cidr))


def _network_attributes(network, cloud_domain):
    """One network of ``DeployedNetworkEnvironment``, as tripleo-ansible's
    network provision wrote it from Neutron."""
    tags = ['tripleo_network_name=%s' % network['name'],
            'tripleo_net_idx=%d' % network['idx']]
    if network.get('service_net_map_replace'):
        tags.append('tripleo_service_net_map_replace=%s'
                    % network['service_net_map_replace'])
    if network.get('vip'):
        tags.append('tripleo_vip=true')
    subnets = {}
    for name, subnet in network_data.subnets(network).items():
        subnets[name] = {
            'name': name, 'cidr': str(subnet.cidr),
            'gateway_ip': str(subnet.gateway) if subnet.gateway else None,
            'host_routes': subnet.routes, 'dns_nameservers': [],
            'ip_version': subnet.version,
            'tags': ['tripleo_vlan_id=%s' % (
                subnet.vlan if subnet.vlan is not None else 1)],
        }
    return {
        'network': {
            'name': network['name_lower'],
            'mtu': network.get('mtu') or DEFAULT_MTU,
            'dns_domain': network.get('dns_domain') or '%s.%s.' % (
                network['name'].lower(), cloud_domain),
            'tags': tags,
        },
        'subnets': subnets,
    }


def deployed_network_environment(networks, cloud_domain):
    """``DeployedNetworkEnvironment`` of the enabled ``networks``."""
    attributes, cidrs, versions = {}, {}, {}
    indexed = [dict(n, idx=i) for i, n in enumerate(networks)]
    for network in network_data.enabled(indexed):
        lower = network['name_lower']
        attributes[lower] = _network_attributes(network, cloud_domain)
        found = network_data.subnets(network)
        cidrs[lower] = [str(s.cidr) for s in found.values()]
        versions[lower] = 6 if network.get('ipv6') else 4
    return {'net_attributes_map': attributes, 'net_cidr_map': cidrs,
            'net_ip_version_map': versions}


def _registry(roles, networks, addresses, templates_dir):
    wanted = {}
    enabled = network_data.enabled(networks)
    if enabled:
        wanted['OS::TripleO::Network'] = 'network/deployed_networks.yaml'
    for role in roles:
        for network in network_data.role_networks(role, networks):
            wanted['OS::TripleO::%s::Ports::%sPort' % (
                role['name'], network['name'])] = (
                'network/ports/deployed_%s.yaml' % network['name_lower'])
    for network in enabled:
        if network['name_lower'] in addresses.vips:
            wanted['OS::TripleO::Network::Ports::%sVipPort' % (
                network['name'])] = ('network/ports/deployed_vip_%s.yaml'
                                     % network['name_lower'])
    wanted['OS::TripleO::Network::Ports::ControlPlaneVipPort'] = (
        'network/ports/deployed_vip_ctlplane.yaml')
    registry = {}
    for name, rel in wanted.items():
        path = os.path.join(templates_dir, rel) if templates_dir else None
        if path and os.path.isfile(path):
            registry[name] = path
    return registry


def build(servers, roles, networks, addresses, stack_name,
          templates_dir=None, cloud_domain='localdomain'):
    """Return the environment (registry and parameters) for ``servers``.

    Roles absent from ``servers`` get a count of 0; ``templates_dir`` is the
    rendered template set the registry points into.
    """
    cloud_domain = cloud_domain.rstrip('.')
    params = {}
    hostname_map = {}
    port_map = {}
    node_port_map = {}
    ctl_cidrs = []
    for role in roles:
        hosts = servers.get(role['name']) or []
        fmt = hostname_format(role)
        params['%sCount' % role['name']] = len(hosts)
        params['%sHostnameFormat' % role['name']] = fmt
        for index, host in enumerate(hosts):
            name = host['hostname']
            hostname_map[generated_hostname(fmt, stack_name, index)] = name
            ctl = _ctlplane_address(host)
            if str(ctl.subnet.cidr) not in ctl_cidrs:
                ctl_cidrs.append(str(ctl.subnet.cidr))
            port_map['%s-%s' % (name.lower(), CTLPLANE)] = _fake_port(ctl)
            ports = {CTLPLANE: _port(ctl)}
            for net, address in (addresses.hosts.get(name) or {}).items():
                ports[net] = _port(address)
            node_port_map[name.lower()] = ports
    if not node_port_map:
        raise exceptions.DeployedServersError(
            'Deployed servers file lists no hosts: add at least one host')

    vip = addresses.vips[CTLPLANE]
    port_map[CONTROL_VIRTUAL_IP] = _fake_port(vip)
    ctl_subnet = vip.subnet
    params.update({
        'HostnameMap': hostname_map,
        'DeployedServerPortMap': port_map,
        'NodePortMap': node_port_map,
        'CtlplaneNetworkAttributes': {
            'network': {'name': CTLPLANE, 'mtu': DEFAULT_MTU,
                        'dns_domain': 'ctlplane.%s.' % cloud_domain,
                        'tags': ctl_cidrs},
            'subnets': {CTLPLANE_SUBNET: {
                'name': CTLPLANE_SUBNET, 'cidr': str(ctl_subnet.cidr),
                'ip_version': ctl_subnet.version, 'gateway_ip': None,
                'dns_nameservers': [], 'host_routes': []}},
        },
        'ControlPlaneVipData': {
            'name': CONTROL_VIRTUAL_IP,
            'network': {'tags': ctl_cidrs},
            'fixed_ips': [{'ip_address': str(vip.ip)}],
            'subnets': [{'ip_version': ctl_subnet.version}],
        },
        'VipPortMap': {net: _port(address)
                       for net, address in addresses.vips.items()
                       if net != CTLPLANE},
        'CloudDomain': cloud_domain,
    })
    if network_data.enabled(networks):
        params['DeployedNetworkEnvironment'] = deployed_network_environment(
            networks, cloud_domain)
    env = {'parameter_defaults': params}
    registry = _registry(roles, networks, addresses, templates_dir)
    if registry:
        env['resource_registry'] = registry
    return env


def write(environment, path):
    """Write ``environment`` to ``path`` (0600); return the path."""
    yamlfile.write(path, environment, mode=0o600)
    LOG.info('Wrote the deployed servers environment %s', path)
    return path
