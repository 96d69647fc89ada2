"""``report.md``: where every value of an export came from, and what still
needs a look on the nodes themselves."""

import json

from tripleo_ephemeral.rhoso import ceph
from tripleo_ephemeral.rhoso import plan


def _cell(value):
    text = value if isinstance(value, str) else json.dumps(value)
    if '\n' in text:
        text = '(%d lines, see the NodeSet)' % (text.count('\n') + 1)
    return text.replace('|', '\\|')


def _table(header, rows):
    lines = ['| %s |' % ' | '.join(header),
             '|%s|' % '|'.join('---' for _ in header)]
    lines += ['| %s |' % ' | '.join(_cell(c) for c in row) for row in rows]
    return lines + ['']


def _roles(export):
    rows = []
    for group in export.groups:
        what = ('compute nodes of %s' % group.cell
                if group.kind == plan.COMPUTE else 'networker nodes')
        rows.append((group.role.name, what, group.name,
                     ', '.join(h.name for h in group.role.hosts)))
    for role, reason in sorted(export.skipped.items()):
        rows.append((role, 'not adopted: %s' % reason, '-', ', '.join(
            h.name for h in export.deployment.roles[role].hosts)))
    return ['## Roles', ''] + _table(('Role', 'Becomes', 'NodeSet',
                                      'Hosts'), rows)


def _nodes(export):
    lines = ['## Nodes', '',
             'hostName is the inventory\'s `canonical_hostname` (Nova\'s '
             'host and OVN\'s chassis name), ansibleHost its `ctlplane_ip`, '
             'each fixedIP its `<network>_ip` (config-download\'s '
             'tripleo-ansible-inventory.yaml).', '']
    rows = []
    for group in export.groups:
        for host in group.role.hosts:
            addresses = ', '.join('%s %s' % (n.name, host.ctlplane_ip
                                             if n.lower == 'ctlplane'
                                             else host.ip(n.lower))
                                  for n in export.networks
                                  if n.lower == 'ctlplane' or
                                  host.ip(n.lower))
            rows.append((group.name, host.name, host.canonical_hostname,
                         host.ctlplane_ip, addresses))
    return lines + _table(('NodeSet', 'Node', 'hostName', 'ansibleHost',
                           'fixedIPs'), rows)


def _networks(export):
    rows = []
    for network in export.networks:
        for subnet in network.subnets:
            rows.append((network.name, network.lower, subnet.name,
                         str(subnet.cidr), subnet.vlan or '-',
                         len(subnet.used), len(subnet.vips),
                         network.source))
    lines = ['## NetConfig', '',
             'Allocation ranges are TripleO\'s pools without any address in '
             'use (hosts, VIPs, gateway); VIPs are also excludeAddresses. '
             'The dns domains are those of the hosts\' FQDNs.', '']
    return lines + _table(('Network', 'TripleO', 'Subnet', 'CIDR', 'VLAN',
                           'Hosts', 'VIPs', 'From'), rows)


def _variables(export):
    lines = ['## Ansible variables', '']
    for _, document in export.documents:
        if document.get('kind') != 'OpenStackDataPlaneNodeSet':
            continue
        name = document['metadata']['name']
        values = document['spec']['nodeTemplate']['ansible']['ansibleVars']
        sources = export.sources.get(name) or {}
        lines += ['### %s' % name, '']
        lines += _table(('Variable', 'Value', 'TripleO source'), [
            (key, value, sources.get(key, ''))
            for key, value in values.items()])
        per_node = [(node, key, value) for node, entry in
                    document['spec']['nodes'].items()
                    for key, value in ((entry.get('ansible') or {}).get(
                        'ansibleVars') or {}).items()]
        if per_node:
            lines += _table(('Node', 'Variable', 'Value'), per_node)
    return lines


def _templates(export):
    lines = ['## NIC templates', '',
             'Each role\'s TripleO template was rendered with the '
             'variables TripleO\'s Ansible had for each node, the converted '
             'one with those EDPM will have (the NodeSet and NetConfig, as '
             'openstack-operator builds its inventory), both with jinja2 and '
             'StrictUndefined; their `network_config` are compared.', '']
    for role, template in sorted(export.templates.items()):
        lines.append('### %s: %s' % (role, template.path))
        lines.append('')
        renamed = template.conversion.renamed
        lines.append('Renamed: %s.' % (', '.join(
            '`%s` -> `%s`' % item for item in sorted(renamed.items()))
            or 'nothing'))
        carried = sorted({n for c in template.conversion.carried.values()
                          for n in c})
        lines.append('Carried as Ansible variables: %s.' % (
            ', '.join('`%s`' % n for n in carried) or 'nothing'))
        lines.append('')
        lines += _table(('Node', 'network_config'), [
            (host, 'the same' if why is None else why)
            for host, why in sorted(template.proof.items())])
    return lines


