"""The networks the stack's hosts use, as the NetConfig describes them.

Isolated networks come from the networks data the stack was rendered
with; the control plane (which networks data never lists) from each
role's ``ctlplane_*`` group variables and its hosts' addresses. A subnet
keeps TripleO's CIDR, VLAN, gateway and routes, and upstream's name
(``subnet1``, ``subnet2``... in TripleO's order; the operator's when the
export merges into their NetConfig). Each knows the addresses TripleO
uses on it (hosts, VIPs, gateway): :mod:`.network_plan` keeps them out of
every range RHOSO takes, and the VIPs are also ``excludeAddresses``. The
dns domain is the one the hosts' FQDNs on that network use, without
TripleO's trailing dot.
"""

import ipaddress
from typing import Any, Iterable, TypedDict

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import plan as plan_mod
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso import steps

API_VERSION = 'network.openstack.org/v1beta1'
KIND = 'NetConfig'
#: The name of a NetConfig the export makes itself (no --netconfig): not
#: upstream's ``netconfig``, so that applying it where the namespace has
#: one is refused by the webhook (one per namespace) and never replaces it.
NAME = 'tripleo-netconfig'
CTLPLANE = network_data.CTLPLANE
DEFAULT_MTU = 1500


class Route(TypedDict):
    destination: str
    nexthop: str


class AllocationRange(TypedDict):
    start: str
    end: str


class _SubnetEntry(TypedDict):
    name: str
    cidr: str
    allocationRanges: list[AllocationRange]


class SubnetEntry(_SubnetEntry, total=False):
    """A NetConfig subnet."""

    gateway: str
    vlan: int
    routes: list[Route]
    excludeAddresses: list[str]


class NetworkEntry(TypedDict):
    """A NetConfig network."""

    name: str
    dnsDomain: str | None
    mtu: int
    subnets: list[SubnetEntry]


class NetConfigSpec(TypedDict):
    networks: list[NetworkEntry]


class NetConfig(TypedDict):
    """The NetConfig document (network.openstack.org/v1beta1)."""

    apiVersion: str
    kind: str
    metadata: steps.Metadata
    spec: NetConfigSpec


def subnet_name(index: int) -> str:
    """Upstream's subnet names: ``subnet1``, ``subnet2``..."""
    return 'subnet%d' % index


class Subnet:
    """A subnet: its NetConfig ``name``, TripleO's (``tripleo_name``),
    what TripleO uses on it (``used``: address -> host, ``vips``:
    address -> VIP), the operator's ``excluded`` addresses and ``routes``
    when merged, and its :class:`~.netplan.SubnetPlan` once planned."""

    def __init__(self, name: str, tripleo_name: str, cidr: netplan.Cidr,
                 gateway: netplan.Address | None = None,
                 vlan: int | str | None = None,
                 routes: Iterable[Route] = ()) -> None:
        self.name = name
        self.tripleo_name = tripleo_name
        self.cidr = cidr
        self.gateway = gateway
        self.vlan = vlan
        self.routes = list(routes)
        self.used: dict[netplan.Address, str] = {}
        self.vips: dict[netplan.Address, str] = {}
        self.excluded: list[netplan.Address] = []
        self.plan: netplan.SubnetPlan | None = None
        #: the operator's allocation ranges (merged), or None
        self.given_ranges: list[netplan.Range] | None = None
        #: the operator's gateway where TripleO's nodes have none
        self.their_gateway: netplan.Address | None = None
        #: 'merged' into or 'added' to the operator's NetConfig, or None
        self.merged: str | None = None

    def __contains__(self, ip: netplan.Address) -> bool:
        return ip.version == self.cidr.version and ip in self.cidr

    def tripleo_addresses(self) -> dict[netplan.Address, str]:
        """``{address: whose}`` of everything TripleO uses here."""
        found = {ip: 'host %s' % host for ip, host in self.used.items()}
        found.update({ip: 'VIP %s' % key for ip, key in self.vips.items()})
        if self.gateway:
            found[self.gateway] = 'gateway'
        return found

    def allocation_ranges(self) -> list[netplan.Range]:
        return list(self.plan.parts[netplan.DATAPLANE]) if self.plan else []

    def exclude_addresses(self) -> list[str]:
        found = sorted(set(self.vips) | set(self.excluded))
        return [str(ip) for ip in found]


class Network:
    """One NetConfig network: ``lower`` is TripleO's ``name_lower``,
    ``name`` RHOSO's; ``source`` says where TripleO kept it."""

    def __init__(self, lower: str, name: str, mtu: int | str | None,
                 source: str) -> None:
        self.lower = lower
        self.name = name
        self.mtu = mtu or DEFAULT_MTU
        self.source = source
        self.subnets: list[Subnet] = []
        self.domains: set[str] = set()
        self.data_domain: str | None = None
        #: 'merged' into or 'added' to the operator's NetConfig, or None
        self.merged: str | None = None

    def subnet_of(self, ip: object) -> Subnet | None:
        address = ipaddress.ip_address(str(ip))
        return next((s for s in self.subnets if address in s), None)

    @property
    def dns_domain(self) -> str | None:
        return sorted(self.domains)[0] if self.domains else None


