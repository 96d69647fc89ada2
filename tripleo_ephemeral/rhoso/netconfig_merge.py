"""TripleO's networks merged into the operator's NetConfig, never replacing it.

infra-operator's webhook allows one NetConfig per namespace and, once
IPSets exist, refuses an update that drops a network or subnet or changes a
subnet's CIDR or VLAN. So the export reads the operator's NetConfig
(``--netconfig``: a NetConfig, or the List of ``oc get netconfig -o
yaml``, which may be empty) and writes it back with TripleO's parts added:

* a TripleO network the operator has (same name) keeps the operator's dns
  domain and MTU; a TripleO subnet with the CIDR of one of theirs keeps
  their name, routes and excluded addresses, and must have TripleO's VLAN
  and gateway; their allocation ranges stay theirs (the dataplane part),
  with TripleO's addresses cut out, as the procedure does it
  (proc_configuring-data-plane-nodes.adoc);
* a TripleO subnet they lack is added as the next free ``subnetN``, a
  network they lack whole, as long as no CIDR, name or dns domain clashes
  with theirs;
* everything else of theirs is kept as it was, with its
  ``resourceVersion``: applying the merged NetConfig fails, rather than
  overwrites, when theirs changed after it was read.
"""

import copy
import ipaddress

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import netplan

LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'
_KEPT_METADATA = ('name', 'namespace', 'resourceVersion', 'labels',
                  'annotations')


def _fail(path, message):
    raise exceptions.RhosoExportError('--netconfig %s: %s' % (path, message))


def read(path):
    """The operator's NetConfig of file ``path``, with only what a client
    sends back of its metadata; None when it is an empty List (the
    namespace has none)."""
    data = yamlfile.load(path, 'NetConfig file', exceptions.RhosoExportError)
    if isinstance(data, dict) and data.get('kind') == 'List':
        items = [i for i in data.get('items') or []
                 if isinstance(i, dict) and i.get('kind') == netconfig.KIND]
        if len(items) > 1:
            _fail(path, 'it holds %d NetConfigs, and a namespace has one at '
                  'most: give the one of the namespace you adopt into'
                  % len(items))
        data = items[0] if items else None
        if data is None:
            return None
    if not isinstance(data, dict) or data.get('kind') != netconfig.KIND:
        _fail(path, 'it is neither a NetConfig nor the List "oc get '
              'netconfig -o yaml" prints: give that')
    spec = data.get('spec')
    networks = spec.get('networks') if isinstance(spec, dict) else None
    if not isinstance(networks, list) or not all(
            isinstance(n, dict) and isinstance(n.get('subnets') or [], list)
            and all(isinstance(s, dict) for s in n.get('subnets') or [])
            for n in networks):
        _fail(path, 'its spec.networks is not a list of networks with '
              'subnets: give what "oc get netconfig -o yaml" prints')
    metadata = {k: v for k, v in (data.get('metadata') or {}).items()
                if k in _KEPT_METADATA}
    annotations = {k: v for k, v in (metadata.get('annotations') or {})
                   .items() if k != LAST_APPLIED}
    metadata.pop('annotations', None)
    if annotations:
        metadata['annotations'] = annotations
    return {'apiVersion': data.get('apiVersion') or netconfig.API_VERSION,
            'kind': netconfig.KIND, 'metadata': metadata,
            'spec': {'networks': copy.deepcopy(networks)}}


def _cidr(path, net, subnet):
    try:
        return ipaddress.ip_network(str(subnet.get('cidr')), strict=False)
    except ValueError:
        _fail(path, 'network %s subnet %s has no valid cidr (%r)' % (
            net.get('name'), subnet.get('name'), subnet.get('cidr')))


def _ranges(path, net, subnet):
    found = []
    for pool in subnet.get('allocationRanges') or []:
        try:
            found.append(netplan.Range.parse('%s-%s' % (
                pool.get('start'), pool.get('end'))))
        except (ValueError, AttributeError):
            _fail(path, 'network %s subnet %s has an allocation range that '
                  'is not one (%r)' % (net.get('name'), subnet.get('name'),
                                       pool))
    return found


