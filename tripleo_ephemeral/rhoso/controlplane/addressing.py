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

from typing import Iterable, Iterator, Mapping, NoReturn, Sequence

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso.controlplane import inputs as inputs_mod
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import plan as plan_mod

ATTACHED = netplan.CONTROL_PLANE_NETWORKS
WORKERS_OPTION = '--ocp-worker-range'
WORKERS = 'OpenShift workers (%s)'


#: ``(first, last)`` addresses, both in.
Bounds = inputs_mod.Bounds


def _fail(message: str) -> NoReturn:
    raise exceptions.RhosoExportError(message)


def text(part: Bounds | None) -> str:
    """``FIRST-LAST`` of a ``(first, last)``, or ``-``."""
    return str(netplan.Range(*part)) if part else '-'


def addresses(first: netplan.Address,
              last: netplan.Address) -> Iterator[netplan.Address]:
    ip = first
    while ip <= last:  # type: ignore[operator]
        yield ip
        ip += 1


def runs(first: netplan.Address, last: netplan.Address,
         taken: Iterable[netplan.Address]) -> list[Bounds]:
    """The free ``(first, last)`` runs of ``first..last`` without the
    addresses of ``taken`` (a set), lowest first."""
    result: list[Bounds] = []
    start = first
    inside = sorted(a for a in taken
                    if first <= a <= last)  # type: ignore[operator]
    for ip in inside:
        if ip > start:  # type: ignore[operator]
            result.append((start, ip - 1))
        start = max(start, ip + 1)
    if start <= last:  # type: ignore[operator]
        result.append((start, last))
    return result


class Split:
    """One network's first subnet as planned (``plan``, a
    :class:`~tripleo_ephemeral.rhoso.netplan.SubnetPlan`) with the
    ``workers``' addresses; ``pods``, ``loadbalancers`` are ``(first,
    last)`` or None."""

    def __init__(self, network: netconfig.Network,
                 workers: Mapping[str, netplan.Address]) -> None:
        self.network = network
        self.subnet = network.subnets[0]
        # splits() makes a Split of a planned subnet only.
        assert self.subnet.plan is not None
        self.plan: netplan.SubnetPlan = self.subnet.plan
        self.workers = workers

    @property
    def name(self) -> str:
        return self.network.name

    @property
    def tripleo(self) -> dict[netplan.Address, str]:
        return self.plan.tripleo

    @property
    def attached(self) -> bool:
        return self.network.name in ATTACHED

    def _one(self, part: str) -> Bounds | None:
        ranges = self.plan.parts[part]
        return (ranges[0].first, ranges[0].last) if ranges else None

    @property
    def pods(self) -> Bounds | None:
        return self._one(netplan.PODS)

    @property
    def loadbalancers(self) -> Bounds | None:
        return self._one(netplan.LOADBALANCERS)


def _wants(choices_network: plan_mod.NetworkChoices,
           name: str) -> list[netplan.Range]:
    """Every range the operator gave on network ``name``."""
    found = [r.range for r in choices_network.reservations.get(name, ())]
    for want in (choices_network.wants.get(name) or {}).values():
        found += list(want.ranges or ())
    return found


def _check(networks: Sequence[netconfig.Network],
           inputs: inputs_mod.Inputs) -> None:
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
        if rng.first not in cidr or \
                rng.last not in cidr:
            _fail('%s %s=%s: outside %s\'s subnet %s; give addresses inside '
                  'it' % (WORKERS_OPTION, name, rng, name, cidr))


def _place(name: str, subnet: netconfig.Subnet,
           tripleo: Mapping[netplan.Address, str],
           taken: set[netplan.Address], count: int,
           given: Bounds | None) -> netplan.Address:
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


def workers(networks: Sequence[netconfig.Network], inputs: inputs_mod.Inputs,
            choices_network: plan_mod.NetworkChoices
            ) -> tuple[dict[str, dict[str, netplan.Address]],
                       dict[str, list[netplan.Reservation]]]:
    """``({network: {node: address}}, {network: [Reservation]})``: the
    workers' addresses on every attached network with a VLAN."""
    _check(networks, inputs)
    found: dict[str, dict[str, netplan.Address]] = {}
    reservations: dict[str, list[netplan.Reservation]] = {}
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


def with_workers(choices: plan_mod.Choices,
                 reservations: Mapping[str, Iterable[netplan.Reservation]]
                 ) -> plan_mod.Choices:
    """``choices`` whose network plan also reserves ``reservations``."""
    merged = {name: list(found) for name, found in
              choices.network.reservations.items()}
    for name, found in reservations.items():
        merged.setdefault(name, []).extend(found)
    return choices._replace(network=choices.network._replace(
        reservations=merged))


def splits(networks: Iterable[netconfig.Network],
           found: Mapping[str, Mapping[str, netplan.Address]]
           ) -> list[Split]:
    """A :class:`Split` per planned network; ``found`` is :func:`workers`'
    addresses."""
    return [Split(n, found.get(n.name, {})) for n in networks
            if n.subnets and n.subnets[0].plan is not None]