def _secrets(export):
    lines = ['## Secrets', '',
             'In `secrets/` (0600); the other documents only name them.', '']
    rows = [(written.name, ', '.join('%s (%s)' % kv for kv in
                                     written.keys.items()), written.note)
            for written in export.secrets]
    lines += _table(('Secret', 'Keys (source)', 'Apply'), rows)
    if export.key_path is None:
        lines += ['No SSH key of TripleO\'s Ansible was found (ansible.cfg '
                  '`private_key_file`, the work dir\'s `ssh_private_key`): '
                  'create the `%s` Secret from the key you log in with.'
                  % export.choices.ssh_key_secret, '']
    return lines


def _live(export):
    checks = [
        'The DNS servers and search domains are kept as TripleO set them '
        '(`tripleo_ctlplane_dns_nameservers`, `tripleo_dns_search_domains` '
        'when the NIC template uses them): point them at RHOSO\'s DNS '
        'later if the nodes should use it.',
        'The ctlplane allocation ranges are the whole subnet without the '
        'addresses in use: compare them with the undercloud\'s '
        '`ctlplane-subnet` pools and its own address.',
        'Passwords and keys are those of the passwords file: any rotated '
        'on the nodes since the last deploy must be read there instead.',
        'Package repositories (`rhc_repositories` or `edpm_bootstrap_'
        'command`) and registry logins are not TripleO\'s: add them.',
        'The tuned profile, kernel command line and hugepage mounts are '
        'what the templates asked for: `cat /etc/tuned/active_profile`, '
        '`/proc/cmdline` and `mount | grep hugetlbfs` on a node must agree '
        '(the pre-adoption validation checks the first two).',
        'OVN: `ovs-vsctl list Open .` on each node shows the external_ids '
        '(bridge mappings, encap, chassis MAC mappings) EDPM will set.',
        'os-net-config runs again on nodes without '
        '`/var/lib/edpm-config/os-net-config.returncode`: the NIC template '
        'was proven to render the same network_config, not that the '
        'node\'s running network matches it.',
    ]
    on_ceph = [g.role.name for g in export.groups
               if g.kind == plan.COMPUTE and ceph.uses_ceph(g.role)]
    if on_ceph and not export.ceph_vars:
        checks.append('Role %s uses Ceph but the work dir has no cephadm '
                      'client configuration (ceph_client.yml): create the '
                      '`%s` Secret from /etc/ceph of a compute.'
                      % (', '.join(on_ceph), ceph.SECRET))
    elif on_ceph:
        checks.append('Ceph: `%s` is built from %s; compare it with '
                      '/etc/ceph of a compute (keys rotated since?).'
                      % (ceph.SECRET, export.ceph_vars))
    for role in export.deployment.roles.values():
        hugepages = (role.step0.get('tripleo_kernel') or {}).get(
            'tripleo_kernel_hugepages')
        if hugepages:
            checks.append('Role %s has hugepages (%s): add '
                          '`edpm_default_mounts` for their mount points.'
                          % (role.name, json.dumps(hugepages)))
    return ['## Still to check on the nodes', ''] + [
        '- ' + c for c in checks] + ['']


def _validation(export):
    result = export.result
    lines = ['## Validation', '',
             '%d documents valid for RHOSO %s: schemas (strict, defaults '
             'applied), webhook and IPAM rules, checks against the work '
             'dir.' % (result.documents, result.bundle.version), '']
    lines += _table(('Kind', 'Schema from'), sorted(
        result.bundle.provenance().items()))
    return lines


def text(export):
    deployment = export.deployment
    lines = ['# Adopting stack %s into RHOSO %s' % (
        deployment.stack, export.choices.version), '',
        'From the work dir %s%s; nothing was contacted.' % (
            deployment.wd.path, ' (adopted from an undercloud\'s Heat)'
            if deployment.adopted else ''), '',
        'Apply in the procedure\'s order: the Secrets and the NetConfig, '
        'the ConfigMap and services, the NodeSets, then each Deployment '
        'when the one before it is Ready (pre-adoption validation, '
        'tripleo-cleanup, openstack). `. adoption-vars.sh` sets the shell '
        'variables the procedure uses.', '']
    for part in (_roles, _nodes, _networks, _variables, _templates,
                 _secrets, _live, _validation):
        lines += part(export)
    return '\n'.join(lines)
