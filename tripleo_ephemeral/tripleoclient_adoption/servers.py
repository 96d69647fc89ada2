"""The servers of a deployed stack, as a ``--deployed-servers`` file.

Each host comes from the stack outputs: ``RoleNetHostnameMap`` (its
ctlplane FQDN, whose first part is the host name) and ``RoleNetIpMap``
(its address on every network), index by index within a role. The
environment the stack was deployed with adds the ctlplane subnet
(``DeployedServerPortMap``, else ``CtlplaneNetworkAttributes``) and the
addresses of networks the outputs lack (``NodePortMap``)::

    Controller:
      - hostname: overcloud-controller-0
        ctlplane_ip: 192.0.2.10
        ctlplane_cidr: 192.0.2.0/24
        networks: {internal_api: 172.16.2.10}
"""

import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import inventory

CTLPLANE = 'ctlplane'


def _ip(value):
    try:
        return str(ipaddress.ip_address(str(value)))
    except ValueError:
        return None


def _subnet_of(host, ip, params):
    """The ctlplane CIDR the provisioning gave ``host``, or None."""
    port = (params.get('DeployedServerPortMap') or {}).get(
        '%s-%s' % (host, CTLPLANE)) or {}
    cidrs = [s.get('cidr') for s in port.get('subnets') or []
             if isinstance(s, dict)]
    subnets = ((params.get('CtlplaneNetworkAttributes') or {}).get(
        'subnets') or {})
    cidrs += [s.get('cidr') for s in subnets.values() if isinstance(s, dict)]
    for cidr in cidrs:
        try:
            if ipaddress.ip_address(ip) in ipaddress.ip_network(
                    str(cidr), strict=False):
                return str(ipaddress.ip_network(str(cidr), strict=False))
        except ValueError:
            continue
    return None


def _networks(role_ips, index, node_ports):
    nets = {}
    for net, ips in sorted((role_ips or {}).items()):
        if net == CTLPLANE or net.endswith(('_subnet', '_uri')) or \
                not isinstance(ips, list) or index >= len(ips):
            continue
        ip = _ip(ips[index])
        if ip:
            nets[net] = ip
    for net, port in sorted((node_ports or {}).items()):
        if net != CTLPLANE and net not in nets and isinstance(port, dict):
            ip = _ip(port.get('ip_address'))
            if ip:
                nets[net] = ip
    return nets


def servers(outputs, parameters, stack):
    """``role -> [host]`` of the stack, in the servers file's shape.

    ``parameters`` is the stack's merged ``parameter_defaults``.
    """
    hostnames = (outputs or {}).get('RoleNetHostnameMap') or {}
    ips = (outputs or {}).get('RoleNetIpMap') or {}
    node_ports = (parameters or {}).get('NodePortMap') or {}
    result = {}
    for role in sorted(hostnames):
        fqdns = (hostnames[role] or {}).get(CTLPLANE) or []
        role_ips = ips.get(role) or {}
        ctl_ips = role_ips.get(CTLPLANE) or []
        hosts = []
        for index, fqdn in enumerate(fqdns):
            if not fqdn:
                continue
            name = inventory.short_name(fqdn)
            ip = _ip(ctl_ips[index]) if index < len(ctl_ips) else None
            if ip is None:
                raise exceptions.AdoptionError(
                    'Stack %s output RoleNetIpMap has no ctlplane address '
                    'for %s (role %s): its servers cannot be listed' % (
                        stack, name, role))
            host = {'hostname': name, 'ctlplane_ip': ip}
            cidr = _subnet_of(name, ip, parameters or {})
            if cidr:
                host['ctlplane_cidr'] = cidr
            nets = _networks(role_ips, index, node_ports.get(name))
            if nets:
                host['networks'] = nets
            hosts.append(host)
        result[role] = hosts
    if not any(result.values()):
        raise exceptions.AdoptionError(
            'Stack %s has no servers in its RoleNetHostnameMap output: it is '
            'not an overcloud stack, or it has no nodes' % stack)
    return result
