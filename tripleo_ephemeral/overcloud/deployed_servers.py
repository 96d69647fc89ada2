"""The environment describing servers that are already deployed.

``--deployed-servers FILE`` is YAML mapping a role name to its hosts::

    Controller:
      - hostname: overcloud-controller-0
        ctlplane_ip: 192.168.24.10
        ssh_user: cloud-admin        # optional
    Compute:
      - hostname: overcloud-novacompute-0
        ctlplane_ip: 192.168.24.20
        ctlplane_cidr: 22             # optional: prefix length or CIDR of
                                      # the control plane, default /24
                                      # (/64 for an IPv6 ctlplane_ip); a
                                      # larger one applies to every host
                                      # in it that gives none
        networks:                     # optional: addresses on the role's
          internal_api: 172.16.2.20   # isolated networks (by name_lower);
                                      # the others are allocated

This module reads and checks it;
:mod:`~tripleo_ephemeral.overcloud.deployed_environment` builds from it what
provisioning gave tripleoclient.
"""

import ipaddress
import logging
import re

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

#: The control plane's prefix length when a host gives no ctlplane_cidr,
#: by IP version: a /24 of IPv4, the /64 of an IPv6 link.
DEFAULT_PREFIX = {4: 24, 6: 64}
DEFAULT_SSH_USER = 'tripleo-admin'
CTLPLANE = 'ctlplane'
CTLPLANE_SUBNET = 'ctlplane-subnet'
_HOST_KEYS = {'hostname', 'ctlplane_ip', 'ssh_user', 'ctlplane_cidr',
              'networks'}
#: A host name as metalsmith gave it to tripleoclient's deploys (its
#: is_hostname_safe: RFC 952/1123, lower case): tripleo-heat-templates look
#: hosts up by it in maps keyed in lower case (NodePortMap,
#: DeployedServerPortMap), so a capital is found nowhere ("No method
#: select for receiver None" from Heat).
_DNS_LABEL = re.compile(r'^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$')


def load_servers(path):
    """Return the validated ``role -> [host]`` mapping of the file ``path``.

    Each host is a dict with ``hostname``, ``ctlplane_ip`` (normalised),
    ``ctlplane_cidr`` (the subnet, e.g. ``192.168.24.0/24``), ``ssh_user``
    (or None) and ``networks`` (``{name_lower: address}``, normalised).
    """
    data = yamlfile.load(path, 'Deployed servers file',
                         exceptions.DeployedServersError)
    return validate_servers(data, path)


def _fail(path, message):
    raise exceptions.DeployedServersError(
        'Deployed servers file %s: %s' % (path, message))


def _host(path, role, index, host):
    if not isinstance(host, dict):
        _fail(path, 'host %d of role %s must be a mapping with hostname and '
              'ctlplane_ip' % (index, role))
    unknown = set(host) - _HOST_KEYS
    if unknown:
        _fail(path, 'host %d of role %s has unknown key(s) %s; use %s'
              % (index, role, ', '.join(sorted(unknown)),
                 ', '.join(sorted(_HOST_KEYS))))
    hostname = host.get('hostname')
    if not isinstance(hostname, str) or not hostname.strip():
        _fail(path, 'host %d of role %s needs a hostname' % (index, role))
    hostname = hostname.strip()
    if not _DNS_LABEL.match(hostname.lower()):
        _fail(path, 'hostname %r of role %s is not a valid DNS label '
              '(letters, digits and "-", at most 63, no "-" at either end): '
              'use the host\'s short name' % (hostname, role))
    if hostname != hostname.lower():
        _fail(path, 'hostname %r of role %s has capitals, which '
              'tripleo-heat-templates do not find (they key hosts in lower '
              'case, as provisioning named them): write %r' % (
                  hostname, role, hostname.lower()))
    try:
        ip = ipaddress.ip_address(str(host.get('ctlplane_ip')))
    except ValueError:
        _fail(path, 'host %s needs ctlplane_ip set to an IP address, got %r'
              % (hostname, host.get('ctlplane_ip')))
    prefix = host.get('ctlplane_cidr', DEFAULT_PREFIX[ip.version])
    try:
        if isinstance(prefix, int) or str(prefix).isdigit():
            subnet = ipaddress.ip_network('%s/%s' % (ip, prefix),
                                          strict=False)
        else:
            subnet = ipaddress.ip_network(str(prefix), strict=False)
    except ValueError:
        _fail(path, 'host %s: ctlplane_cidr %r is neither a prefix length '
              'nor a CIDR' % (hostname, prefix))
    if ip not in subnet:
        _fail(path, 'host %s: ctlplane_ip %s is outside ctlplane_cidr %s'
              % (hostname, ip, subnet))
    ssh_user = host.get('ssh_user')
    if ssh_user is not None and not isinstance(ssh_user, str):
        _fail(path, 'host %s: ssh_user must be a string' % hostname)
    return {'hostname': hostname, 'ctlplane_ip': str(ip),
            'ctlplane_cidr': str(subnet), 'ssh_user': ssh_user,
            'networks': _networks(path, hostname, host.get('networks'))}