def _check_vlan_gateway(path, net, theirs, subnet):
    vlan = theirs.get('vlan')
    if (vlan is None) != (subnet.vlan is None) or (
            vlan is not None and int(vlan) != int(subnet.vlan)):
        _fail(path, 'network %s subnet %s (%s) has VLAN %s where TripleO\'s '
              'nodes use %s: the adopted nodes keep theirs; correct the '
              'VLAN of your NetConfig (its webhook refuses changing it once '
              'IPSets exist)' % (net['name'], theirs.get('name'),
                                 subnet.cidr, vlan, subnet.vlan))
    gateway = theirs.get('gateway')
    if gateway and subnet.gateway and \
            ipaddress.ip_address(str(gateway)) != subnet.gateway:
        _fail(path, 'network %s subnet %s (%s) has gateway %s where '
              'TripleO\'s nodes use %s: correct one of them' % (
                  net['name'], theirs.get('name'), subnet.cidr, gateway,
                  subnet.gateway))


def match(networks, theirs, path):
    """Point ``networks`` (:class:`~.netconfig.Network`) at the operator's
    NetConfig ``theirs``: their subnet names, dns domains, MTUs, routes,
    excluded addresses and allocation ranges (``subnet.given_ranges``)
    where they have the subnet. RhosoExportError on a clash."""
    nets = theirs['spec']['networks']
    by_name = {n.get('name'): n for n in nets}
    cidrs = [(n, s, _cidr(path, n, s)) for n in nets
             for s in n.get('subnets') or []]
    taken = {n.get('name') for n in nets} | {n.get('dnsDomain')
                                             for n in nets}
    for network in networks:
        net = by_name.get(network.name)
        network.merged = 'merged' if net else 'added'
        if net is None and network.dns_domain in taken:
            _fail(path, 'its name or dns domain %s is TripleO\'s network '
                  '%s\'s dns domain, which the webhook refuses twice: give '
                  'the TripleO network the RHOSO name of yours with '
                  '--network-map %s=<name>' % (
                      network.dns_domain, network.lower, network.lower))
        if net is not None:
            network.domains = {net.get('dnsDomain')}
            network.mtu = net.get('mtu') or netconfig.DEFAULT_MTU
        names = {s.get('name') for s in (net or {}).get('subnets') or []}
        for subnet in network.subnets:
            subnet.given_ranges = None
            same = [(n, s) for n, s, c in cidrs if c == subnet.cidr]
            clash = [(n, s, c) for n, s, c in cidrs if c != subnet.cidr and
                     c.version == subnet.cidr.version and
                     c.overlaps(subnet.cidr)]
            if same and same[0][0] is not net:
                _fail(path, 'network %s has subnet %s (%s), which TripleO '
                      'uses as network %s: give that TripleO network the '
                      'name with --network-map %s=%s' % (
                          same[0][0].get('name'), same[0][1].get('name'),
                          subnet.cidr, network.lower, network.lower,
                          same[0][0].get('name')))
            if clash:
                _fail(path, 'network %s subnet %s (%s) overlaps TripleO\'s '
                      '%s subnet %s: one network\'s addresses cannot be two '
                      'subnets' % (clash[0][0].get('name'),
                                   clash[0][1].get('name'), clash[0][2],
                                   network.lower, subnet.cidr))
            if same:
                owner = same[0][1]
                _check_vlan_gateway(path, net, owner, subnet)
                subnet.name = owner.get('name')
                subnet.merged = 'merged'
                subnet.routes = list(owner.get('routes') or [])
                subnet.excluded = [ipaddress.ip_address(str(a)) for a in
                                   owner.get('excludeAddresses') or []]
                subnet.given_ranges = _ranges(path, net, owner)
                if owner.get('gateway') and not subnet.gateway:
                    subnet.their_gateway = ipaddress.ip_address(
                        str(owner['gateway']))
                continue
            index = 1
            while netconfig.subnet_name(index) in names:
                index += 1
            subnet.name = netconfig.subnet_name(index)
            subnet.merged = 'added'
            names.add(subnet.name)


def document(networks, theirs):
    """The operator's NetConfig with ``networks`` merged in."""
    result = copy.deepcopy(theirs)
    nets = result['spec']['networks']
    for network in networks:
        net = next((n for n in nets if n.get('name') == network.name), None)
        if net is None:
            nets.append(netconfig.network_entry(network))
            continue
        subnets = net.setdefault('subnets', [])
        for subnet in network.subnets:
            entry = netconfig.subnet_entry(subnet)
            index = next((i for i, s in enumerate(subnets)
                          if s.get('name') == subnet.name), None)
            if index is None:
                subnets.append(entry)
                continue
            merged = dict(subnets[index])
            merged['allocationRanges'] = entry['allocationRanges']
            if entry.get('excludeAddresses'):
                merged['excludeAddresses'] = entry['excludeAddresses']
            subnets[index] = merged
    return result
