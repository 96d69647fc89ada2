"""Each TripleO network's subnet split between TripleO, the OpenShift
workers, the control plane's pods and load balancers, and the data plane.

data-plane-adoption (``proc_retrieving-network-information-from-your-
existing-deployment.adoc``, ``proc_reusing-existing-subnet-ranges.adoc``,
``assembly_planning-your-ipam-configuration.adoc``) has the operator list
every address TripleO uses (hosts, VIPs, the gateway) and keep it out of
four new allocations per isolated network: one address per OpenShift
worker (NodeNetworkConfigurationPolicy), a range for the pods
(NetworkAttachmentDefinition), one for the load balancers (MetalLB
IPAddressPool) and the data plane's (NetConfig). :func:`split` does it
from the work dir: a range the operator gives is checked, a range not
given is carved from the top of the subnet's free space (TripleO
allocates from the bottom of its pools), and the data plane keeps what is
left of TripleO's pools. Overlaps, ranges outside the subnet and subnets
too small are refused in one line naming the option that fixes them.

Interim: the network plan of the data-plane branch (RHOSO_LAYOUT.md) owns
this split once it lands; the control plane then reads its ``pods`` and
``loadbalancers`` parts instead.
"""

import ipaddress

from tripleo_ephemeral import exceptions

#: The RHOSO networks the control plane's pods and load balancers use
#: (upstream's NetworkAttachmentDefinitions and IPAddressPools; the
#: public endpoints are OpenShift routes, not a network of their own).
ATTACHED = frozenset(['ctlplane', 'internalapi', 'storage', 'tenant'])
CTLPLANE = 'ctlplane'


def _fail(message):
    raise exceptions.RhosoExportError(message)


def _text(first, last):
    return str(first) if first == last else '%s-%s' % (first, last)


def hosts_of(cidr):
    """``(first, last)`` usable host address of ``cidr``."""
    if cidr.num_addresses <= 2:
        return cidr[0], cidr[-1]
    return cidr[1], cidr[-2] if cidr.version == 4 else cidr[-1]


def runs(first, last, taken):
    """The free ``(first, last)`` runs of ``first..last`` without the
    addresses of ``taken`` (a set), lowest first."""
    result = []
    start = first
    for ip in sorted(a for a in taken if first <= a <= last):
        if ip > start:
            result.append((start, ip - 1))
        start = max(start, ip + 1)
    if start <= last:
        result.append((start, last))
    return result


def _addresses(first, last):
    ip = first
    while ip <= last:
        yield ip
        ip += 1


class Split:
    """One network: ``tripleo`` maps each address TripleO uses to what
    uses it; ``workers`` each OpenShift worker's address; ``pods`` and
    ``loadbalancers`` are ``(first, last)`` or None; ``given`` names the
    parts the operator gave; ``dataplane`` and ``left`` are range lists."""

    def __init__(self, network, subnet):
        self.network = network
        self.subnet = subnet
        self.tripleo = {}
        self.workers = {}
        self.pods = None
        self.loadbalancers = None
        self.given = set()
        self.dataplane = []
        self.left = []

    @property
    def name(self):
        return self.network.name

    @property
    def attached(self):
        """Whether control-plane pods attach to this network."""
        return self.network.name in ATTACHED

    def taken(self):
        found = set(self.tripleo) | set(self.workers.values())
        for part in (self.pods, self.loadbalancers):
            if part:
                found.update(_addresses(*part))
        return found

    def owner(self, ip):
        """What part ``ip`` is in, or None."""
        if ip in self.tripleo:
            return 'TripleO (%s)' % self.tripleo[ip]
        for node, address in self.workers.items():
            if address == ip:
                return 'worker %s' % node
        for label, part in (('pods', self.pods),
                            ('load balancers', self.loadbalancers)):
            if part and part[0] <= ip <= part[1]:
                return label
        return None


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


def _check_given(split, option, part, first, last):
    cidr = split.subnet.cidr
    low, high = hosts_of(cidr)
    if first.version != cidr.version or first < low or last > high:
        _fail('%s %s=%s: outside %s\'s subnet %s (hosts %s); give a range '
              'inside it, or plan new subnet ranges by hand '
              '(data-plane-adoption proc_using-new-subnet-ranges.adoc)'
              % (option, split.name, _text(first, last), split.name, cidr,
                 _text(low, high)))
    for ip in _addresses(first, last):
        owner = split.owner(ip)
        if owner:
            _fail('%s %s=%s overlaps %s at %s: give a range without it'
                  % (option, split.name, _text(first, last), owner, ip))
    return first, last