def _routes(routes: Any) -> list[Route]:
    """NetConfig routes of TripleO's (``destination``/``nexthop`` or
    ``ip_netmask``/``next_hop``); the default route is the gateway's."""
    result: list[Route] = []
    for route in routes or []:
        if not isinstance(route, dict) or route.get('default'):
            continue
        destination = route.get('destination') or route.get('ip_netmask')
        nexthop = route.get('nexthop') or route.get('next_hop')
        if destination and nexthop:
            result.append({'destination': str(destination),
                           'nexthop': str(nexthop)})
    return result


def _isolated(data: dict[str, Any], name: str) -> Network:
    network = Network(data['name_lower'], name, data.get('mtu'),
                      'networks data, network %s' % data['name'])
    for index, subnet in enumerate(network_data.subnets(data).values(), 1):
        network.subnets.append(Subnet(
            subnet_name(index), subnet.name, subnet.cidr, subnet.gateway,
            subnet.vlan, _routes(subnet.routes)))
    network.data_domain = (data.get('dns_domain') or '').rstrip('.') or None
    return network


def _ctlplane(deployment: source.Deployment) -> Network:
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
                    'config-download again' % (role.name, host.name))
            cidr = ipaddress.ip_network('%s/%s' % (ip, prefix), strict=False)
            gateway = group_vars.get('ctlplane_gateway_ip')
            gateway = ipaddress.ip_address(gateway) if gateway else None
            index = len(network.subnets) + 1
            network.subnets.append(Subnet(
                subnet_name(index), 'ctlplane-subnet' if index == 1 else
                'ctlplane subnet of role %s' % role.name, cidr,
                gateway if gateway and gateway in cidr else None,
                None, _routes(group_vars.get('ctlplane_host_routes'))))
    # source.read refuses a deployment without a role that has hosts.
    assert network is not None
    return network


def networks(deployment: source.Deployment,
             choices: plan_mod.Choices) -> list[Network]:
    """The :class:`Network` list: ctlplane first, then the isolated
    networks any host uses, in networks-data order, each subnet knowing
    the addresses TripleO uses on it."""
    result = [_ctlplane(deployment)]
    used_lowers = {data['name_lower'] for host in deployment.hosts()
                   for data in deployment.networks
                   if host.ip(data['name_lower'])}
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


def _mark_used(deployment: source.Deployment, network: Network) -> None:
    for host in deployment.hosts():
        ip = host.ctlplane_ip if network.lower == CTLPLANE else \
            host.ip(network.lower)
        if not ip:
            continue
        subnet = network.subnet_of(ip)
        if subnet is None:
            raise exceptions.RhosoExportError(
                'Host %s has %s on %s, outside its subnets (%s): the '
                'networks data and the inventory disagree; deploy again'
                % (host.name, ip, network.lower, ', '.join(
                    str(s.cidr) for s in network.subnets)))
        subnet.used[ipaddress.ip_address(str(ip))] = host.name
        fqdn = host.hostname(network.lower) or ''
        if '.' in fqdn:
            network.domains.add(fqdn.split('.', 1)[1].rstrip('.'))
    for key, vip in deployment.vips.items():
        if key != network.lower or not vip:
            continue
        subnet = network.subnet_of(vip)
        if subnet is not None:
            subnet.vips[ipaddress.ip_address(str(vip))] = key
    if not network.domains:
        cloud = deployment.global_vars.get('cloud_domain') or 'localdomain'
        network.domains.add(network.data_domain or '%s.%s' % (
            network.lower.replace('_', ''), cloud))


def subnet_entry(subnet: Subnet) -> SubnetEntry:
    """The NetConfig subnet of ``subnet``."""
    entry: SubnetEntry = {
        'name': subnet.name, 'cidr': str(subnet.cidr),
        'allocationRanges': [{'start': str(r.first), 'end': str(r.last)}
                             for r in subnet.allocation_ranges()]}
    if subnet.gateway:
        entry['gateway'] = str(subnet.gateway)
    if subnet.vlan is not None:
        entry['vlan'] = int(subnet.vlan)
    if subnet.routes:
        entry['routes'] = subnet.routes
    if subnet.exclude_addresses():
        entry['excludeAddresses'] = subnet.exclude_addresses()
    return entry


def network_entry(network: Network) -> NetworkEntry:
    return {'name': network.name, 'dnsDomain': network.dns_domain,
            'mtu': int(network.mtu),
            'subnets': [subnet_entry(s) for s in network.subnets]}


def document(networks: Iterable[Network], name: str = NAME) -> NetConfig:
    """A NetConfig of ``networks`` alone (no --netconfig given)."""
    return {'apiVersion': API_VERSION, 'kind': KIND,
            'metadata': {'name': name},
            'spec': {'networks': [network_entry(n) for n in networks]}}
