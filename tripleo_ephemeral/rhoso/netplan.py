"""The network plan: each subnet split into parts that never overlap.

RHOSO takes addresses from a TripleO network's subnet in three places, and
TripleO keeps using its own until the adoption is over. Per subnet:

* ``tripleo``: every address TripleO uses (the hosts' ``<net>_ip``, the
  VIPs, the gateway): kept out of everything;
* ``reserved``: what the operator keeps for something else (OpenShift
  workers' node addresses, a given NetConfig's ``excludeAddresses``);
* ``dataplane``: the NetConfig's ``allocationRanges``, where IPAM finds
  addresses for new EDPM nodes (adopted ones keep theirs as ``fixedIP``);
* ``pods``: the NetworkAttachmentDefinition's whereabouts range of the
  control plane's pods;
* ``loadbalancers``: MetalLB's IPAddressPool.

Each of the last three is given (ranges, or a size) or carved from the
subnet's free space with its default size, from the top of the subnet
down (dataplane, then loadbalancers, then pods: upstream's examples read
pods < loadbalancers < dataplane). A given range that overlaps TripleO's
addresses, a reservation or another part, or a size that no free block
holds, is refused in one line naming the address and the fix.
:func:`plan_subnet` is pure; :class:`SubnetPlan` says what each part got
and what is left, for the report and for the documents of each part.
"""

import ipaddress
from typing import Iterable, Mapping, NamedTuple, Union

from tripleo_ephemeral import exceptions

TRIPLEO = 'tripleo'
RESERVED = 'reserved'
DATAPLANE = 'dataplane'
PODS = 'pods'
LOADBALANCERS = 'loadbalancers'
#: The parts RHOSO takes, in the order they are carved (top down).
PARTS = (DATAPLANE, LOADBALANCERS, PODS)
#: The option that gives each part (named in refusals).
OPTION = {DATAPLANE: '--dataplane-range', PODS: '--pods-range',
          LOADBALANCERS: '--loadbalancer-range', RESERVED: '--reserve'}
#: Default sizes: upstream's examples give pods 172.17.0.20-50, MetalLB
#: 172.17.0.60-70 (proc_configuring-networking-for-control-plane-services).
DEFAULT_SIZE = {DATAPLANE: 50, PODS: 30, LOADBALANCERS: 10}
#: The RHOSO networks the control plane's pods and load balancers use
#: (upstream's NetworkAttachmentDefinitions and IPAddressPools).
CONTROL_PLANE_NETWORKS = frozenset(['ctlplane', 'internalapi', 'storage',
                                    'tenant'])


#: An address, and a subnet, of either version.
Address = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
Cidr = Union[ipaddress.IPv4Network, ipaddress.IPv6Network]
#: Free addresses as integers: ``(first, last)``, both in.
_Block = tuple[int, int]


class PlanError(exceptions.RhosoExportError):
    """A part cannot be placed as asked."""


class Range(NamedTuple):
    """Addresses ``first`` to ``last`` (ipaddress objects), both in."""

    first: Address
    last: Address

    @classmethod
    def parse(cls, text: object) -> 'Range':
        """``a-b`` or one address; ValueError when it is neither."""
        head, _, tail = str(text).strip().partition('-')
        first = ipaddress.ip_address(head.strip())
        last = ipaddress.ip_address(tail.strip()) if tail else first
        if first.version != last.version or \
                first > last:  # type: ignore[operator]
            raise ValueError('%s is not a range of addresses' % text)
        return cls(first, last)

    @property
    def size(self) -> int:
        return int(self.last) - int(self.first) + 1

    def overlaps(self, other: 'Range') -> bool:
        before = self.first <= other.last  # type: ignore[operator]
        return before and other.first <= self.last  # type: ignore[operator]

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else '%s-%s' % (
            self.first, self.last)


class Want(NamedTuple):
    """What the operator asks of a part: ``ranges`` (Range tuple) or a
    ``size`` to carve (0: none); ``source`` says who asked."""

    ranges: tuple[Range, ...] | None
    size: int
    source: str


