"""An export checked against the work dir it should describe.

The quiet mistakes of a hand-written export, each a :class:`Problem`: a
node whose ``hostName`` is not TripleO's canonical FQDN (Nova and OVN see
a new host), whose ``ansibleHost`` is not its ctlplane address, a network
of its role left out or without the node's address as ``fixedIP`` (IPAM
gives a new one and os-net-config re-applies the network), nmstate left
on, a tuned profile or kernel args the pre-adoption validation would
refuse, a NetConfig subnet that is not TripleO's, a compute host in no
NodeSet; and the NIC template rendered on both sides for every node
(:func:`nic_proofs`).
"""

import collections

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import edpm_inventory
from tripleo_ephemeral.rhoso import nic
from tripleo_ephemeral.rhoso import nic_files
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import problems as problems_mod

NODESET = 'OpenStackDataPlaneNodeSet'
NETCONFIG = 'NetConfig'
TEMPLATE_VAR = 'edpm_network_config_template'
#: (host, NodeSet, result): ``result`` None when both sides render the same
#: network_config, else why not.
Proof = collections.namedtuple('Proof',
                               'host nodeset where role template result')


def _problem(where, path, message, fix):
    return problems_mod.Problem(where, path, message, fix, 'work dir')


def _of(documents, kind):
    return [(w, d) for w, d in documents
            if isinstance(d, dict) and d.get('kind') == kind]


def _host(deployment, key, node):
    hosts = {h.name: h for h in deployment.hosts()}
    if key in hosts:
        return hosts[key]
    return next((h for h in hosts.values()
                 if h.canonical_hostname == node.get('hostName')), None)


def effective_vars(document, key):
    spec = document.get('spec') or {}
    merged = dict(((spec.get('nodeTemplate') or {}).get('ansible') or {})
                  .get('ansibleVars') or {})
    node = (spec.get('nodes') or {}).get(key) or {}
    merged.update((node.get('ansible') or {}).get('ansibleVars') or {})
    return merged


def _node(deployment, where, key, node, network_name):
    found = []
    path = 'spec.nodes.%s' % key
    host = _host(deployment, key, node)
    if host is None:
        return [_problem(where, path, 'node %s is not a host of stack %s'
                         % (key, deployment.stack),
                         'remove it, or export again')], None
    if node.get('hostName') != host.canonical_hostname:
        found.append(_problem(
            where, path + '.hostName', 'hostName %r is not TripleO\'s '
            'canonical FQDN %s (Nova and OVN would see a new host)'
            % (node.get('hostName'), host.canonical_hostname),
            'set hostName: %s' % host.canonical_hostname))
    ansible_host = (node.get('ansible') or {}).get('ansibleHost')
    if str(ansible_host) != str(host.ctlplane_ip):
        found.append(_problem(
            where, path + '.ansible.ansibleHost', 'ansibleHost %r is not the '
            'ctlplane address %s' % (ansible_host, host.ctlplane_ip),
            'set ansibleHost: %s' % host.ctlplane_ip))
    networks = {n.get('name'): n for n in node.get('networks') or []}
    wanted = [('ctlplane', host.ctlplane_ip)] + [
        (data['name_lower'], host.ip(data['name_lower']))
        for data in deployment.networks if host.ip(data['name_lower'])]
    for lower, ip in wanted:
        name = network_name(lower)
        entry = networks.get(name)
        if entry is None:
            found.append(_problem(
                where, path + '.networks', 'network %s (TripleO %s, where '
                'the node has %s) is missing: IPAM would not reserve it and '
                'os-net-config would lose it' % (name, lower, ip),
                'add {name: %s, fixedIP: %s}' % (name, ip)))
        elif str(entry.get('fixedIP')) != str(ip):
            found.append(_problem(
                where, '%s.networks[%s].fixedIP' % (path, name), 'fixedIP %r '
                'is not the node\'s address %s on %s (IPAM would give it '
                'another)' % (entry.get('fixedIP'), ip, name),
                'set fixedIP: %s' % ip))
    return found, host


