"""The NetConfig: every network the stack's hosts use, as IPAM needs it.

Isolated networks come from the networks data the stack was rendered
with; the control plane (which networks data never lists) from each
role's ``ctlplane_*`` group variables and its hosts' addresses. A subnet
keeps TripleO's CIDR, VLAN, gateway and routes; its allocation ranges are
TripleO's pools (the whole subnet for the control plane, whose pools were
the undercloud's) with every address in use cut out (hosts, VIPs, the
gateway), so IPAM never hands one out again; the VIPs are also
``excludeAddresses``. The dns domain is the one the hosts' FQDNs on that
network use, without TripleO's trailing dot.
"""

import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data

API_VERSION = 'network.openstack.org/v1beta1'
NAME = 'netconfig'
CTLPLANE = network_data.CTLPLANE
CTLPLANE_SUBNET = 'ctlplane-subnet'
DEFAULT_MTU = 1500


class Subnet:
    def __init__(self, name, cidr, gateway=None, vlan=None, routes=(),
                 pools=()):
        self.name = name
        self.cidr = cidr
        self.gateway = gateway
        self.vlan = vlan
        self.routes = list(routes)
        self.pools = list(pools)
        self.used = set()
        self.vips = set()

    def __contains__(self, ip):
        return ip.version == self.cidr.version and ip in self.cidr

    def ranges(self):
        """Allocation ranges: the pools without any address in use."""
        taken = sorted(self.used | self.vips |
                       ({self.gateway} if self.gateway else set()))
        result = []
        for first, last in self.pools:
            start = first
            for ip in taken:
                if ip < start or ip > last:
                    continue
                if ip > start:
                    result.append((start, ip - 1))
                start = ip + 1
            if start <= last:
                result.append((start, last))
        return result


class Network:
    """One NetConfig network: ``lower`` is TripleO's ``name_lower``,
    ``name`` RHOSO's; ``source`` says where TripleO kept it."""

    def __init__(self, lower, name, mtu, source):
        self.lower = lower
        self.name = name
        self.mtu = mtu or DEFAULT_MTU
        self.source = source
        self.subnets = []
        self.domains = set()
        self.data_domain = None

    def subnet_of(self, ip):
        ip = ipaddress.ip_address(str(ip))
        return next((s for s in self.subnets if ip in s), None)

    @property
    def dns_domain(self):
        return sorted(self.domains)[0] if self.domains else None


def _whole(cidr):
    """The host range of a subnet without pools (the control plane)."""
    if cidr.num_addresses <= 2:
        return [(cidr[0], cidr[-1])]
    return [(cidr[1], cidr[-2] if cidr.version == 4 else cidr[-1])]


def _routes(routes):
    """NetConfig routes of TripleO's (``destination``/``nexthop`` or
    ``ip_netmask``/``next_hop``); the default route is the gateway's."""
    result = []
    for route in routes or []:
        if not isinstance(route, dict) or route.get('default'):
            continue
        destination = route.get('destination') or route.get('ip_netmask')
        nexthop = route.get('nexthop') or route.get('next_hop')
        if destination and nexthop:
            result.append({'destination': str(destination),
                           'nexthop': str(nexthop)})
    return result


def _isolated(data, name):
    network = Network(data['name_lower'], name, data.get('mtu'),
                      'networks data, network %s' % data['name'])
    for subnet in network_data.subnets(data).values():
        gateway = subnet.gateway
        network.subnets.append(Subnet(
            subnet.name, subnet.cidr, gateway, subnet.vlan,
            _routes(subnet.routes), subnet.ranges()))
    network.data_domain = (data.get('dns_domain') or '').rstrip('.') or None
    return network