class Reservation(NamedTuple):
    """An operator's reservation: ``range``, ``why``, and whether it is
    an exclusion (``may_hold``): a NetConfig's excludeAddresses may hold
    TripleO's addresses and lie inside a given range (IPAM skips it
    there); a --reserve may do neither. Nothing is carved over either."""

    range: Range
    why: str
    may_hold: bool


def wants_for(network: str,
              given: Mapping[str, Want] | None = None) -> dict[str, Want]:
    """The :class:`Want` of each part on RHOSO network ``network``:
    ``given`` (part -> Want) over the defaults (pods and load balancers
    only on :data:`CONTROL_PLANE_NETWORKS`)."""
    result: dict[str, Want] = {}
    for part in PARTS:
        size = DEFAULT_SIZE[part]
        if part != DATAPLANE and network not in CONTROL_PLANE_NETWORKS:
            size = 0
        result[part] = Want(None, size, 'default size')
    result.update(given or {})
    return result


def _usable(cidr: Cidr) -> _Block:
    if cidr.version == 4 and cidr.prefixlen < 31:
        return int(cidr[1]), int(cidr[-2])
    if cidr.version == 6 and cidr.prefixlen < 127:
        return int(cidr[1]), int(cidr[-1])
    return int(cidr[0]), int(cidr[-1])


def _address(cidr: Cidr) -> type[Address]:
    """The address class of ``cidr`` (an int alone would guess)."""
    return ipaddress.IPv4Address if cidr.version == 4 else \
        ipaddress.IPv6Address


def _cut(free: list[_Block], first: int, last: int) -> list[_Block]:
    result = []
    for a, b in free:
        if b < first or a > last:
            result.append((a, b))
            continue
        if a < first:
            result.append((a, first - 1))
        if b > last:
            result.append((last + 1, b))
    return result


class SubnetPlan:
    """The parts of one subnet: ``tripleo`` (address -> whose),
    ``reserved`` (:class:`Reservation` list), ``parts`` (part -> Range
    list) with ``given`` (part -> who gave it; carved parts are absent)."""

    def __init__(self, network: str, subnet: str, cidr: Cidr) -> None:
        self.network = network
        self.subnet = subnet
        self.cidr = cidr
        self.tripleo: dict[Address, str] = {}
        self.reserved: list[Reservation] = []
        self.parts: dict[str, list[Range]] = {part: [] for part in PARTS}
        self.given: dict[str, str] = {}
        lo, hi = _usable(cidr)
        self._free = [(lo, hi)]

    @property
    def where(self) -> str:
        return 'network %s subnet %s (%s)' % (self.network, self.subnet,
                                              self.cidr)

    def left(self) -> list[Range]:
        """The free :class:`Range` list once every part is placed."""
        make = _address(self.cidr)
        return [Range(make(a), make(b)) for a, b in self._free]

    def left_count(self) -> int:
        return sum(b - a + 1 for a, b in self._free)

    def _owner(self, rng: Range) -> str | None:
        """Who holds an address of ``rng`` already, or None."""
        for ip, whose in sorted(self.tripleo.items()):
            if rng.first <= ip <= rng.last:  # type: ignore[operator]
                return '%s (TripleO\'s %s)' % (ip, whose)
        for held in self.reserved:
            if not held.may_hold and held.range.overlaps(rng):
                return '%s (reserved: %s)' % (held.range, held.why)
        for part, ranges in self.parts.items():
            for other in ranges:
                if other.overlaps(rng):
                    return '%s (the %s part)' % (other, part)
        return None

    def _inside(self, rng: Range, what: str, fix: str) -> None:
        lo, hi = _usable(self.cidr)
        if rng.first.version != self.cidr.version or \
                int(rng.first) < lo or int(rng.last) > hi:
            make = _address(self.cidr)
            raise PlanError('%s: %s %s is not inside its usable addresses '
                            '(%s): %s' % (self.where, what, rng, Range(
                                make(lo), make(hi)), fix))

    def reserve(self, reservation: Reservation) -> None:
        rng = reservation.range
        fix = 'correct %s' % OPTION[RESERVED]
        self._inside(rng, 'the reservation', fix)
        if not reservation.may_hold:
            owner = self._owner(rng)
            if owner:
                raise PlanError('%s: the reservation %s (%s) holds %s: '
                                'TripleO still uses it; %s' % (
                                    self.where, rng, reservation.why, owner,
                                    fix))
        self.reserved.append(reservation)
        self._free = _cut(self._free, int(rng.first), int(rng.last))

    def give(self, part: str, ranges: Iterable[Range], source: str) -> None:
        fix = 'give other addresses with %s %s=<first>-<last>' % (
            OPTION[part], self.network)
        for rng in ranges:
            self._inside(rng, 'the %s range' % part, fix)
            if part == DATAPLANE and rng.size < 2:
                raise PlanError('%s: the %s range %s (%s) is one address, '
                                'which the NetConfig webhook refuses (end '
                                'must be after start); %s' % (
                                    self.where, part, rng, source, fix))
            owner = self._owner(rng)
            if owner:
                raise PlanError('%s: the %s range %s (%s) overlaps %s; %s'
                                % (self.where, part, rng, source, owner, fix))
            self.parts[part].append(rng)
            self._free = _cut(self._free, int(rng.first), int(rng.last))
        self.given[part] = source

    def carve(self, part: str, size: int) -> None:
        """Take ``size`` addresses for ``part`` from the top of the
        highest free block that holds them."""
        if size <= 0:
            return
        if part == DATAPLANE and size < 2:
            raise PlanError('%s: a dataplane range of one address is refused '
                            'by the NetConfig webhook (end must be after '
                            'start): give %s %s=2 or more, or 0 for none'
                            % (self.where, OPTION[part], self.network))
        for a, b in reversed(self._free):
            if b - a + 1 >= size:
                first = b - size + 1
                make = _address(self.cidr)
                self.parts[part].append(Range(make(first), make(b)))
                self._free = _cut(self._free, first, b)
                return
        largest = max((b - a + 1 for a, b in self._free), default=0)
        raise PlanError(
            '%s: no %d free addresses in one block for the %s part (largest '
            'free block: %d, after TripleO\'s %d addresses and %d '
            'reservations): give a size that fits or ranges with %s %s=...'
            % (self.where, size, part, largest, len(self.tripleo),
               len(self.reserved), OPTION[part], self.network))