def _vars(deployment, where, document, key, host):
    found = []
    merged = effective_vars(document, key)
    path = 'spec.nodeTemplate.ansible.ansibleVars'
    if merged.get('edpm_network_config_nmstate') is not False:
        found.append(_problem(
            where, path + '.edpm_network_config_nmstate', 'nmstate is on '
            '(EDPM\'s default) for a node TripleO configured with '
            'os-net-config', 'set edpm_network_config_nmstate: false'))
    role = deployment.roles[host.role]
    profile = role.group_vars.get('tuned_profile')
    if 'tuned' in role.services and profile and \
            merged.get('edpm_tuned_profile') != profile:
        found.append(_problem(
            where, path + '.edpm_tuned_profile', 'edpm_tuned_profile %r is '
            'not the node\'s %s: the pre-adoption validation fails'
            % (merged.get('edpm_tuned_profile'), profile),
            'set edpm_tuned_profile: %s' % profile))
    kernel = (role.step0.get('tripleo_kernel') or {}).get(
        'tripleo_kernel_args')
    if kernel and merged.get('edpm_kernel_args') != kernel:
        found.append(_problem(
            where, path + '.edpm_kernel_args', 'edpm_kernel_args %r is not '
            'the node\'s %r: the pre-adoption validation fails'
            % (merged.get('edpm_kernel_args'), kernel),
            'set edpm_kernel_args: %r' % kernel))
    return found


def _netconfig(deployment, documents, network_name):
    found = []
    for where, document in _of(documents, NETCONFIG):
        nets = {n.get('name'): n for n in (document.get('spec') or {}).get(
            'networks') or []}
        for data in deployment.networks:
            lower = data['name_lower']
            if not any(h.ip(lower) for h in deployment.hosts()):
                continue
            name = network_name(lower)
            cidrs = {str(s.get('cidr')) for s in (nets.get(name) or {}).get(
                'subnets') or []}
            for subnet_name, subnet in (data.get('subnets') or {}).items():
                cidr = subnet.get('ip_subnet') or subnet.get('ipv6_subnet')
                if cidr and cidr not in cidrs:
                    found.append(_problem(
                        where, 'spec.networks', 'network %s lacks TripleO\'s '
                        'subnet %s (%s)' % (name, subnet_name, cidr),
                        'add it with its allocation ranges'))
    return found


def check(documents, deployment, network_name, skipped=()):
    """Every work-dir problem of ``documents``; ``network_name`` maps
    TripleO's ``name_lower`` to the export's network names; the compute
    roles of ``skipped`` were left out on purpose (``--skip-role``)."""
    found = []
    adopted = set()
    for where, document in _of(documents, NODESET):
        for key, node in ((document.get('spec') or {}).get('nodes')
                          or {}).items():
            problems, host = _node(deployment, where, key, node or {},
                                   network_name)
            found += problems
            if host is not None:
                adopted.add(host.name)
                found += _vars(deployment, where, document, key, host)
    found += _netconfig(deployment, documents, network_name)
    found = list(dict.fromkeys(found))  # node template vars: once
    for role in deployment.roles.values():
        if not plan.is_compute(role) or role.name in skipped:
            continue
        for host in role.hosts:
            if host.name not in adopted:
                found.append(_problem(
                    'the export', '', 'compute host %s (role %s) is in no '
                    'NodeSet: its instances would be left behind'
                    % (host.name, role.name), 'export again, or add it'))
    return found


def nic_proofs(documents, deployment, template_dir=None, templates=None):
    """A :class:`Proof` per node of every NodeSet with a NIC template:
    TripleO's template with TripleO's variables against the NodeSet's
    with EDPM's. ``templates`` maps a role to its TripleO template file
    (else :func:`~.nic_files.path`)."""
    netconfigs = _of(documents, NETCONFIG)
    netconfig = netconfigs[0][1] if netconfigs else {}
    proofs = []
    for where, document in _of(documents, NODESET):
        name = (document.get('metadata') or {}).get('name')
        for key, node in ((document.get('spec') or {}).get('nodes')
                          or {}).items():
            host = _host(deployment, key, node or {})
            edpm_text = effective_vars(document, key).get(TEMPLATE_VAR)
            if host is None or not edpm_text:
                continue
            if not isinstance(edpm_text, str):
                proofs.append(Proof(key, name, where, host.role, None,
                                    'its %s is not a text' % TEMPLATE_VAR))
                continue
            role = deployment.roles[host.role]
            try:
                path = (templates or {}).get(role.name) or nic_files.path(
                    role, template_dir)
                text = nic_files.read(path)
            except exceptions.RhosoExportError as exc:
                proofs.append(Proof(key, name, where, role.name, None,
                                    'not proven: %s' % exc))
                continue
            ours = {key: deployment.tripleo_vars(host)}
            theirs = {key: edpm_inventory.node_vars(document, key,
                                                    netconfig)}
            result = nic.prove(text, edpm_text, ours, theirs)[key]
            proofs.append(Proof(key, name, where, role.name, path, result))
    return proofs
