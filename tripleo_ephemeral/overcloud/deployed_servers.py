"""The environment describing servers that are already deployed.

``--deployed-servers FILE`` is YAML mapping a role name to its hosts::

    Controller:
      - hostname: overcloud-controller-0
        ctlplane_ip: 192.168.24.10
        ssh_user: cloud-admin        # optional
    Compute:
      - hostname: overcloud-novacompute-0
        ctlplane_ip: 192.168.24.20
        ctlplane_cidr: 24             # optional prefix length, default 24

From it this module builds the parameters tripleoclient got from
provisioning: ``<Role>Count``, ``HostnameMap``, ``DeployedServerPortMap``,
``NodePortMap``, ``CtlplaneNetworkAttributes``, ``ControlPlaneVipData`` and
``VipPortMap``.
"""

import ipaddress
import logging
import re

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

DEFAULT_PREFIX = 24
DEFAULT_SSH_USER = 'tripleo-admin'
CTLPLANE = 'ctlplane'
CTLPLANE_SUBNET = 'ctlplane-subnet'
_HOST_KEYS = {'hostname', 'ctlplane_ip', 'ssh_user', 'ctlplane_cidr'}
_DNS_LABEL = re.compile(r'^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$')


def load_servers(path):
    """Return the validated ``role -> [host]`` mapping of the file ``path``.

    Each host is a dict with ``hostname``, ``ctlplane_ip`` (normalised),
    ``ctlplane_cidr`` (the subnet, e.g. ``192.168.24.0/24``) and
    ``ssh_user`` (or None).
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
    if not _DNS_LABEL.match(hostname):
        _fail(path, 'hostname %r of role %s is not a valid DNS label '
              '(letters, digits and "-", at most 63, no "-" at either end): '
              'use the host\'s short name' % (hostname, role))
    try:
        ip = ipaddress.ip_address(str(host.get('ctlplane_ip')))
    except ValueError:
        _fail(path, 'host %s needs ctlplane_ip set to an IP address, got %r'
              % (hostname, host.get('ctlplane_ip')))
    prefix = host.get('ctlplane_cidr', DEFAULT_PREFIX)
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
            'ctlplane_cidr': str(subnet), 'ssh_user': ssh_user}


def validate_servers(data, path='<deployed servers>'):
    """Validate parsed deployed servers data; see :func:`load_servers`."""
    if not isinstance(data, dict) or not data:
        _fail(path, 'must map role names to lists of hosts, e.g. '
              '"Controller: [{hostname: c0, ctlplane_ip: 192.0.2.10}]"')
    servers = {}
    seen_names = {}
    seen_ips = {}
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
    return servers


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


def _generated_hostname(role, stack_name, index):
    fmt = role.get('HostnameFormatDefault') or (
        '%%stackname%%-%s-%%index%%' % role['name'].lower())
    return fmt.replace('%stackname%', stack_name).replace(
        '%index%', str(index))


def _uri(ip):
    return '[%s]' % ip if ipaddress.ip_address(ip).version == 6 else ip


def _primary_role(roles):
    for role in roles:
        if 'primary' in (role.get('tags') or []):
            return role['name']
    return roles[0]['name']


def build_environment(servers, roles, stack_name,
                      cloud_domain='localdomain', control_virtual_ip=None):
    """Return the ``parameter_defaults`` environment for ``servers``.

    Roles of ``roles`` absent from ``servers`` get a count of 0. The
    control plane virtual IP defaults to the first host of the primary role
    (or of any role).
    """
    check_roles(servers, roles)
    params = {}
    hostname_map = {}
    port_map = {}
    node_port_map = {}
    all_hosts = []
    for role in roles:
        hosts = servers.get(role['name'], [])
        params['%sCount' % role['name']] = len(hosts)
        for index, host in enumerate(hosts):
            all_hosts.append(host)
            name = host['hostname']
            hostname_map[_generated_hostname(role, stack_name, index)] = name
            subnet = ipaddress.ip_network(host['ctlplane_cidr'])
            port_map['%s-%s' % (name, CTLPLANE)] = {
                'fixed_ips': [{'ip_address': host['ctlplane_ip']}],
                'subnets': [{'cidr': str(subnet),
                             'ip_version': subnet.version}],
                'network': {'name': CTLPLANE, 'tags': [str(subnet)]},
            }
            node_port_map[name] = {CTLPLANE: {
                'ip_address': host['ctlplane_ip'],
                'ip_address_uri': _uri(host['ctlplane_ip']),
                'ip_subnet': '%s/%d' % (host['ctlplane_ip'],
                                        subnet.prefixlen),
            }}
    if not all_hosts:
        raise exceptions.DeployedServersError(
            'Deployed servers file lists no hosts: add at least one host')

    primary = servers.get(_primary_role(roles)) or all_hosts
    vip = control_virtual_ip or primary[0]['ctlplane_ip']
    first_subnet = ipaddress.ip_network(all_hosts[0]['ctlplane_cidr'])
    subnets = sorted({h['ctlplane_cidr'] for h in all_hosts})
    params.update({
        'HostnameMap': hostname_map,
        'DeployedServerPortMap': port_map,
        'NodePortMap': node_port_map,
        'CtlplaneNetworkAttributes': {
            'network': {'name': CTLPLANE, 'mtu': 1500,
                        'dns_domain': cloud_domain.rstrip('.') + '.',
                        'tags': subnets},
            'subnets': {CTLPLANE_SUBNET: {
                'name': CTLPLANE_SUBNET,
                'cidr': str(first_subnet),
                'ip_version': first_subnet.version,
                'gateway_ip': None,
                'dns_nameservers': [],
                'host_routes': [],
            }},
        },
        'ControlPlaneVipData': {
            'name': 'control_virtual_ip',
            'network': {'tags': [str(first_subnet)]},
            'fixed_ips': [{'ip_address': vip}],
            'subnets': [{'ip_version': first_subnet.version}],
        },
        'VipPortMap': {},
        'CloudDomain': cloud_domain.rstrip('.'),
    })
    return {'parameter_defaults': params}


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


def write_environment(environment, path):
    """Write ``environment`` to ``path``; return it."""
    yamlfile.write(path, environment, mode=0o600)
    LOG.info('Wrote the deployed servers environment %s', path)
    return path


def prepare_environment(servers_file, roles, stack_name, path,
                        roles_file='<roles data>', cloud_domain='localdomain',
                        control_virtual_ip=None):
    """Load ``servers_file``, check it against ``roles`` and write the
    environment to ``path``.

    Returns ``(path, servers)``.
    """
    servers = load_servers(servers_file)
    check_roles(servers, roles, servers_file, roles_file)
    env = build_environment(servers, roles, stack_name,
                            cloud_domain=cloud_domain,
                            control_virtual_ip=control_virtual_ip)
    return write_environment(env, path), servers
