"""The network plan of an export: every subnet's parts (:mod:`.netplan`).

Per subnet: TripleO's addresses (hosts, VIPs, gateway) kept out; the
operator's reservations (``--reserve``, and the ``excludeAddresses`` of a
NetConfig merged into) kept out; the dataplane part the NetConfig's
allocation ranges (the operator's own when merged, TripleO's addresses cut
out of them; else ``--dataplane-range`` or carved), the pods and
loadbalancers parts the control plane's (``--pods-range``,
``--loadbalancer-range``, or carved). Options name RHOSO networks; a
range must fall inside one subnet of its network.
"""

from typing import Mapping, Sequence

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import plan as plan_mod


def _check_keys(networks: Sequence[netconfig.Network],
                choices: plan_mod.Choices) -> None:
    names = [n.name for n in networks]
    given = [(netplan.OPTION[netplan.RESERVED], net) for net in
             choices.network.reservations] + [
        (netplan.OPTION[part], net) for net, parts in
        choices.network.wants.items() for part in parts]
    for option, net in given:
        if net not in names:
            raise exceptions.RhosoExportError(
                '%s %s=...: the export has no network %s (its networks: %s)'
                % (option, net, net, ', '.join(names)))
    by_name = {n.name: n for n in networks}
    ranges = [(netplan.OPTION[netplan.RESERVED], net, r.range) for net, rs
              in choices.network.reservations.items() for r in rs] + [
        (netplan.OPTION[part], net, r) for net, parts in
        choices.network.wants.items() for part, want in parts.items()
        for r in want.ranges or ()]
    for option, net, rng in ranges:
        if not any(rng.first in s.cidr for s in by_name[net].subnets):
            raise exceptions.RhosoExportError(
                '%s %s=%s: no subnet of network %s holds %s (subnets: %s)'
                % (option, net, rng, net, rng.first, ', '.join(
                    '%s %s' % (s.name, s.cidr)
                    for s in by_name[net].subnets)))


def _merged_wants(subnet: netconfig.Subnet,
                  wants: Mapping[str, netplan.Want],
                  netconfig_name: str | None
                  ) -> tuple[Mapping[str, netplan.Want], list[netplan.Range]]:
    """The operator's allocation ranges of a merged subnet as its given
    dataplane part, TripleO's addresses cut out."""
    if subnet.given_ranges is None or netplan.DATAPLANE in wants:
        return wants, []
    kept, dropped = netplan.without(subnet.given_ranges,
                                    subnet.tripleo_addresses())
    merged = dict(wants)
    merged[netplan.DATAPLANE] = netplan.Want(
        tuple(kept), 0, 'the allocationRanges of NetConfig %s without '
        'TripleO\'s addresses' % netconfig_name)
    return merged, dropped


def plan(networks: Sequence[netconfig.Network], choices: plan_mod.Choices,
         netconfig_name: str | None = None
         ) -> dict[netconfig.Subnet, list[netplan.Range]]:
    """Plan every subnet of ``networks`` (sets ``subnet.plan``); return the
    addresses left out of a merged NetConfig's ranges because cutting
    TripleO's out left them alone (``{subnet: [Range]}``)."""
    _check_keys(networks, choices)
    dropped: dict[netconfig.Subnet, list[netplan.Range]] = {}
    for network in networks:
        asked = dict(choices.network.wants.get(network.name) or {})
        for subnet in network.subnets:
            wants, alone = _merged_wants(subnet, asked, netconfig_name)
            if alone:
                dropped[subnet] = alone
            reservations = [
                r for r in choices.network.reservations.get(network.name, ())
                if r.range.first in subnet.cidr] + [
                netplan.Reservation(netplan.Range(ip, ip),
                                    'excludeAddresses of NetConfig %s'
                                    % netconfig_name, True)
                for ip in subnet.excluded] + [
                netplan.Reservation(netplan.Range(ip, ip),
                                    'the gateway of NetConfig %s'
                                    % netconfig_name, True)
                for ip in [subnet.their_gateway] if ip]
            subnet.plan = netplan.plan_subnet(
                network.name, subnet.name, subnet.cidr,
                subnet.tripleo_addresses(), reservations,
                netplan.wants_for(network.name, wants))
    return dropped
