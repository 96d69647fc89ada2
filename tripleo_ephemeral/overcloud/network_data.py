"""Networks data (tripleo-heat-templates' network data v2) and its subnets.

A networks file is a list of isolated networks; the control plane
(``ctlplane``) is never listed. Each network has ``name``, ``name_lower``
(default: the lower-cased name), ``vip``, ``mtu``, ``ipv6`` and ``subnets``,
a mapping of subnet names to ``ip_subnet``/``allocation_pools``/
``gateway_ip``/``routes``/``vlan`` (or the ``ipv6_*`` spellings). Network
data v1 (``ip_subnet`` on the network itself) is rejected: tripleoclient
never provisioned it either.
"""

import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

CTLPLANE = 'ctlplane'
_V1_KEYS = ('ip_subnet', 'ipv6_subnet')


def _fail(path, message):
    raise exceptions.RolesDataError('Networks data file %s: %s'
                                    % (path, message))


def load_networks(path):
    """Return the validated list of networks from the file ``path``."""
    data = yamlfile.load(path, 'Networks data file', exceptions.RolesDataError)
    return validate_networks(data, path)


def validate_networks(data, path='<networks data>'):
    """Validate parsed networks data; return it with defaults filled in.

    Every network gets ``name_lower`` (default: the lower-cased name) and
    ``enabled`` (default: true), as tripleo-heat-templates expect.
    """
    if data is None:
        data = []
    if not isinstance(data, list):
        raise exceptions.RolesDataError(
            'Networks data file %s must be a list of networks' % path)
    seen = set()
    networks = []
    for index, network in enumerate(data):
        if not isinstance(network, dict) or not isinstance(
                network.get('name'), str):
            _fail(path, 'entry %d needs a "name"' % index)
        name = network['name']
        if name in seen:
            _fail(path, 'network %s is defined twice; keep one' % name)
        seen.add(name)
        v1 = [key for key in _V1_KEYS if key in network]
        if v1:
            _fail(path, 'network %s has %s on the network itself, which is '
                  'network data v1; write it as v2 (subnets: {%s_subnet: '
                  '{%s: ...}}), as in THT\'s network-data-samples'
                  % (name, v1[0], network.get('name_lower', name.lower()),
                     v1[0]))
        network = dict(network)
        network.setdefault('name_lower', name.lower())
        network.setdefault('enabled', True)
        _check_subnets(network, path)
        networks.append(network)
    lowers = [n['name_lower'] for n in networks]
    for lower in lowers:
        if lowers.count(lower) > 1 or lower == CTLPLANE:
            _fail(path, 'name_lower %s is used twice or names the control '
                  'plane; give each network its own' % lower)
    return networks


def enabled(networks):
    """The networks tripleo-heat-templates use (``enabled`` not false)."""
    return [n for n in networks if n.get('enabled') is not False]


# -- subnets ------------------------------------------------------------------

class Subnet:
    """One subnet of a network, in the network's IP version."""

    def __init__(self, network, name, cidr, pools=(), gateway=None,
                 routes=(), vlan=None):
        self.network = network
        self.name = name
        self.cidr = cidr
        self.pools = list(pools)
        self.gateway = gateway
        self.routes = list(routes)
        self.vlan = vlan

    @property
    def version(self):
        return self.cidr.version

    def __contains__(self, ip):
        return ip.version == self.version and ip in self.cidr

    def ranges(self):
        """``[(first, last)]`` addresses to allocate from: the allocation
        pools, else the whole subnet but its network, broadcast (IPv4)
        and gateway addresses."""
        if self.pools:
            return list(self.pools)
        cidr = self.cidr
        if cidr.num_addresses <= 2:
            first, last = cidr[0], cidr[-1]
        elif cidr.version == 4:
            first, last = cidr[1], cidr[-2]
        else:  # the first address is the subnet-router anycast
            first, last = cidr[1], cidr[-1]
        gateway = self.gateway
        if gateway is None or not first <= gateway <= last:
            return [(first, last)]
        return [(a, b) for a, b in ((first, gateway - 1),
                                    (gateway + 1, last)) if a <= b]

    def describe_ranges(self):
        return ', '.join('%s-%s' % pair for pair in self.ranges()) or 'none'


def not_a_host(ip, cidr):
    """What ``ip`` is in ``cidr`` when no host can have it (its network
    or broadcast address, IPv6's subnet-router anycast), else None."""
    if ip.version != cidr.version or ip not in cidr:
        return None
    if cidr.num_addresses <= 2:  # a /31 or /32 (/127, /128): all hosts
        return None
    if ip == cidr.network_address:
        return ('the network address' if ip.version == 4 else
                'the subnet-router anycast address')
    if ip.version == 4 and ip == cidr.broadcast_address:
        return 'the broadcast address'
    return None


def _ip(value, path, where):
    try:
        return ipaddress.ip_address(str(value))
    except ValueError:
        _fail(path, '%s: %r is not an IP address' % (where, value))


def _keys(ipv6):
    if ipv6:
        return ('ipv6_subnet', 'ipv6_allocation_pools', 'gateway_ipv6',
                'routes_ipv6')
    return ('ip_subnet', 'allocation_pools', 'gateway_ip', 'routes')


