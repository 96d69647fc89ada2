"""Each TripleO network's subnet as the control plane uses it: the network
plan's parts, and the OpenShift workers' addresses.

data-plane-adoption (``proc_retrieving-network-information-from-your-
existing-deployment.adoc``, ``proc_reusing-existing-subnet-ranges.adoc``,
``assembly_planning-your-ipam-configuration.adoc``) has the operator keep
every address TripleO uses (hosts, VIPs, the gateway) out of four new
allocations per isolated network: one address per OpenShift worker
(NodeNetworkConfigurationPolicy), the pods' range
(NetworkAttachmentDefinition), the load balancers' (MetalLB
IPAddressPool) and the data plane's (NetConfig). The network plan
(:mod:`~tripleo_ephemeral.rhoso.netplan`) places the last three; the
workers' addresses go in first, as the operator's reservation
(``--ocp-worker-range``, else carved from the top of the free space), so
the plan keeps them out. Every refusal is one line naming the option.
"""

import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import netplan

ATTACHED = netplan.CONTROL_PLANE_NETWORKS
CTLPLANE = 'ctlplane'
WORKERS_OPTION = '--ocp-worker-range'
WORKERS = 'OpenShift workers (%s)'


def _fail(message):
    raise exceptions.RhosoExportError(message)


def text(part):
    """``FIRST-LAST`` of a ``(first, last)``, or ``-``."""
    return str(netplan.Range(*part)) if part else '-'


def count(ranges):
    return sum(netplan.Range(*r).size for r in ranges)


def addresses(first, last):
    ip = first
    while ip <= last:
        yield ip
        ip += 1


def hosts_of(cidr):
    """``(first, last)`` usable host address of ``cidr``."""
    low, high = netplan._usable(cidr)
    make = netplan._address(cidr)
    return make(low), make(high)


def runs(first, last, taken):
    """The free ``(first, last)`` runs of ``first..last`` without the
    addresses of ``taken`` (a set), lowest first."""
    result, start = [], first
    for ip in sorted(a for a in taken if first <= a <= last):
        if ip > start:
            result.append((start, ip - 1))
        start = max(start, ip + 1)
    if start <= last:
        result.append((start, last))
    return result


class Split:
    """One network's first subnet: ``plan`` (a
    :class:`~tripleo_ephemeral.rhoso.netplan.SubnetPlan`), ``workers``
    each OpenShift worker's address; ``pods``, ``loadbalancers`` are
    ``(first, last)`` or None, ``dataplane`` and ``left`` range lists."""

    def __init__(self, network, subnet, plan, workers):
        self.network = network
        self.subnet = subnet
        self.plan = plan
        self.workers = workers

    name = property(lambda self: self.network.name)
    tripleo = property(lambda self: self.plan.tripleo)
    attached = property(lambda self: self.network.name in ATTACHED)

    def _one(self, part):
        ranges = self.plan.parts[part]
        return tuple(ranges[0]) if ranges else None

    pods = property(lambda self: self._one(netplan.PODS))
    loadbalancers = property(lambda self: self._one(netplan.LOADBALANCERS))
    dataplane = property(lambda self: [tuple(r) for r in self.plan.parts[
        netplan.DATAPLANE]])
    left = property(lambda self: [tuple(r) for r in self.plan.left()])

    @property
    def given(self):
        found = set(self.plan.given)
        if any(r.why == WORKERS % WORKERS_OPTION for r in self.plan.reserved):
            found.add('workers')
        return found

    def taken(self):
        """Every address of TripleO, the workers, the pods and the load
        balancers."""
        found = set(self.tripleo) | set(self.workers.values())
        for part in (self.pods, self.loadbalancers):
            if part:
                found.update(addresses(*part))
        return found


def _tripleo(deployment, network, subnet):
    found = {}
    for host in deployment.hosts():
        ip = host.ctlplane_ip if network.lower == CTLPLANE else \
            host.ip(network.lower)
        if ip and ipaddress.ip_address(str(ip)) in subnet:
            found[ipaddress.ip_address(str(ip))] = host.name
    for vip in subnet.vips:
        found.setdefault(vip, 'VIP')
    if subnet.gateway:
        found.setdefault(subnet.gateway, 'gateway')
    return found


