"""The variables EDPM's Ansible will have for a node, from the documents.

What openstack-operator's ``internal/dataplane/inventory.go``
(``GenerateNodeSetInventory``, ``populateInventoryFromIPAM``; the same in
18.0-fr2 and fr6) puts into a NodeSet's inventory, computed from the
NodeSet and the NetConfig alone: the node template's ``ansibleVars`` as
group variables, the node's own as host variables, ``nodeset_networks``
and ``networks_lower`` from the networks, and per network reservation
``<net>_ip``, ``_cidr`` (a prefix length), ``_vlan_id``, ``_mtu``,
``_gateway_ip`` and ``_host_routes``, then ``canonical_hostname`` and
``dns_search_domains``. ``<net>`` is the network's ``serviceNetwork``
(its lower-cased name unless set). What only the cluster knows (the DNS
servers it gives the control plane, a reservation without ``fixedIP``)
is :data:`LIVE`, which refuses to be rendered.
"""

import ipaddress

CTLPLANE = 'ctlplane'


class LiveValueError(Exception):
    """A template used a value only the cluster knows."""


class _Live:
    def __init__(self, what):
        self.what = what

    def _refuse(self, *args):
        raise LiveValueError(self.what)

    __str__ = __repr__ = __iter__ = __len__ = __getitem__ = _refuse

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__


def live(what):
    """A value known only on the cluster (``what`` says which)."""
    return _Live(what)


def service_networks(netconfig):
    """``lower-cased network name -> serviceNetwork`` (the NetConfig
    webhook's default: the lower-cased name)."""
    result = {}
    for network in (netconfig.get('spec') or {}).get('networks') or []:
        name = str(network.get('name'))
        result[name.lower()] = network.get('serviceNetwork') or name.lower()
    return result


def _network_vars(networks, servicenets):
    names, lower = [], {}
    for network in networks or []:
        name = str(network.get('name'))
        if servicenets.get(name.lower(), name.lower()) == CTLPLANE:
            continue
        names.append(name)
        lower[name] = servicenets.get(name.lower(), name.lower())
    return {'nodeset_networks': names, 'networks_lower': lower,
            'network_servicenet_map': dict(lower)}


def _reservation(netconfig, wanted):
    for network in (netconfig.get('spec') or {}).get('networks') or []:
        if network.get('name') != wanted.get('name'):
            continue
        for subnet in network.get('subnets') or []:
            if subnet.get('name') == wanted.get('subnetName'):
                return network, subnet
    return None, None


def node_vars(nodeset, node_name, netconfig):
    """The variables of node ``node_name`` of ``nodeset`` (a NodeSet
    document) as EDPM's inventory gives them, host over group."""
    spec = nodeset.get('spec') or {}
    template = spec.get('nodeTemplate') or {}
    node = (spec.get('nodes') or {})[node_name]
    servicenets = service_networks(netconfig)
    merged = dict((template.get('ansible') or {}).get('ansibleVars') or {})
    if (template.get('ansible') or {}).get('ansibleUser'):
        merged['ansible_user'] = template['ansible']['ansibleUser']
    if template.get('networks'):
        merged.update(_network_vars(template['networks'], servicenets))
    merged['edpm_nodeset_name'] = (nodeset.get('metadata') or {}).get('name')
    merged['edpm_tls_certs_enabled'] = bool(spec.get('tlsEnabled'))
    merged['edpm_services'] = list(spec.get('services') or [])
    host_name = node.get('hostName') or node_name
    ansible = node.get('ansible') or {}
    merged.update(ansible.get('ansibleVars') or {})
    merged['ansible_host'] = ansible.get('ansibleHost') or host_name
    if ansible.get('ansibleUser'):
        merged['ansible_user'] = ansible['ansibleUser']
    networks = node.get('networks') or template.get('networks') or []
    if node.get('networks'):
        merged.update(_network_vars(node['networks'], servicenets))
    domains = []
    for wanted in networks:
        network, subnet = _reservation(netconfig, wanted)
        if subnet is None:
            continue
        entry = servicenets.get(str(network['name']).lower())
        cidr = ipaddress.ip_network(subnet['cidr'], strict=False)
        merged[entry + '_ip'] = wanted.get('fixedIP') or live(
            'the address IPAM gives %s on %s' % (host_name, network['name']))
        merged[entry + '_cidr'] = cidr.prefixlen
        if subnet.get('vlan') is not None:
            merged[entry + '_vlan_id'] = subnet['vlan']
        merged[entry + '_mtu'] = network.get('mtu', 1500)
        merged[entry + '_gateway_ip'] = subnet.get('gateway')
        merged[entry + '_host_routes'] = list(subnet.get('routes') or [])
        dns_domain = subnet.get('dnsDomain') or network.get('dnsDomain')
        if entry == CTLPLANE:
            merged[entry + '_dns_nameservers'] = live(
                'the DNS servers the cluster gives the control plane')
            if '.' in host_name:
                merged['canonical_hostname'] = host_name
                domain = host_name.split('.', 1)[1]
                if domain != dns_domain:
                    domains.append(domain)
            else:
                merged['canonical_hostname'] = '%s.%s' % (host_name,
                                                          dns_domain)
        domains.append(dns_domain)
    merged['dns_search_domains'] = domains
    return merged