def _networks(path, hostname, networks):
    if networks is None:
        return {}
    if not isinstance(networks, dict):
        _fail(path, 'host %s: networks must map network names (name_lower) '
              'to addresses, e.g. {internal_api: 172.16.2.10}' % hostname)
    result = {}
    for net, value in networks.items():
        if net == 'ctlplane':
            _fail(path, 'host %s: give the control plane address as '
                  'ctlplane_ip, not in networks' % hostname)
        try:
            result[str(net)] = str(ipaddress.ip_address(str(value)))
        except ValueError:
            _fail(path, 'host %s: its %s address %r is not an IP address'
                  % (hostname, net, value))
    return result


def validate_servers(data, path='<deployed servers>'):
    """Validate parsed deployed servers data; see :func:`load_servers`."""
    if not isinstance(data, dict) or not data:
        _fail(path, 'must map role names to lists of hosts, e.g. '
              '"Controller: [{hostname: c0, ctlplane_ip: 192.0.2.10}]"')
    servers = {}
    seen_names = {}
    seen_ips = {}
    given, defaulted = [], []
    for role, hosts in data.items():
        if not isinstance(role, str):
            _fail(path, 'role name %r must be a string' % (role,))
        if hosts is None:
            hosts = []
        if not isinstance(hosts, list):
            _fail(path, 'role %s must list its hosts' % role)
        servers[role] = []
        for index, raw in enumerate(hosts):
            host = _host(path, role, index, raw)
            name = host['hostname'].lower()
            if name in seen_names:
                _fail(path, 'hostname %s is listed twice (roles %s and %s)'
                      % (host['hostname'], seen_names[name], role))
            if host['ctlplane_ip'] in seen_ips:
                _fail(path, 'ctlplane_ip %s is used by both %s and %s'
                      % (host['ctlplane_ip'], seen_ips[host['ctlplane_ip']],
                         host['hostname']))
            seen_names[name] = role
            seen_ips[host['ctlplane_ip']] = host['hostname']
            servers[role].append(host)
            if isinstance(raw, dict) and 'ctlplane_cidr' in raw:
                given.append(ipaddress.ip_network(host['ctlplane_cidr']))
            else:
                defaulted.append(host)
    _widen_defaults(defaulted, given)
    _check_ctlplane_addresses(path, servers, defaulted, given)
    return servers


def _widen_defaults(hosts, given):
    """A control plane one host gives (``ctlplane_cidr: 22``) is that of
    every host inside it that gives none: one line makes a /22 of
    hundreds of hosts, instead of one on every host."""
    for host in hosts:
        ip = ipaddress.ip_address(host['ctlplane_ip'])
        inside = [net for net in given if ip in net and
                  net.prefixlen < DEFAULT_PREFIX[ip.version]]
        if inside:
            host['ctlplane_cidr'] = str(min(inside,
                                            key=lambda net: net.prefixlen))