def _carve(split, size, what, option):
    """The top ``size`` addresses of the highest free run that holds them."""
    low, high = hosts_of(split.subnet.cidr)
    free = runs(low, high, split.taken())
    for first, last in reversed(free):
        if int(last) - int(first) + 1 >= size:
            return last - (size - 1), last
    total = sum(int(b) - int(a) + 1 for a, b in free)
    _fail('Network %s (%s) has no %d free addresses in a row for %s (%d free '
          'in all, TripleO uses %d): give a smaller range with %s %s=FIRST-'
          'LAST, or plan new subnet ranges by hand (data-plane-adoption '
          'proc_using-new-subnet-ranges.adoc)'
          % (split.name, split.subnet.cidr, size, what, total,
             len(split.tripleo), option, split.name))


def _workers(split, workers, given):
    if given:
        first, last = _check_given(split, '--ocp-worker-range', 'workers',
                                   *given)
        addresses = list(_addresses(first, last))
        if len(addresses) < len(workers):
            _fail('--ocp-worker-range %s=%s holds %d addresses for %d '
                  'workers: give one address per --ocp-worker'
                  % (split.name, _text(first, last), len(addresses),
                     len(workers)))
        split.given.add('workers')
    else:
        first, last = _carve(split, len(workers), 'the OpenShift workers',
                             '--ocp-worker-range')
        addresses = list(_addresses(first, last))
    for (node, _), ip in zip(workers, addresses):
        split.workers[node] = ip


def _part(split, name, given, size, what, option):
    if given:
        split.given.add(name)
        return _check_given(split, option, name, *given)
    if size <= 0:
        return None
    return _carve(split, size, what, option)


def _finish(split):
    taken = split.taken()
    for first, last in split.subnet.pools:
        split.dataplane += runs(first, last, taken)
    low, high = hosts_of(split.subnet.cidr)
    in_pools = set()
    for first, last in split.dataplane:
        in_pools.update(_addresses(first, last))
    split.left = runs(low, high, taken | in_pools)


def _check_names(networks, inputs):
    names = [n.name for n in networks]
    for option, given in (('--pods-range', inputs.pod_ranges),
                          ('--loadbalancer-range', inputs.lb_ranges),
                          ('--ocp-worker-range', inputs.worker_ranges)):
        for name in sorted(given):
            if name not in names:
                _fail('%s %s: the export has no network %s (networks: %s)'
                      % (option, name, name, ', '.join(names)))
            if name not in ATTACHED:
                _fail('%s %s: no control-plane pod attaches to %s (only to '
                      '%s): remove the option'
                      % (option, name, name, ', '.join(sorted(ATTACHED))))


def split(deployment, networks, inputs, vlan_networks=None):
    """A :class:`Split` per network of ``networks`` (the NetConfig's
    :class:`~tripleo_ephemeral.rhoso.netconfig.Network` list), each on its
    first subnet. Workers get addresses on ``vlan_networks`` (RHOSO
    names; default: every attached network with a VLAN)."""
    _check_names(networks, inputs)
    result = []
    for network in networks:
        subnet = network.subnets[0]
        item = Split(network, subnet)
        item.tripleo = _tripleo(deployment, network, subnet)
        if item.attached:
            wanted = vlan_networks if vlan_networks is not None else [
                n.name for n in networks if n.subnets[0].vlan is not None]
            if inputs.workers and network.name in wanted:
                _workers(item, inputs.workers,
                         inputs.worker_ranges.get(network.name))
            item.loadbalancers = _part(
                item, 'loadbalancers', inputs.lb_ranges.get(network.name),
                inputs.lb_addresses, 'the load balancers',
                '--loadbalancer-range')
            item.pods = _part(
                item, 'pods', inputs.pod_ranges.get(network.name),
                inputs.pod_addresses, 'the pods', '--pods-range')
        _finish(item)
        result.append(item)
    return result


def text(part):
    """``FIRST-LAST`` of a ``(first, last)``."""
    return _text(*part) if part else '-'


def count(ranges):
    return sum(int(b) - int(a) + 1 for a, b in ranges)


def carve_netconfig(document, splits):
    """The NetConfig ``document`` with the workers', pods' and load
    balancers' addresses cut out of its allocation ranges (in place), so
    IPAM never hands one of them to a data-plane node. Interim, until the
    network plan gives the NetConfig its ``dataplane`` part."""
    by_cidr = {str(s.subnet.cidr): s for s in splits}
    for network in (document.get('spec') or {}).get('networks') or []:
        for subnet in network.get('subnets') or []:
            split = by_cidr.get(str(subnet.get('cidr')))
            if split is None:
                continue
            taken = split.taken() - set(split.tripleo)
            ranges = []
            for item in subnet.get('allocationRanges') or []:
                first = ipaddress.ip_address(item['start'])
                last = ipaddress.ip_address(item['end'])
                ranges += [{'start': str(a), 'end': str(b)}
                           for a, b in runs(first, last, taken)]
            subnet['allocationRanges'] = ranges
    return document