def _ctlplane(deployment):
    network = None
    for role in deployment.roles.values():
        group_vars = role.group_vars
        if network is None:
            network = Network(CTLPLANE, CTLPLANE, group_vars.get(
                'ctlplane_mtu'), "the roles' ctlplane_* group_vars and "
                "their hosts' ctlplane_ip")
        prefix = group_vars.get('ctlplane_subnet_cidr')
        for host in role.hosts:
            ip = ipaddress.ip_address(str(host.ctlplane_ip))
            if network.subnet_of(ip):
                continue
            if prefix in (None, ''):
                raise exceptions.RhosoExportError(
                    'group_vars/%s has no ctlplane_subnet_cidr, so the '
                    'control plane subnet of %s is unknown: render '
                    'config-download '
                    'again' % (role.name, host.name))
            cidr = ipaddress.ip_network('%s/%s' % (ip, prefix), strict=False)
            gateway = group_vars.get('ctlplane_gateway_ip')
            gateway = ipaddress.ip_address(gateway) if gateway else None
            name = CTLPLANE_SUBNET if not network.subnets else \
                '%s%d' % (CTLPLANE_SUBNET, len(network.subnets) + 1)
            network.subnets.append(Subnet(
                name, cidr, gateway if gateway and gateway in cidr else None,
                None, _routes(group_vars.get('ctlplane_host_routes')),
                _whole(cidr)))
    return network


def networks(deployment, choices):
    """The :class:`Network` list: ctlplane first, then the isolated
    networks any host uses, in networks-data order, each subnet knowing
    the addresses in use."""
    result = [_ctlplane(deployment)]
    used_lowers = set()
    for host in deployment.hosts():
        for data in deployment.networks:
            if host.ip(data['name_lower']):
                used_lowers.add(data['name_lower'])
    for data in deployment.networks:
        if data['name_lower'] in used_lowers:
            result.append(_isolated(data, choices.rhoso_network(
                data['name_lower'])))
    names = [n.name for n in result]
    for name in names:
        if names.count(name) > 1:
            raise exceptions.RhosoExportError(
                '--network-map gives two TripleO networks the RHOSO name %s: '
                'give each its own' % name)
    for network in result:
        _mark_used(deployment, network)
    return result


def _mark_used(deployment, network):
    for host in deployment.hosts():
        ip = host.ip(network.lower)
        if not ip:
            continue
        subnet = network.subnet_of(ip)
        if subnet is None:
            raise exceptions.RhosoExportError(
                'Host %s has %s on %s, outside its subnets (%s): the '
                'networks data and the inventory disagree; deploy again'
                % (host.name, ip, network.lower, ', '.join(
                    str(s.cidr) for s in network.subnets)))
        subnet.used.add(ipaddress.ip_address(str(ip)))
        fqdn = host.hostname(network.lower) or ''
        if '.' in fqdn:
            network.domains.add(fqdn.split('.', 1)[1].rstrip('.'))
    for key, vip in deployment.vips.items():
        if key != network.lower or not vip:
            continue
        subnet = network.subnet_of(vip)
        if subnet is not None:
            subnet.vips.add(ipaddress.ip_address(str(vip)))
    if not network.domains:
        cloud = deployment.global_vars.get('cloud_domain') or 'localdomain'
        network.domains.add(network.data_domain or '%s.%s' % (
            network.lower.replace('_', ''), cloud))


def document(networks):
    """The NetConfig document."""
    result = []
    for network in networks:
        subnets = []
        for subnet in network.subnets:
            entry = {'name': subnet.name, 'cidr': str(subnet.cidr),
                     'allocationRanges': [
                         {'start': str(a), 'end': str(b)}
                         for a, b in subnet.ranges()]}
            if subnet.gateway:
                entry['gateway'] = str(subnet.gateway)
            if subnet.vlan is not None:
                entry['vlan'] = int(subnet.vlan)
            if subnet.routes:
                entry['routes'] = subnet.routes
            if subnet.vips:
                entry['excludeAddresses'] = [str(v) for v in
                                             sorted(subnet.vips)]
            subnets.append(entry)
        result.append({'name': network.name, 'dnsDomain': network.dns_domain,
                       'mtu': int(network.mtu), 'subnets': subnets})
    return {'apiVersion': API_VERSION, 'kind': 'NetConfig',
            'metadata': {'name': NAME}, 'spec': {'networks': result}}
