"""``report.md``: where every value of an export came from, and what still
needs a look on the nodes themselves."""

from tripleo_ephemeral.rhoso import ceph
from tripleo_ephemeral.rhoso import markdown
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import procedure_vars
from tripleo_ephemeral.rhoso import report_steps
from tripleo_ephemeral.rhoso import secret_docs
from tripleo_ephemeral.rhoso import upstream


def _roles(export):
    rows = []
    for group in export.groups:
        what = ('compute nodes of %s' % group.cell
                if group.kind == plan.COMPUTE else 'networker nodes')
        for role in group.roles:
            rows.append((role.name, what, group.name,
                         ', '.join(h.name for h in role.hosts)))
    for role, reason in sorted(export.skipped.items()):
        rows.append((role, 'not adopted: %s' % reason, '-', ', '.join(
            h.name for h in export.deployment.roles[role].hosts)))
    return ['## Roles', ''] + markdown.table(
        ('Role', 'Becomes', 'NodeSet', 'Hosts'), rows)


def _nodes(export):
    lines = ['## Nodes', '',
             'hostName is the inventory\'s `canonical_hostname` (Nova\'s '
             'host and OVN\'s chassis name), ansibleHost its `ctlplane_ip`, '
             'each fixedIP its `<network>_ip` (config-download\'s '
             'tripleo-ansible-inventory.yaml).', '']
    rows = []
    for group in export.groups:
        for host in group.hosts:
            addresses = ', '.join('%s %s' % (n.name, host.ctlplane_ip
                                             if n.lower == 'ctlplane'
                                             else host.ip(n.lower))
                                  for n in export.networks
                                  if n.lower == 'ctlplane' or
                                  host.ip(n.lower))
            rows.append((group.name, host.name, host.canonical_hostname,
                         host.ctlplane_ip, addresses))
    return lines + markdown.table(
        ('NodeSet', 'Node', 'hostName', 'ansibleHost', 'fixedIPs'), rows)


def _variables(export):
    lines = ['## Ansible variables', '',
             'Per NodeSet: the node template\'s, then those that differ '
             'between its nodes (the roles of one cell).', '']
    for group in export.groups:
        document = group.document
        name = document['metadata']['name']
        values = document['spec']['nodeTemplate']['ansible']['ansibleVars']
        sources = export.sources.get(name) or {}
        lines += ['### %s' % name, '']
        lines += markdown.table(('Variable', 'Value', 'Source'), [
            (key, value, sources.get(key, ''))
            for key, value in values.items()])
        per_node = [(node, key, value) for node, entry in
                    document['spec']['nodes'].items()
                    for key, value in ((entry.get('ansible') or {}).get(
                        'ansibleVars') or {}).items()]
        if per_node:
            lines += markdown.table(('Node', 'Variable', 'Value'), per_node)
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
        lines += markdown.table(('Node', 'network_config'), [
            (host, 'the same' if why is None else why)
            for host, why in sorted(template.proof.items())])
    return lines


def _secrets(export):
    step = export.kit.step('dataplane-secrets')
    lines = ['## Secrets', '',
             'The data plane\'s are the documents of `%s/` (0700, each '
             '0600); the other documents only name them. The control '
             'plane\'s `osp-secret` keys are a merge patch in `%s` (`%s`); '
             'the passwords as shell variables in `secrets/passwords.sh`.'
             % (step.directory, secret_docs.OSP_PATCH,
                export.osp_secret.note), '']
    rows = [(written.name, ', '.join('%s (%s)' % kv for kv in
                                     written.keys.items()), written.note)
            for written in export.secrets + [export.osp_secret]]
    return lines + markdown.table(('Secret', 'Keys (source)', 'What for'),
                                  rows)


def _live(export):
    checks = [
        'The DNS servers and search domains are kept as TripleO set them '
        '(`tripleo_ctlplane_dns_nameservers`, `tripleo_dns_search_domains` '
        'when the NIC template uses them): point them at RHOSO\'s DNS '
        'later if the nodes should use it.',
        'The undercloud\'s own ctlplane address and its DHCP and '
        'inspection ranges are not in the work dir: where the ctlplane '
        'parts above hold them, reserve them (--reserve '
        'ctlplane=<first>-<last>) and export again.',
        'Passwords and keys are those of the passwords file: any rotated '
        'on the nodes since the last deploy must be read there instead.',
        'Package repositories are not TripleO\'s: downstream, give '
        '--redhat (the `redhat` service, `rhc_*` variables and the '
        'subscription and registry Secrets); upstream, put the '
        'repo-setup lines of the procedure (%s) before `edpm_bootstrap_'
        'command`.' % upstream.source('compute', '530-543').text(),
        'The pre-adoption validation also wants `systemd-container` '
        'installed on every compute (`rpm -q systemd-container`); '
        'installing it by hand stops the instances (%s).' % upstream.source(
            'edpm_pre_adoption_kernel', '').text().replace(
                'kernel_args.yml', 'machined.yml'),
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
    on_ceph = [r.name for g in export.groups for r in g.roles
               if g.kind == plan.COMPUTE and ceph.uses_ceph(r)]
    if on_ceph and not export.ceph_vars:
        checks.append('Role %s uses Ceph but the work dir has no cephadm '
                      'client configuration (ceph_client.yml): create the '
                      '`%s` Secret from /etc/ceph of a compute.'
                      % (', '.join(on_ceph), ceph.SECRET))
    elif on_ceph:
        checks.append('Ceph: `%s` is built from %s; compare it with '
                      '/etc/ceph of a compute (keys rotated since?).'
                      % (ceph.SECRET, export.ceph_vars))
    for group in export.groups:
        for role in group.roles:
            if procedure_vars.hugepage_sizes(role):
                checks.append('Role %s has hugepages: `edpm_default_mounts` '
                              'mounts a hugetlbfs per page size; `mount | '
                              'grep hugetlbfs` on a node shows TripleO\'s '
                              '(/dev/hugepages for the default size).'
                              % role.name)
    return ['## Still to check on the nodes', ''] + [
        '- ' + c for c in checks] + ['']


def _validation(export):
    result = export.result
    lines = ['## Validation', '',
             '%d documents valid for RHOSO %s: schemas (strict, defaults '
             'applied), webhook and IPAM rules, checks against the work '
             'dir.' % (result.documents, result.bundle.version), '']
    lines += markdown.table(('Kind', 'Schema from'), sorted(
        result.bundle.provenance().items()))
    return lines


def text(export):
    deployment = export.deployment
    lines = ['# Adopting stack %s into RHOSO %s' % (
        deployment.stack, export.choices.version), '',
        'From the work dir %s%s; nothing was contacted.' % (
            deployment.workdir.path, ' (adopted from an undercloud\'s Heat)'
            if deployment.adopted else ''), '']
    for part in (report_steps.steps, _roles, _nodes, report_steps.networks,
                 report_steps.procedure_lines, _variables, _templates,
                 _secrets, _live, _validation):
        lines += part(export)
    return '\n'.join(lines)
