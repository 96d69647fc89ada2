"""One OpenStackDataPlaneNodeSet per group of hosts (:mod:`.plan`).

Per node: ``hostName`` is TripleO's canonical FQDN (Nova's ``host`` and
OVN's chassis name), ``ansibleHost`` the ctlplane address, and every
network of its role with the node's current address as ``fixedIP``, in
the order TripleO's NIC template loops over them (so EDPM's
``nodeset_networks`` is that order). The node template has the user
TripleO's Ansible logged in as, the key Secret, the procedure's ``env``,
services and variables; an Ansible variable whose value is the same on
every node of the NodeSet is the node template's, one that differs (the
roles of one cell with their own NIC templates, tuned profiles...) is set
on each node (:func:`place`).
"""

from typing import Any, Iterable, Mapping, TypedDict

from tripleo_ephemeral.rhoso import ceph
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import plan as plan_mod
from tripleo_ephemeral.rhoso import procedure_vars
from tripleo_ephemeral.rhoso import services as services_mod
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso import steps

API_VERSION = 'dataplane.openstack.org/v1beta1'
KIND = 'OpenStackDataPlaneNodeSet'
DEFAULT_ROUTE = {'ControlPlane': 'ctlplane'}


class _NodeNetwork(TypedDict):
    name: str
    subnetName: str
    fixedIP: str


class NodeNetwork(_NodeNetwork, total=False):
    """A network of a node, with its address."""

    defaultRoute: bool


class NodeAnsible(TypedDict, total=False):
    """A node's own Ansible settings."""

    ansibleHost: str
    ansibleUser: str
    ansibleVars: dict[str, Any]


class Node(TypedDict):
    hostName: str
    ansible: NodeAnsible
    networks: list[NodeNetwork]


class _TemplateAnsible(TypedDict):
    ansibleUser: str | None
    ansibleVars: dict[str, Any]


class TemplateAnsible(_TemplateAnsible, total=False):
    """The node template's Ansible settings."""

    ansibleVarsFrom: list[dict[str, Any]]


class _NodeTemplate(TypedDict):
    ansibleSSHPrivateKeySecret: str
    ansible: TemplateAnsible


class NodeTemplate(_NodeTemplate, total=False):
    """What every node of the NodeSet shares."""

    extraMounts: list[dict[str, Any]]


class EnvVar(TypedDict):
    name: str
    value: str


class NodeSetSpec(TypedDict):
    tlsEnabled: bool
    preProvisioned: bool
    networkAttachments: list[str]
    services: list[str]
    env: list[EnvVar]
    nodeTemplate: NodeTemplate
    nodes: dict[str, Node]


class NodeSet(TypedDict):
    """The OpenStackDataPlaneNodeSet document."""

    apiVersion: str
    kind: str
    metadata: steps.Metadata
    spec: NodeSetSpec


def default_route_networks(deployment: source.Deployment, role: source.Role,
                           choices: plan_mod.Choices) -> set[str]:
    names = role.group_vars.get('default_route_networks') or ['ControlPlane']
    result = set()
    for name in names:
        if name in DEFAULT_ROUTE:
            result.add(DEFAULT_ROUTE[name])
            continue
        network = deployment.network_by_name(name)
        if network:
            result.add(choices.rhoso_network(network['name_lower']))
    return result


def node_networks(deployment: source.Deployment, host: source.Host,
                  networks: Iterable[netconfig.Network],
                  choices: plan_mod.Choices) -> list[NodeNetwork]:
    """The node's networks: ctlplane, then the role's in TripleO's order,
    each with its subnet and the node's address."""
    by_lower: dict[str | None, netconfig.Network] = {
        n.lower: n for n in networks}
    role = deployment.roles[host.role]
    defaults = default_route_networks(deployment, role, choices)
    lowers: list[str | None] = ['ctlplane'] + [
        (deployment.network_by_name(name) or {}).get('name_lower')
        for name in role.networks]
    result = []
    for lower in lowers:
        network = by_lower.get(lower)
        ip = host.ctlplane_ip if lower == 'ctlplane' else host.ip(lower)
        if network is None or not ip:
            continue
        # netconfig.networks put every host's address in a subnet.
        subnet = network.subnet_of(ip)
        assert subnet is not None
        entry: NodeNetwork = {'name': network.name,
                              'subnetName': subnet.name,
                              'fixedIP': str(ip)}
        if network.name in defaults:
            entry['defaultRoute'] = True
        result.append(entry)
    return result


def document(deployment: source.Deployment, group: plan_mod.Group,
             networks: Iterable[netconfig.Network],
             choices: plan_mod.Choices) -> NodeSet:
    """The NodeSet of ``group`` without its Ansible variables (see
    :func:`place`)."""
    users = [r.ssh_user for r in group.roles if r.ssh_user]
    ssh_user = users[0] if users else None
    nodes: dict[str, Node] = {}
    for host in group.hosts:
        node: Node = {
            'hostName': host.canonical_hostname,
            'ansible': {'ansibleHost': str(host.ctlplane_ip)},
            'networks': node_networks(deployment, host, networks, choices)}
        user = host.vars.get('ansible_ssh_user') or \
            deployment.roles[host.role].ssh_user
        if user and user != ssh_user:
            node['ansible']['ansibleUser'] = user
        nodes[host.name] = node
    ansible: TemplateAnsible = {'ansibleUser': ssh_user, 'ansibleVars': {}}
    vars_from = procedure_vars.vars_from(choices.redhat)
    if vars_from:
        ansible['ansibleVarsFrom'] = vars_from
    template: NodeTemplate = {
        'ansibleSSHPrivateKeySecret': choices.ssh_key_secret,
        'ansible': ansible}
    if services_mod.CEPH in group.services:
        template['extraMounts'] = ceph.EXTRA_MOUNTS
    return {
        'apiVersion': API_VERSION, 'kind': KIND,
        'metadata': {'name': group.name},
        'spec': {
            'tlsEnabled': bool(deployment.global_vars.get(
                'enable_internal_tls')),
            'preProvisioned': True,
            'networkAttachments': ['ctlplane'],
            'services': list(group.services),
            'env': [EnvVar(name=e['name'], value=e['value'])
                    for e in procedure_vars.ENV[group.kind]],
            'nodeTemplate': template,
            'nodes': nodes,
        },
    }


_MISSING = object()


def place(document: NodeSet,
          per_host: Mapping[str, Mapping[str, Any]]) -> None:
    """Set the Ansible variables of ``per_host`` (node -> {name: value})
    in ``document``: the node template's when every node has the same
    value, else each node's own; replaces what was there."""
    spec = document['spec']
    template = spec['nodeTemplate']['ansible']
    template['ansibleVars'] = {}
    for node in spec['nodes'].values():
        node.get('ansible', {}).pop('ansibleVars', None)
    names: list[str] = []
    for given in per_host.values():
        names += [n for n in given if n not in names]
    for name in names:
        values = [per_host[h].get(name, _MISSING) for h in per_host]
        if all(v is not _MISSING and v == values[0] for v in values):
            template['ansibleVars'][name] = values[0]
            continue
        for host, value in zip(per_host, values):
            if value is not _MISSING:
                spec['nodes'][host].setdefault('ansible', {}).setdefault(
                    'ansibleVars', {})[name] = value