def _check_ctlplane_addresses(path, servers, defaulted, given):
    """No host has its subnet's network or broadcast address, and hosts
    whose subnet is the default /24 (none given covers them) do not run
    across the end of one /24 into the next: a run of addresses over a
    boundary is one subnet that needs its prefix (``ctlplane_cidr: 23``),
    or routed subnets that say so (``ctlplane_cidr: 24`` on a host of
    each)."""
    for hosts in servers.values():
        for host in hosts:
            ip = ipaddress.ip_address(host['ctlplane_ip'])
            subnet = ipaddress.ip_network(host['ctlplane_cidr'])
            kind = network_data.not_a_host(ip, subnet)
            if kind:
                _fail(path, 'host %s: ctlplane_ip %s is %s of %s, which no '
                      'host can have: give another address or the subnet\'s '
                      'real ctlplane_cidr' % (host['hostname'], ip, kind,
                                              subnet))
    first = {}
    for host in defaulted:
        subnet = ipaddress.ip_network(host['ctlplane_cidr'])
        if not any(subnet.subnet_of(net) for net in given
                   if net.version == subnet.version):
            first.setdefault(subnet, host)
    for subnet, host in first.items():
        try:
            after = type(subnet)((int(subnet.broadcast_address) + 1,
                                  subnet.prefixlen))
        except ValueError:  # the last subnet there is
            continue
        other = first.get(after)
        if other is not None:
            _fail(path, 'hosts %s (%s) and %s (%s) fall in two control plane '
                  'subnets, %s and %s, by the default /%d: give '
                  'ctlplane_cidr: %d if they share one subnet, or '
                  'ctlplane_cidr: %d on a host of each if they are routed '
                  'apart' % (host['hostname'], host['ctlplane_ip'],
                             other['hostname'], other['ctlplane_ip'], subnet,
                             after, subnet.prefixlen, subnet.prefixlen - 1,
                             subnet.prefixlen))


def check_roles(servers, roles, servers_path='<deployed servers>',
                roles_path='<roles data>'):
    """Fail when ``servers`` names a role that ``roles`` lacks."""
    known = [role['name'] for role in roles]
    for role in servers:
        if role not in known:
            raise exceptions.DeployedServersError(
                'Deployed servers file %s names role %s, which roles data '
                'file %s does not define (roles: %s): add the role or fix '
                'the name' % (servers_path, role, roles_path,
                              ', '.join(known)))


def ssh_users(servers, default=DEFAULT_SSH_USER):
    """Return ``hostname -> ssh user`` for the hosts in ``servers``.

    Hosts without an ``ssh_user`` get ``default``; with ``default=None``
    they are left out (the inventory's default then applies).
    """
    return {host['hostname']: host.get('ssh_user') or default
            for hosts in (servers or {}).values() for host in hosts or []
            if isinstance(host, dict) and (host.get('ssh_user') or default)}


#: Printed for every server a deploy drops; the seed's scale-down advice.
REMOVED_HOST_WARNING = (
    'WARNING: %(host)s (%(role)s, %(ip)s) was removed from the deployment '
    'and from the inventory. Nothing on it was unconfigured or stopped: '
    'power it off, save the data you need from it, and reprovision it to a '
    'base operating system before reusing it, so that it does not '
    'unintentionally rejoin the deployment.')


def removed_hosts(previous, current):
    """Return ``[(role, host)]`` of ``previous`` whose hostname ``current``
    no longer lists (both as :func:`load_servers` returns them)."""
    kept = {host['hostname'].lower()
            for hosts in (current or {}).values() for host in hosts or []}
    return [(role, host) for role, hosts in (previous or {}).items()
            for host in hosts or []
            if isinstance(host, dict) and host.get('hostname') and
            host['hostname'].lower() not in kept]