def without(ranges: Iterable[Range], addresses: Iterable[Address]
            ) -> tuple[list[Range], list[Range]]:
    """``ranges`` with ``addresses`` cut out, and the single addresses left
    dropped (a NetConfig range must hold two): ``(kept, dropped)``."""
    kept: list[Range] = []
    for rng in ranges:
        free = [(int(rng.first), int(rng.last))]
        for ip in addresses:
            if rng.first.version == ip.version:
                free = _cut(free, int(ip), int(ip))
        make = type(rng.first)
        kept += [Range(make(a), make(b)) for a, b in free]
    return ([r for r in kept if r.size > 1],
            [r for r in kept if r.size == 1])


def plan_subnet(network: str, subnet: str, cidr: Cidr,
                tripleo: Mapping[Address, str],
                reservations: Iterable[Reservation] = (),
                wants: Mapping[str, Want] | None = None) -> SubnetPlan:
    """The :class:`SubnetPlan` of one subnet: ``tripleo`` maps each
    address TripleO uses to whose it is; ``wants`` (part ->
    :class:`Want`, see :func:`wants_for`) says what each part is given;
    PlanError when a part cannot be placed."""
    plan = SubnetPlan(network, subnet, cidr)
    for ip, whose in tripleo.items():
        ip = ipaddress.ip_address(str(ip))
        if ip in cidr:
            plan.tripleo[ip] = whose
            plan._free = _cut(plan._free, int(ip), int(ip))
    for reservation in reservations:
        plan.reserve(reservation)
    wants = wants if wants is not None else wants_for(network)
    for part in PARTS:
        want = wants.get(part)
        if want is not None and want.ranges:
            plan.give(part, [r for r in want.ranges
                             if r.first in cidr], want.source)
    for part in PARTS:
        want = wants.get(part)
        if want is not None and not want.ranges:
            plan.carve(part, want.size)
    return plan