def _workers(name, subnet, tripleo, workers, given):
    """``({node: address}, [Reservation])`` of the workers on a subnet."""
    cidr = subnet.cidr
    if given:
        rng = netplan.Range(*given)
        held = [ip for ip in addresses(*given) if ip in tripleo]
        if held:
            _fail('%s %s=%s holds %s, TripleO\'s (%s): give addresses '
                  'without it' % (WORKERS_OPTION, name, rng, held[0],
                                  tripleo[held[0]]))
        if rng.size < len(workers):
            _fail('%s %s=%s holds %d addresses for %d workers: give one '
                  'address per --ocp-worker' % (
                      WORKERS_OPTION, name, rng, rng.size, len(workers)))
        first = rng.first
    else:
        low, high = hosts_of(cidr)
        free = runs(low, high, set(tripleo))
        first = next((b - (len(workers) - 1) for a, b in reversed(free)
                      if int(b) - int(a) + 1 >= len(workers)), None)
        if first is None:
            _fail('Network %s (%s) has no %d free addresses in a row for the '
                  'OpenShift workers: give them with %s %s=FIRST-LAST'
                  % (name, cidr, len(workers), WORKERS_OPTION, name))
    found = {node: first + i for i, (node, _) in enumerate(workers)}
    last = first + (len(workers) - 1)
    why = WORKERS % (WORKERS_OPTION if given else 'carved')
    return found, [netplan.Reservation(netplan.Range(first, last), why,
                                       False)]


def _wants(name, inputs):
    given = {}
    for part, ranges, size in (
            (netplan.PODS, inputs.pod_ranges, inputs.pod_addresses),
            (netplan.LOADBALANCERS, inputs.lb_ranges, inputs.lb_addresses)):
        if name in ranges:
            given[part] = netplan.Want(
                (netplan.Range(*ranges[name]),), 0, netplan.OPTION[part])
        elif name in ATTACHED:
            given[part] = netplan.Want(None, size, 'default size')
    return netplan.wants_for(name, given)


def _check_names(networks, inputs):
    names = [n.name for n in networks]
    for part, given in ((netplan.PODS, inputs.pod_ranges),
                        (netplan.LOADBALANCERS, inputs.lb_ranges),
                        ('workers', inputs.worker_ranges)):
        option = netplan.OPTION.get(part, WORKERS_OPTION)
        for name in sorted(given):
            if name not in names:
                _fail('%s %s: the export has no network %s (networks: %s)'
                      % (option, name, name, ', '.join(names)))
            if name not in ATTACHED:
                _fail('%s %s: no control-plane pod attaches to %s (only to '
                      '%s): remove the option'
                      % (option, name, name, ', '.join(sorted(ATTACHED))))
            cidr = next(n for n in networks if n.name == name).subnets[0].cidr
            rng = netplan.Range(*given[name])
            if rng.first not in cidr or rng.last not in cidr:
                _fail('%s %s=%s: outside %s\'s subnet %s; give a range '
                      'inside it, or plan new subnet ranges by hand '
                      '(data-plane-adoption proc_using-new-subnet-ranges.adoc)'
                      % (option, name, rng, name, cidr))


def split(deployment, networks, inputs):
    """A :class:`Split` per network of ``networks`` (the NetConfig's
    :class:`~tripleo_ephemeral.rhoso.netconfig.Network` list), planned on
    its first subnet; the workers get addresses on the attached networks
    with a VLAN."""
    _check_names(networks, inputs)
    result = []
    for network in networks:
        subnet = network.subnets[0]
        tripleo = _tripleo(deployment, network, subnet)
        workers, reservations = {}, []
        if inputs.workers and network.name in ATTACHED and \
                subnet.vlan is not None:
            workers, reservations = _workers(
                network.name, subnet, tripleo, inputs.workers,
                inputs.worker_ranges.get(network.name))
        try:
            plan = netplan.plan_subnet(network.name, subnet.name, subnet.cidr,
                                       tripleo, reservations,
                                       _wants(network.name, inputs))
        except netplan.PlanError as exc:
            _fail(str(exc))
        result.append(Split(network, subnet, plan, workers))
    return result


def carve_netconfig(document, splits):
    """The NetConfig ``document`` with each planned subnet's allocation
    ranges set to the plan's dataplane part (in place). Interim, until the
    NetConfig takes them from the network plan itself."""
    by_cidr = {str(s.subnet.cidr): s for s in splits}
    for network in (document.get('spec') or {}).get('networks') or []:
        for subnet in network.get('subnets') or []:
            split = by_cidr.get(str(subnet.get('cidr')))
            if split is not None:
                subnet['allocationRanges'] = [
                    {'start': str(a), 'end': str(b)}
                    for a, b in split.dataplane]
    return document
