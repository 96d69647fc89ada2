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
(:mod:`~tripleo_ephemeral.rhoso.network_plan`) places the last three; the
workers' addresses go in before it as the operator's reservations
(:func:`workers`, :func:`with_workers`: ``--ocp-worker-range``, else
carved from the top of the free space). Every refusal is one line naming
the option.
"""

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import netplan

ATTACHED = netplan.CONTROL_PLANE_NETWORKS
WORKERS_OPTION = '--ocp-worker-range'
WORKERS = 'OpenShift workers (%s)'


def _fail(message):
    raise exceptions.RhosoExportError(message)


def text(part):
    """``FIRST-LAST`` of a ``(first, last)``, or ``-``."""
    return str(netplan.Range(*part)) if part else '-'


def addresses(first, last):
    ip = first
    while ip <= last:
        yield ip
        ip += 1


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
    """One network's first subnet as planned (``plan``, a
    :class:`~tripleo_ephemeral.rhoso.netplan.SubnetPlan`) with the
    ``workers``' addresses; ``pods``, ``loadbalancers`` are ``(first,
    last)`` or None."""

    def __init__(self, network, workers):
        self.network = network
        self.subnet = network.subnets[0]
        self.plan = self.subnet.plan
        self.workers = workers

    name = property(lambda self: self.network.name)
    tripleo = property(lambda self: self.plan.tripleo)
    attached = property(lambda self: self.network.name in ATTACHED)

    def _one(self, part):
        ranges = self.plan.parts[part]
        return tuple(ranges[0]) if ranges else None

    pods = property(lambda self: self._one(netplan.PODS))
    loadbalancers = property(lambda self: self._one(netplan.LOADBALANCERS))


def _wants(choices_network, name):
    """Every range the operator gave on network ``name``."""
    found = [r.range for r in choices_network.reservations.get(name, ())]
    for want in (choices_network.wants.get(name) or {}).values():
        found += list(want.ranges or ())
    return found


def _check(networks, inputs):
    names = [n.name for n in networks]
    for name in sorted(inputs.worker_ranges):
        if name not in names:
            _fail('%s %s: the export has no network %s (networks: %s)'
                  % (WORKERS_OPTION, name, name, ', '.join(names)))
        network = next(n for n in networks if n.name == name)
        if name not in ATTACHED or network.subnets[0].vlan is None:
            _fail('%s %s: the workers get addresses on the VLANs of %s '
                  'only: remove the option' % (
                      WORKERS_OPTION, name, ', '.join(sorted(ATTACHED))))
        rng = netplan.Range(*inputs.worker_ranges[name])
        cidr = network.subnets[0].cidr
        if rng.first not in cidr or rng.last not in cidr:
            _fail('%s %s=%s: outside %s\'s subnet %s; give addresses inside '
                  'it' % (WORKERS_OPTION, name, rng, name, cidr))


def _place(name, subnet, tripleo, taken, count, given):
    """The first address of ``count`` in a row for the workers."""
    if given:
        rng = netplan.Range(*given)
        held = [ip for ip in addresses(*given) if ip in tripleo]
        if held:
            _fail('%s %s=%s holds %s, TripleO\'s (%s): give addresses '
                  'without it' % (WORKERS_OPTION, name, rng, held[0],
                                  tripleo[held[0]]))
        if rng.size < count:
            _fail('%s %s=%s holds %d addresses for %d workers: give one '
                  'address per --ocp-worker' % (WORKERS_OPTION, name, rng,
                                                rng.size, count))
        return rng.first
    low, high = netplan._usable(subnet.cidr)
    make = netplan._address(subnet.cidr)
    for first, last in reversed(runs(make(low), make(high), taken)):
        if int(last) - int(first) + 1 >= count:
            return last - (count - 1)
    _fail('Network %s (%s) has no %d free addresses in a row for the '
          'OpenShift workers: give them with %s %s=FIRST-LAST'
          % (name, subnet.cidr, count, WORKERS_OPTION, name))


def workers(networks, inputs, choices_network):
    """``({network: {node: address}}, {network: [Reservation]})``: the
    workers' addresses on every attached network with a VLAN."""
    _check(networks, inputs)
    found, reservations = {}, {}
    if not inputs.workers:
        return found, reservations
    for network in networks:
        subnet = network.subnets[0]
        if network.name not in ATTACHED or subnet.vlan is None:
            continue
        tripleo = subnet.tripleo_addresses()
        taken = set(tripleo)
        for rng in _wants(choices_network, network.name):
            taken.update(addresses(rng.first, rng.last))
        given = inputs.worker_ranges.get(network.name)
        first = _place(network.name, subnet, tripleo, taken,
                       len(inputs.workers), given)
        found[network.name] = {node: first + i for i, (node, _) in
                               enumerate(inputs.workers)}
        last = first + (len(inputs.workers) - 1)
        reservations[network.name] = [netplan.Reservation(
            netplan.Range(first, last),
            WORKERS % (WORKERS_OPTION if given else 'carved'), False)]
    return found, reservations


def with_workers(choices, reservations):
    """``choices`` whose network plan also reserves ``reservations``."""
    merged = {name: list(found) for name, found in
              choices.network.reservations.items()}
    for name, found in reservations.items():
        merged.setdefault(name, []).extend(found)
    return choices._replace(network=choices.network._replace(
        reservations=merged))


def splits(networks, found):
    """A :class:`Split` per planned network; ``found`` is :func:`workers`'
    addresses."""
    return [Split(n, found.get(n.name, {})) for n in networks
            if n.subnets and n.subnets[0].plan is not None]
