"""The rules only RHOSO's admission webhooks and IPAM enforce, in Python.

Read from openstack-operator (``api[s]/dataplane/v1beta1/
openstackdataplanenodeset_webhook.go``, ``..._types.go``
``duplicateNodeCheck``) and infra-operator (``apis/network/v1beta1/
netconfig_webhook.go``, ``internal/ipam``) at the bundled versions:

* a NodeSet's name is an RFC 1123 hostname, its extraMounts volume names
  DNS labels; from 18.0-fr5 every pre-provisioned node has an IP address
  as ``ansibleHost``; no hostName or ansibleHost is used twice;
* the NetConfig's rules (:mod:`.webhooks_netconfig`);
* a node's network names a NetConfig network and subnet, its fixedIP is
  inside that subnet, never excluded and never another node's;
* a service runs a playbook, playbook contents or a role; a Deployment
  names NodeSets of the export, and every service named is the
  operator's own or defined in the export.

``documents`` are ``(where, document)`` pairs (``where`` from
:func:`~.problems.describe`).
"""

import ipaddress
import re

from tripleo_ephemeral.rhoso import rules
from tripleo_ephemeral.rhoso import webhooks_netconfig

NODESET = 'OpenStackDataPlaneNodeSet'
DEPLOYMENT = 'OpenStackDataPlaneDeployment'
SERVICE = 'OpenStackDataPlaneService'
NETCONFIG = 'NetConfig'
#: go-playground validator's hostname_rfc1123.
HOSTNAME_RFC1123 = re.compile(
    r'^([a-zA-Z0-9]{1}[a-zA-Z0-9-]{0,62})(\.[a-zA-Z0-9]{1}[a-zA-Z0-9-]'
    r'{0,62})*?$')
DNS1123_LABEL = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
DNS_DOMAIN = rules.DNS_DOMAIN
#: The first version whose webhook wants an IP as ansibleHost.
ANSIBLE_HOST_IP_FROM = (18, 0, 5)


_webhook = rules.webhook
_ipam = rules.maker('ipam')
of, name_of, ip = rules.of, rules.name_of, rules.ip


def _version(version):
    numbers = re.findall(r'\d+', version)
    return tuple(int(n) for n in numbers[:3]) if len(numbers) >= 3 else \
        (999,)


def _nodes(document):
    nodes = (document.get('spec') or {}).get('nodes') or {}
    return nodes.items() if isinstance(nodes, dict) else []


def nodeset_rules(documents, version):
    found = []
    seen = {}
    for where, document in of(documents, NODESET):
        name = name_of(document)
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
                    ip(host) is None:
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


def _subnets(documents):
    """``{(network, subnet): (cidr, excluded addresses)}`` of the
    NetConfig."""
    result = {}
    for _, document in of(documents, NETCONFIG):
        for network in (document.get('spec') or {}).get('networks') or []:
            for subnet in network.get('subnets') or []:
                try:
                    cidr = ipaddress.ip_network(str(subnet.get('cidr')),
                                                strict=False)
                except ValueError:
                    continue
                excluded = {ip(a) for a in subnet.get('excludeAddresses')
                            or []}
                result[(network.get('name'), subnet.get('name'))] = (
                    cidr, excluded)
    return result


def ipam_rules(documents):
    subnets = _subnets(documents)
    networks = sorted({net for net, _ in subnets})
    found = []
    taken = {}
    for where, document in of(documents, NODESET):
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
                fixed = ip(wanted['fixedIP'])
                if fixed is None or fixed not in cidr:
                    found.append(_ipam(where, path + '.fixedIP', '%s is not '
                                       'inside subnet %s (%s)' % (
                                           wanted['fixedIP'], pair[1], cidr),
                                       'use the node\'s address on %s'
                                       % pair[0]))
                elif fixed in excluded:
                    found.append(_ipam(where, path + '.fixedIP', '%s is in '
                                       'the excludeAddresses of subnet %s' % (
                                           fixed, pair[1]),
                                       'remove it from excludeAddresses or '
                                       'use another address'))
                elif (pair[0], fixed) in taken:
                    found.append(_ipam(where, path + '.fixedIP', '%s on %s is '
                                       'already %s' % (fixed, pair[0], taken[
                                           (pair[0], fixed)]),
                                       'give each node its own address'))
                else:
                    taken[(pair[0], fixed)] = 'node %s' % key
    return found


def service_rules(documents):
    """A service runs a playbook, playbook contents or a role."""
    found = []
    for where, document in of(documents, SERVICE):
        spec = document.get('spec') or {}
        runs = ('playbook', 'playbookContents', 'role')
        if not any(spec.get(k) for k in runs):
            found.append(_webhook(
                where, 'spec.playbook', 'playbook, playbookContents and role '
                'cannot be empty at the same time', 'name what it runs'))
    return found


def deployment_rules(documents, default_services):
    nodesets = {name_of(d): d for _, d in of(documents, NODESET)}
    services = set(default_services) | {
        name_of(d) for _, d in of(documents, SERVICE)}
    found = []
    for where, document in of(documents, DEPLOYMENT):
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
    for where, document in of(documents, NODESET):
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
            webhooks_netconfig.check(documents) + ipam_rules(documents) +
            service_rules(documents) +
            deployment_rules(documents, bundle.default_services))
