"""The rules only RHOSO's admission webhooks and IPAM enforce, in Python.

Read from openstack-operator (``api[s]/dataplane/v1beta1/
openstackdataplanenodeset_webhook.go``, ``..._types.go``
``duplicateNodeCheck``) and infra-operator (``apis/network/v1beta1/
netconfig_webhook.go``, ``internal/ipam``) at the bundled versions:

* a NodeSet's name is an RFC 1123 hostname, its extraMounts volume names
  DNS labels; from 18.0-fr5 every pre-provisioned node has an IP address
  as ``ansibleHost``; no hostName or ansibleHost is used twice;
* NetConfig network names, dns domains (which share one namespace) and
  subnet CIDRs are unique, dns domains have the webhook's form, a
  subnet's gateway, ranges, excluded addresses and next hops are
  addresses of the subnet's family inside its CIDR;
* a node's network names a NetConfig network and subnet, its fixedIP is
  inside that subnet, never excluded and never another node's;
* a Deployment names NodeSets of the export, and every service named is
  the operator's own or defined in the export.

``documents`` are ``(where, document)`` pairs (``where`` from
:func:`~.problems.describe`).
"""

import ipaddress
import re

from tripleo_ephemeral.rhoso import problems as problems_mod

NODESET = 'OpenStackDataPlaneNodeSet'
DEPLOYMENT = 'OpenStackDataPlaneDeployment'
SERVICE = 'OpenStackDataPlaneService'
NETCONFIG = 'NetConfig'
#: go-playground validator's hostname_rfc1123.
HOSTNAME_RFC1123 = re.compile(
    r'^([a-zA-Z0-9]{1}[a-zA-Z0-9-]{0,62})(\.[a-zA-Z0-9]{1}[a-zA-Z0-9-]'
    r'{0,62})*?$')
DNS1123_LABEL = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
#: infra-operator's validateDNSDomain.
DNS_DOMAIN = re.compile(
    r'^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$')
#: The first version whose webhook wants an IP as ansibleHost.
ANSIBLE_HOST_IP_FROM = (18, 0, 5)


def _rule(rule):
    def make(where, path, message, fix):
        return problems_mod.Problem(where, path, message, fix, rule)
    return make


_webhook = _rule('webhook')
_ipam = _rule('ipam')


def _version(version):
    numbers = re.findall(r'\d+', version)
    return tuple(int(n) for n in numbers[:3]) if len(numbers) >= 3 else \
        (999,)


def _of(documents, kind):
    return [(w, d) for w, d in documents
            if isinstance(d, dict) and d.get('kind') == kind]


def _name(document):
    return str((document.get('metadata') or {}).get('name') or '')


def _ip(value):
    try:
        return ipaddress.ip_address(str(value))
    except ValueError:
        return None


def _nodes(document):
    nodes = (document.get('spec') or {}).get('nodes') or {}
    return nodes.items() if isinstance(nodes, dict) else []


def nodeset_rules(documents, version):
    found = []
    seen = {}
    for where, document in _of(documents, NODESET):
        name = _name(document)
        if not HOSTNAME_RFC1123.match(name):
            found.append(_webhook(where, 'metadata.name', 'name %r is not an '
                                  'RFC 1123 hostname' % name,
                                  'use letters, digits, "-" and "."'))
        spec = document.get('spec') or {}
        mounts = (spec.get('nodeTemplate') or {}).get('extraMounts') or []
        for index, mount in enumerate(mounts):
            for vindex, volume in enumerate(mount.get('volumes') or []):
                if not DNS1123_LABEL.match(str(volume.get('name'))):
                    found.append(_webhook(
                        where, 'spec.nodeTemplate.extraMounts[%d].volumes'
                        '[%d].name' % (index, vindex), 'volume name %r is '
                        'not a DNS label' % volume.get('name'),
                        'use lower-case letters, digits and "-"'))
        for key, node in _nodes(document):
            path = 'spec.nodes.%s' % key
            host = ((node or {}).get('ansible') or {}).get('ansibleHost')
            if spec.get('preProvisioned') and \
                    _version(version) >= ANSIBLE_HOST_IP_FROM and \
                    _ip(host) is None:
                found.append(_webhook(
                    where, path + '.ansible.ansibleHost', 'ansibleHost %r is '
                    'not an IP address, which RHOSO %s requires for '
                    'pre-provisioned nodes' % (host, version),
                    'set the node\'s ctlplane address'))
            names = [(v, f) for v, f in (
                ((node or {}).get('hostName') or key, 'hostName'),
                (host, 'ansible.ansibleHost')) if v]
            clash = [(v, f) for v, f in names if v in seen]
            for value, field in clash:
                found.append(_webhook(
                    where, '%s.%s' % (path, field), 'node %s already '
                    'exists (%s)' % (value, seen[value]),
                    'give each node its own hostName and ansibleHost'))
            if not clash:
                for value, _ in names:
                    seen[value] = '%s %s' % (where, path)
    return found