def _parse_subnet(network, name, data, path):
    where = 'network %s subnet %s' % (network['name'], name)
    if not isinstance(data, dict):
        _fail(path, '%s must be a mapping with ip_subnet' % where)
    cidr_key, pools_key, gateway_key, routes_key = _keys(
        bool(network.get('ipv6')))
    if not data.get(cidr_key):
        _fail(path, '%s needs %s%s' % (where, cidr_key, (
            ' (the network has ipv6: true)' if network.get('ipv6') else '')))
    try:
        cidr = ipaddress.ip_network(str(data[cidr_key]), strict=False)
    except ValueError:
        _fail(path, '%s: %s %r is not a CIDR' % (where, cidr_key,
                                                 data[cidr_key]))
    pools = []
    for pool in data.get(pools_key) or []:
        if not isinstance(pool, dict) or not {'start', 'end'} <= set(pool):
            _fail(path, '%s: each of %s needs start and end'
                  % (where, pools_key))
        start = _ip(pool['start'], path, where)
        end = _ip(pool['end'], path, where)
        if start not in cidr or end not in cidr or start > end:
            _fail(path, '%s: allocation pool %s-%s is not a range inside %s'
                  % (where, start, end, cidr))
        for ip in (start, end):
            if not_a_host(ip, cidr):
                _fail(path, '%s: allocation pool %s-%s includes %s, %s of '
                      '%s, which no host can have: start after it or end '
                      'before it' % (where, start, end, ip,
                                     not_a_host(ip, cidr), cidr))
        pools.append((start, end))
    gateway = None
    if data.get(gateway_key):
        gateway = _ip(data[gateway_key], path, where)
        if gateway not in cidr:
            _fail(path, '%s: %s %s is outside %s' % (where, gateway_key,
                                                     gateway, cidr))
        if not_a_host(gateway, cidr):
            _fail(path, '%s: %s %s is %s of %s, which no router can have: '
                  'give the gateway\'s own address' % (
                      where, gateway_key, gateway, not_a_host(gateway, cidr),
                      cidr))
    return Subnet(network['name_lower'], name, cidr, pools, gateway,
                  data.get(routes_key) or [], data.get('vlan'))


def _check_subnets(network, path):
    subnets = network.get('subnets')
    if subnets is None:
        return
    if not isinstance(subnets, dict):
        _fail(path, 'network %s: subnets must map subnet names to '
              '{ip_subnet: ...}' % network['name'])
    for name, data in subnets.items():
        _parse_subnet(network, name, data, path)


def subnets(network, path='<networks data>'):
    """``{name: Subnet}`` of ``network``, in the networks file's order."""
    return {name: _parse_subnet(network, name, data, path)
            for name, data in (network.get('subnets') or {}).items()}


def role_subnet(role, network, path='<networks data>'):
    """The subnet hosts of ``role`` get on ``network``: the role's
    ``networks.<Name>.subnet``, else ``<name_lower>_subnet``, else the
    network's first subnet (as tripleo-heat-templates choose it)."""
    found = subnets(network, path)
    if not found:
        _fail(path, 'network %s has no subnets, so its addresses cannot be '
              'checked or allocated: add subnets with ip_subnet'
              % network['name'])
    wanted = None
    role_nets = role.get('networks')
    if isinstance(role_nets, dict):
        wanted = (role_nets.get(network['name']) or {}).get('subnet')
    if wanted:
        if wanted not in found:
            _fail(path, 'role %s uses subnet %s of network %s, which has '
                  'only %s' % (role['name'], wanted, network['name'],
                               ', '.join(found)))
        return found[wanted]
    return found.get('%s_subnet' % network['name_lower'],
                     next(iter(found.values())))


def role_networks(role, networks):
    """The enabled networks of ``networks`` that ``role`` uses.

    A role lists networks by ``name`` (THT: ``InternalApi``, as a list or a
    mapping to their subnet) or ``name_lower``; ``ctlplane`` is implied.
    """
    wanted = {n for n in role.get('networks') or [] if isinstance(n, str)}
    return [n for n in enabled(networks)
            if n['name'] in wanted or n['name_lower'] in wanted]


def check_role_networks(roles, networks, path='<roles data>'):
    """Fail if one of ``roles`` uses a network that is neither ctlplane nor
    in ``networks``.

    Only roles that get hosts are checked (tripleo-heat-templates skip the
    others), and only with networks data: without any (THT's default,
    control plane only) the roles may name networks the deploy does not
    create.
    """
    if not networks:
        return
    known = {CTLPLANE}
    for network in networks:
        known.add(network['name'])
        known.add(network['name_lower'])
    for role in roles:
        for net in role.get('networks') or []:
            if isinstance(net, str) and net not in known:
                raise exceptions.RolesDataError(
                    'Roles data file %s: role %s uses network %s, which the '
                    'networks data does not define (networks: %s): add it '
                    'to the networks data or remove it from the role'
                    % (path, role['name'], net, ', '.join(sorted(
                        n['name'] for n in networks))))
