"""The addresses of the hosts and VIPs on every network, without Neutron.

Addresses come from the deployed servers file (a host's ``ctlplane_ip`` and
``networks``) and the VIP file (``ip_address``). The others are allocated
from their subnet's ``allocation_pools`` (VIPs first, then hosts in roles
order), and what was allocated is recorded in the work dir: a later deploy
reads the record back and gives every host and VIP the same address again.
An address is never handed to two owners. The control plane VIP, when not
given, comes from the control plane subnet of the first host (primary
role first), skipping its first address (the usual gateway).
"""

import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data

CTLPLANE = network_data.CTLPLANE


class Address:
    """An address on a subnet (``ip`` an ipaddress object)."""

    def __init__(self, ip, subnet):
        self.ip = ip
        self.subnet = subnet

    @property
    def ip_subnet(self):
        return '%s/%d' % (self.ip, self.subnet.cidr.prefixlen)

    @property
    def uri(self):
        return '[%s]' % self.ip if self.ip.version == 6 else str(self.ip)


class Addresses:
    """The outcome: ``vips[net]`` and ``hosts[hostname][net]`` Address
    objects (isolated networks; a host's ctlplane address is its
    ``ctlplane_ip``), and ``new``, the (owner, network, ip) allocated now."""

    def __init__(self):
        self.vips = {}
        self.hosts = {}
        self.new = []

    def describe_new(self):
        """One line of what was allocated now, by owner."""
        owners = {}
        for owner, net, ip in self.new:
            key = 'VIPs' if owner.endswith(' VIP') else owner
            owners.setdefault(key, []).append('%s %s' % (net, ip))
        return '; '.join('%s: %s' % (owner, ', '.join(nets))
                         for owner, nets in owners.items())

    def record(self):
        """What the work dir keeps: every address, by owner."""
        return {
            'vips': {net: str(a.ip) for net, a in self.vips.items()},
            'hosts': {name.lower(): {net: str(a.ip) for net, a in
                                     nets.items()}
                      for name, nets in self.hosts.items() if nets},
        }


def ctlplane_subnet(servers, roles):
    """The control plane subnet the VIP lives on: the first host's (of the
    primary role when it has hosts)."""
    primary = next((r['name'] for r in roles
                    if 'primary' in (r.get('tags') or [])), None)
    hosts = servers.get(primary) or [h for hosts in servers.values()
                                     for h in hosts]
    if not hosts:
        return None
    cidr = ipaddress.ip_network(hosts[0]['ctlplane_cidr'])
    return network_data.Subnet(CTLPLANE, 'ctlplane-subnet', cidr,
                               gateway=cidr[1] if cidr.num_addresses > 2
                               else None)


class _Allocator:
    def __init__(self, servers_path, vip_path, record_path):
        self.owner_of = {}
        self.paths = {'host': servers_path, 'vip': vip_path,
                      'record': record_path}

    def fail(self, source, message):
        raise exceptions.DeployedServersError('%s %s: %s' % (
            'VIP data file' if source == 'vip' else 'Deployed servers file',
            self.paths[source], message))

    def take(self, ip, owner, net, source, recorded=False):
        other = self.owner_of.get(ip)
        if other is not None and other != owner:
            if recorded:
                self.fail('host', '%s has %s, which was allocated to %s on '
                          '%s by an earlier deploy (recorded in %s): give %s '
                          'another address' % (other, ip, owner, net,
                                               self.paths['record'], other))
            self.fail(source, '%s and %s both have %s (%s of %s): give each '
                      'its own address' % (other, owner, ip, net, owner))
        self.owner_of[ip] = owner

    def allocate(self, subnet, owner, net, source):
        for first, last in subnet.ranges():
            ip = first
            while ip <= last:
                if ip not in self.owner_of:
                    self.owner_of[ip] = owner
                    return ip
                ip += 1
        self.fail(source, '%s needs an address on %s (subnet %s, pool %s) '
                  'and the pool is exhausted: give one in the file or '
                  'widen allocation_pools' % (owner, net, subnet.name,
                                              subnet.describe_ranges()))


def _given(host, net, subnets, allocator):
    ip = ipaddress.ip_address(host['networks'][net])
    for subnet in subnets.values():
        if ip in subnet:
            _check_host_address(allocator, 'host', 'host %s: its %s address'
                                % (host['hostname'], net), ip, subnet)
            return Address(ip, subnet)
    allocator.fail('host', 'host %s: its %s address %s is outside that '
                   'network\'s subnets (%s)' % (
                       host['hostname'], net, ip,
                       ', '.join(str(s.cidr) for s in subnets.values())))


