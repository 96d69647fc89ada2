"""The OpenShift side of TripleO's networks: a NodeNetworkConfigurationPolicy
per worker, a NetworkAttachmentDefinition per network, MetalLB's
IPAddressPool and L2Advertisement.

As data-plane-adoption writes them (``proc_configuring-openshift-worker-
nodes.adoc``, ``proc_configuring-networking-for-control-plane-services.adoc``)
and openstack-k8s-operators/architecture's ``lib/nncp-single-nic``,
``lib/networking/nad``, ``lib/networking/metallb``: each isolated network
is a VLAN of the worker's NIC, named after the network (so the
attachment's ``macvlan`` master is the same on every worker), with the
worker's address and TripleO's VLAN and MTU; an untagged network (the
control plane) is the NIC itself. The attachment's whereabouts IPAM takes
the pods' range, the address pool the load balancers'.
"""

import json
from typing import Any, Sequence, TypedDict

from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso import steps

NNCP_API = 'nmstate.io/v1'
NAD_API = 'k8s.cni.cncf.io/v1'
METALLB_API = 'metallb.io/v1beta1'
METALLB_NAMESPACE = 'metallb-system'
CNI_VERSION = '0.3.1'
#: A Linux interface name holds at most 15 characters.
IFNAME_MAX = 15


#: The OpenShift workers: ``(node, NIC)`` each.
Workers = Sequence[tuple[str, str]]


class OpenShiftObject(TypedDict):
    """A NodeNetworkConfigurationPolicy, NetworkAttachmentDefinition,
    IPAddressPool or L2Advertisement (``spec``: its kind's fields)."""

    apiVersion: str
    kind: str
    metadata: steps.Metadata
    spec: dict[str, Any]


class Ipam(TypedDict):
    type: str
    range: str
    range_start: str
    range_end: str


class NadConfig(TypedDict):
    """The CNI configuration a NetworkAttachmentDefinition carries."""

    cniVersion: str
    name: str
    type: str
    master: str
    ipam: Ipam


def vlan_interface(split: addressing.Split) -> str:
    """The worker's interface of ``split``'s VLAN: the network's name, or
    ``vlan<id>`` when the name is no interface name."""
    name = split.name
    if len(name) <= IFNAME_MAX and name.replace('-', '').isalnum():
        return name
    return 'vlan%d' % split.subnet.vlan  # type: ignore[str-format]


def master(split: addressing.Split, workers: Workers) -> str | None:
    """The interface the network's pods and load balancers use on every
    worker, or None when there is none (an untagged network on workers
    whose NICs differ)."""
    if split.subnet.vlan is not None:
        return vlan_interface(split)
    interfaces = {iface for _, iface in workers}
    return interfaces.pop() if len(interfaces) == 1 else None


def _object(api: str, kind: str, name: str, spec: dict[str, Any],
            namespace: str | None = None,
            labels: dict[str, str] | None = None) -> OpenShiftObject:
    metadata: steps.Metadata = {'name': name}
    if namespace:
        metadata['namespace'] = namespace
    if labels:
        metadata['labels'] = labels
    return {'apiVersion': api, 'kind': kind, 'metadata': metadata,
            'spec': spec}


def policy_name(node: str, iface: str) -> str:
    return '%s-%s' % (iface.lower().replace('_', '-').replace('.', '-'),
                      node)


def nncp(node: str, iface: str,
         splits: Sequence[addressing.Split]) -> OpenShiftObject:
    """The NodeNetworkConfigurationPolicy of one worker: a VLAN of
    ``iface`` per network where the worker has an address."""
    interfaces: list[dict[str, Any]] = []
    mtus = []
    for split in splits:
        ip = split.workers.get(node)
        if ip is None:
            continue
        mtu = int(split.network.mtu)
        mtus.append(mtu)
        interfaces.append({
            'description': '%s vlan interface' % split.name,
            'name': vlan_interface(split),
            'type': 'vlan',
            'state': 'up',
            'mtu': mtu,
            'vlan': {'base-iface': iface,
                     'id': int(split.subnet.vlan)},  # type: ignore[arg-type]
            'ipv4' if ip.version == 4 else 'ipv6': {
                'enabled': True, 'dhcp': False,
                'address': [{'ip': str(ip),
                             'prefix-length': split.subnet.cidr.prefixlen}]},
            'ipv6' if ip.version == 4 else 'ipv4': {'enabled': False},
        })
    if mtus and max(mtus) > 1500:
        interfaces.insert(0, {'description': 'the VLANs\' NIC',
                              'name': iface, 'type': 'ethernet',
                              'state': 'up', 'mtu': max(mtus)})
    return _object(NNCP_API, 'NodeNetworkConfigurationPolicy',
                   policy_name(node, iface), {
                       'desiredState': {'interfaces': interfaces},
                       'nodeSelector': {
                           'kubernetes.io/hostname': node,
                           'node-role.kubernetes.io/worker': ''}})


def nad_config(split: addressing.Split, master_iface: str) -> NadConfig:
    """The CNI configuration (a dict) of the network's attachment."""
    # documents() makes an attachment of a split with a pods' range only.
    assert split.pods is not None
    ipam: Ipam = {'type': 'whereabouts', 'range': str(split.subnet.cidr),
                  'range_start': str(split.pods[0]),
                  'range_end': str(split.pods[1])}
    return {'cniVersion': CNI_VERSION, 'name': split.name,
            'type': 'macvlan', 'master': master_iface, 'ipam': ipam}


def nad(split: addressing.Split, master_iface: str) -> OpenShiftObject:
    config = json.dumps(nad_config(split, master_iface), indent=2) + '\n'
    return _object(NAD_API, 'NetworkAttachmentDefinition', split.name,
                   {'config': config}, labels={'osp/net': split.name})


def pool(split: addressing.Split) -> OpenShiftObject:
    assert split.loadbalancers is not None
    first, last = split.loadbalancers
    return _object(METALLB_API, 'IPAddressPool', split.name,
                   {'addresses': ['%s-%s' % (first, last)],
                    'autoAssign': True}, namespace=METALLB_NAMESPACE)


def advertisement(split: addressing.Split,
                  master_iface: str) -> OpenShiftObject:
    return _object(METALLB_API, 'L2Advertisement', split.name,
                   {'ipAddressPools': [split.name],
                    'interfaces': [master_iface]},
                   namespace=METALLB_NAMESPACE)


def documents(splits: Sequence[addressing.Split], workers: Workers
              ) -> tuple[list[OpenShiftObject], list[OpenShiftObject],
                         list[OpenShiftObject], dict[str, str]]:
    """``(policies, attachments, metallb)``: the NNCPs (one per worker),
    the NADs and the pools with their advertisements, and the networks
    left without an attachment ({name: why})."""
    policies = [nncp(node, iface, splits) for node, iface in workers]
    attachments: list[OpenShiftObject] = []
    metallb: list[OpenShiftObject] = []
    missing: dict[str, str] = {}
    for split in splits:
        if not split.attached or split.pods is None:
            continue
        iface = master(split, workers)
        if iface is None:
            missing[split.name] = (
                'untagged, and the workers\' NICs differ (%s): give every '
                '--ocp-worker the NIC of this network' % ', '.join(
                    sorted({i for _, i in workers})) if workers else
                'untagged: give --ocp-worker NODE=NIC for the NIC the '
                'workers reach it on')
            continue
        attachments.append(nad(split, iface))
        if split.loadbalancers:
            metallb += [pool(split), advertisement(split, iface)]
    return policies, attachments, metallb, missing