def _address(where, path, value, cidr):
    ip = _ip(value)
    if ip is None:
        return [_webhook(where, path, '%r is not an IP address' % (value,),
                         'write an address of %s' % cidr)]
    if ip.version != cidr.version or ip not in cidr:
        return [_webhook(where, path, '%s is not inside %s' % (ip, cidr),
                         'use an address of %s' % cidr)]
    return []


def _subnet_rules(where, path, subnet, cidrs):
    found = []
    try:
        cidr = ipaddress.ip_network(str(subnet.get('cidr')), strict=False)
    except ValueError:
        return [_webhook(where, path + '.cidr', 'cidr %r is not a CIDR'
                         % subnet.get('cidr'), 'write one (192.0.2.0/24)')]
    if str(cidr) in cidrs:
        found.append(_webhook(where, path + '.cidr', 'cidr %s is already '
                              'used by %s' % (cidr, cidrs[str(cidr)]),
                              'give each subnet its own CIDR'))
    cidrs.setdefault(str(cidr), path)
    if subnet.get('gateway'):
        found += _address(where, path + '.gateway', subnet['gateway'], cidr)
    for index, pool in enumerate(subnet.get('allocationRanges') or []):
        here = '%s.allocationRanges[%d]' % (path, index)
        for end in ('start', 'end'):
            found += _address(where, '%s.%s' % (here, end), pool.get(end),
                              cidr)
        start, last = _ip(pool.get('start')), _ip(pool.get('end'))
        if start and last and start.version == last.version and start > last:
            found.append(_webhook(where, here, 'start %s is after end %s'
                                  % (start, last), 'swap them'))
    for index, value in enumerate(subnet.get('excludeAddresses') or []):
        found += _address(where, '%s.excludeAddresses[%d]' % (path, index),
                          value, cidr)
    for index, route in enumerate(subnet.get('routes') or []):
        here = '%s.routes[%d]' % (path, index)
        try:
            ipaddress.ip_network(str(route.get('destination')), strict=False)
        except ValueError:
            found.append(_webhook(where, here + '.destination', '%r is not '
                                  'a CIDR' % route.get('destination'),
                                  'write one'))
        found += _address(where, here + '.nexthop', route.get('nexthop'),
                          cidr)
    return found


def netconfig_rules(documents):
    found = []
    netconfigs = _of(documents, NETCONFIG)
    if len(netconfigs) > 1:
        found.append(_webhook(netconfigs[1][0], 'metadata.name', 'there is '
                              'already NetConfig %s; there can only be one'
                              % _name(netconfigs[0][1]), 'keep one'))
    for where, document in netconfigs:
        names, cidrs = {}, {}
        networks = (document.get('spec') or {}).get('networks') or []
        for index, network in enumerate(networks):
            path = 'spec.networks[%d]' % index
            for field, value in (('name', network.get('name')),
                                 ('dnsDomain', network.get('dnsDomain'))):
                if value in names:
                    found.append(_webhook(
                        where, '%s.%s' % (path, field), '%s %r is already '
                        'used at %s' % (field, value, names[value]),
                        'give each network its own name and dns domain'))
                names.setdefault(value, '%s.%s' % (path, field))
            domain = str(network.get('dnsDomain') or '')
            if not DNS_DOMAIN.match(domain):
                found.append(_webhook(
                    where, path + '.dnsDomain', 'dnsDomain %r is not a dns '
                    'domain the webhook takes' % domain,
                    'write labels separated by dots, ending in letters, '
                    'without a trailing dot (internalapi.example.com)'))
            subnet_names = set()
            for sindex, subnet in enumerate(network.get('subnets') or []):
                here = '%s.subnets[%d]' % (path, sindex)
                if subnet.get('name') in subnet_names:
                    found.append(_webhook(where, here + '.name', 'subnet %s '
                                          'is defined twice' % subnet['name'],
                                          'give each subnet its own name'))
                subnet_names.add(subnet.get('name'))
                found += _subnet_rules(where, here, subnet, cidrs)
    return found