def _check_host_address(allocator, source, what, ip, subnet):
    kind = network_data.not_a_host(ip, subnet.cidr)
    if kind:
        allocator.fail(source, '%s %s is %s of subnet %s (%s), which no host '
                       'can have: give another address' % (
                           what, ip, kind, subnet.name, subnet.cidr))


def _recorded(value, subnet):
    try:
        ip = ipaddress.ip_address(str(value))
    except ValueError:
        return None
    return ip if ip in subnet else None


class _Wanted:
    """An owner's address still to find: recorded, else allocated."""

    def __init__(self, owner, net, subnet, source, target, old):
        self.owner, self.net, self.subnet = owner, net, subnet
        self.source, self.target, self.old = source, target, old

    def store(self, ip):
        self.target[self.net] = Address(ip, self.subnet)


def _vip_subnet(entry, by_lower, ctl_subnet):
    net = entry['network']
    if net == CTLPLANE:
        return ctl_subnet
    found = network_data.subnets(by_lower[net])
    return (found.get(entry.get('subnet')) or
            found.get('%s_subnet' % net) or next(iter(found.values()), None))


def allocate(servers, roles, networks, vips, previous=None,
             servers_path='<deployed servers>', vip_path='<VIP data>',
             record_path='<record>'):
    """Return the :class:`Addresses` of ``servers`` and ``vips``.

    ``vips`` is the completed VIP list (:func:`vip_data.complete`),
    ``previous`` what :meth:`Addresses.record` gave last time.
    """
    previous = previous if isinstance(previous, dict) else {}
    old_vips = previous.get('vips') or {}
    old_hosts = previous.get('hosts') or {}
    allocator = _Allocator(servers_path, vip_path, record_path)
    by_lower = {n['name_lower']: n for n in network_data.enabled(networks)}
    result = Addresses()
    wanted = []

    for hosts in servers.values():
        for host in hosts:
            allocator.take(ipaddress.ip_address(host['ctlplane_ip']),
                           'host %s' % host['hostname'], CTLPLANE, 'host')

    ctl_subnet = ctlplane_subnet(servers, roles)
    for entry in vips:
        net = entry['network']
        # A VIP may share its host's address (tripleo deploy's default).
        owner = entry.get('owner') or 'the %s VIP' % net
        subnet = _vip_subnet(entry, by_lower, ctl_subnet)
        if subnet is None:
            allocator.fail('vip', 'network %s has no subnet for its VIP'
                           % net)
        if entry.get('ip_address'):
            ip = ipaddress.ip_address(entry['ip_address'])
            if ip not in subnet:
                allocator.fail('vip', '%s %s is outside subnet %s (%s)' % (
                    owner, ip, subnet.name, subnet.cidr))
            _check_host_address(allocator, 'vip', owner, ip, subnet)
            allocator.take(ip, owner, net, 'vip')
            result.vips[net] = Address(ip, subnet)
        else:
            wanted.append(_Wanted(owner, net, subnet, 'vip', result.vips,
                                  _recorded(old_vips.get(net), subnet)))

    for role in roles:
        role_nets = network_data.role_networks(role, networks)
        for host in servers.get(role['name']) or []:
            name = host['hostname']
            owner = 'host %s' % name
            nets = result.hosts.setdefault(name, {})
            given = host.get('networks') or {}
            for net in given:
                if net not in by_lower:
                    allocator.fail('host', '%s has an address on %s, which '
                                   'the networks data does not define '
                                   '(networks: %s)' % (
                                       owner, net,
                                       ', '.join(by_lower) or 'none'))
                if by_lower[net] not in role_nets:
                    allocator.fail('host', '%s has an address on %s, which '
                                   'its role %s does not use' % (
                                       owner, net, role['name']))
            for network in role_nets:
                net = network['name_lower']
                if net in given:
                    address = _given(host, net,
                                     network_data.subnets(network), allocator)
                    allocator.take(address.ip, owner, net, 'host')
                    nets[net] = address
                    continue
                subnet = network_data.role_subnet(role, network)
                old = (old_hosts.get(name.lower()) or {}).get(net)
                wanted.append(_Wanted(owner, net, subnet, 'host', nets,
                                      _recorded(old, subnet)))

    # Recorded addresses first, so that no new allocation takes one.
    for want in wanted:
        if want.old is not None:
            allocator.take(want.old, want.owner, want.net, want.source,
                           recorded=True)
            want.store(want.old)
    for want in wanted:
        if want.old is None:
            ip = allocator.allocate(want.subnet, want.owner, want.net,
                                    want.source)
            want.store(ip)
            result.new.append((want.owner, want.net, str(ip)))
    return result