def _subnets(documents):
    """``{(network, subnet): (cidr, excluded addresses)}`` of the
    NetConfig."""
    result = {}
    for _, document in _of(documents, NETCONFIG):
        for network in (document.get('spec') or {}).get('networks') or []:
            for subnet in network.get('subnets') or []:
                try:
                    cidr = ipaddress.ip_network(str(subnet.get('cidr')),
                                                strict=False)
                except ValueError:
                    continue
                excluded = {_ip(a) for a in subnet.get('excludeAddresses')
                            or []}
                result[(network.get('name'), subnet.get('name'))] = (
                    cidr, excluded)
    return result


def ipam_rules(documents):
    subnets = _subnets(documents)
    networks = sorted({net for net, _ in subnets})
    found = []
    taken = {}
    for where, document in _of(documents, NODESET):
        for key, node in _nodes(document):
            for index, wanted in enumerate((node or {}).get('networks') or []):
                path = 'spec.nodes.%s.networks[%d]' % (key, index)
                pair = (wanted.get('name'), wanted.get('subnetName'))
                if pair[0] not in networks:
                    found.append(_ipam(where, path + '.name', 'network %s is '
                                       'not in the NetConfig' % pair[0],
                                       'use one of %s' % ', '.join(networks)))
                    continue
                if pair not in subnets:
                    found.append(_ipam(where, path + '.subnetName', 'network '
                                       '%s has no subnet %s' % pair,
                                       'use one of %s' % ', '.join(
                                           s for n, s in subnets
                                           if n == pair[0])))
                    continue
                if not wanted.get('fixedIP'):
                    continue
                cidr, excluded = subnets[pair]
                ip = _ip(wanted['fixedIP'])
                if ip is None or ip not in cidr:
                    found.append(_ipam(where, path + '.fixedIP', '%s is not '
                                       'inside subnet %s (%s)' % (
                                           wanted['fixedIP'], pair[1], cidr),
                                       'use the node\'s address on %s'
                                       % pair[0]))
                elif ip in excluded:
                    found.append(_ipam(where, path + '.fixedIP', '%s is in '
                                       'the excludeAddresses of subnet %s' % (
                                           ip, pair[1]),
                                       'remove it from excludeAddresses or '
                                       'use another address'))
                elif (pair[0], ip) in taken:
                    found.append(_ipam(where, path + '.fixedIP', '%s on %s is '
                                       'already %s' % (ip, pair[0], taken[
                                           (pair[0], ip)]),
                                       'give each node its own address'))
                else:
                    taken[(pair[0], ip)] = 'node %s' % key
    return found


def deployment_rules(documents, default_services):
    nodesets = {_name(d): d for _, d in _of(documents, NODESET)}
    services = set(default_services) | {
        _name(d) for _, d in _of(documents, SERVICE)}
    found = []
    for where, document in _of(documents, DEPLOYMENT):
        spec = document.get('spec') or {}
        for index, name in enumerate(spec.get('nodeSets') or []):
            if name not in nodesets:
                found.append(_webhook(
                    where, 'spec.nodeSets[%d]' % index, 'NodeSet %s is not '
                    'in the export' % name, 'use one of %s' % ', '.join(
                        sorted(nodesets)) if nodesets else 'add its NodeSet'))
        for index, name in enumerate(spec.get('servicesOverride') or []):
            if name not in services:
                found.append(_webhook(
                    where, 'spec.servicesOverride[%d]' % index, 'service %s '
                    'is neither the operator\'s nor defined in the export'
                    % name, 'add its OpenStackDataPlaneService'))
    for where, document in _of(documents, NODESET):
        for index, name in enumerate((document.get('spec') or {}).get(
                'services') or []):
            if name not in services:
                found.append(_webhook(
                    where, 'spec.services[%d]' % index, 'service %s is '
                    'neither the operator\'s nor defined in the export'
                    % name, 'add its OpenStackDataPlaneService'))
    return found


def check(documents, bundle):
    """Every webhook and IPAM rule over all ``documents``."""
    return (nodeset_rules(documents, bundle.version) +
            netconfig_rules(documents) + ipam_rules(documents) +
            deployment_rules(documents, bundle.default_services))
