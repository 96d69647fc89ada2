"""The report's steps and network plan.

One section per step of the kit in order (the commands to run from the
export directory, what they create, the waits and checks before the next
step, what to decide or do by hand, the upstream text it follows); each
variable the procedures set for adopted nodes beside its line and what
the NodeSets have; then per subnet who has which addresses: TripleO's,
the operator's reservations, the dataplane, pods and loadbalancers parts,
and what is left.
"""

from tripleo_ephemeral.rhoso import markdown
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import upstream


def _step(step):
    lines = ['### %s: %s' % (step.directory, step.title), '']
    if step.commands:
        lines += ['```'] + step.commands + ['```', '']
    if step.documents:
        lines.append('Creates: %s.' % ', '.join(step.creates()))
    for patch in step.patches:
        lines.append('Patches: %s (`%s`).' % (patch.what,
                                              step.path_of(patch)))
    for wait in step.waits:
        lines.append('- wait: `%s`' % wait)
    for check in step.checks:
        lines.append('- check: %s' % check)
    for note in step.notes:
        lines.append('- %s' % note)
    lines += ['', 'Follows %s.' % step.source.text(), '']
    return lines


def steps(export):
    lines = ['## Steps', '',
             'Run them in this order from the export directory, each once '
             'the waits of the one before are over: every `NN-<step>/` '
             'holds the documents of that step only, and nothing at the '
             'top is a document (`oc apply -f .` applies nothing). '
             '`. adoption-vars.sh` sets the shell variables the procedure '
             'uses (`$NODESETS` is the compute cells\' NodeSets).', '']
    for step in export.kit.steps():
        lines += _step(step)
    return lines


def _ranges(ranges):
    return ', '.join(str(r) for r in ranges) or '-'


def _subnet_rows(network, subnet):
    plan = subnet.plan
    tripleo = ', '.join('%s (%s)' % (ip, whose) for ip, whose in
                        sorted(plan.tripleo.items()))
    reserved = ', '.join('%s (%s)' % (r.range, r.why) for r in plan.reserved)
    row = [network.name, subnet.name, str(subnet.cidr), tripleo or '-',
           reserved or '-']
    for part in (netplan.DATAPLANE, netplan.PODS, netplan.LOADBALANCERS):
        ranges = plan.parts[part]
        how = plan.given.get(part, 'carved, %d addresses' % sum(
            r.size for r in ranges)) if ranges else 'none'
        row.append('%s (%s)' % (_ranges(ranges), how) if ranges else '-')
    row.append('%d: %s' % (plan.left_count(), _ranges(plan.left())))
    return row


def networks(export):
    if export.merged_into:
        how = ('Merged into NetConfig %s (%s): its networks, subnets and '
               'settings stay; TripleO\'s are added where it lacks them '
               '(added: %s).' % (
                   export.merged_into, export.choices.network.netconfig_file,
                   ', '.join('%s %s' % (n.name, s.name)
                             for n in export.networks for s in n.subnets
                             if s.merged == 'added') or 'nothing'))
    else:
        how = ('A NetConfig of its own (no --netconfig): where the '
               'namespace has one, export again with --netconfig <file of '
               '"oc get netconfig -o yaml"> to merge into it.')
    lines = ['## Networks', '', how, '',
             'Per subnet: the addresses TripleO uses (never handed out), '
             'the reservations, the NetConfig\'s allocation ranges '
             '(dataplane), the ranges kept for the control plane\'s pods '
             '(NetworkAttachmentDefinitions) and load balancers (MetalLB), '
             'and what is left. Give ranges with --dataplane-range, '
             '--pods-range, --loadbalancer-range, reserve with --reserve.',
             '']
    rows = [_subnet_rows(n, s) for n in export.networks for s in n.subnets]
    lines += markdown.table(('Network', 'Subnet', 'CIDR', 'TripleO',
                             'Reserved', 'Dataplane', 'Pods',
                             'Load balancers', 'Left'), rows)
    for subnet, alone in export.dropped.items():
        lines.append('- %s: %s left out of the allocation ranges (one '
                     'address alone between TripleO\'s; a range must hold '
                     'two).' % (subnet.plan.where, _ranges(alone)))
    if export.dropped:
        lines.append('')
    return lines


#: Why a variable of the procedures is not in a NodeSet.
ABSENT = {'downstream': 'downstream only: --redhat',
          'sriov': 'only for nodes with the SR-IOV agent',
          'hugepages': 'only for nodes with hugepages'}


def _value(group, name):
    """The value of Ansible variable ``name`` in ``group``'s NodeSet:
    the node template's, ``(per node)``, or None."""
    spec = group.document['spec']
    template = spec['nodeTemplate']['ansible']['ansibleVars']
    if name in template:
        return template[name]
    if any(name in ((node.get('ansible') or {}).get('ansibleVars') or {})
           for node in spec['nodes'].values()):
        return '(per node)'
    return None


def procedure_lines(export):
    """The procedures' variables for adopted nodes, beside their lines."""
    rows = []
    for fact in upstream.facts()['variables']:
        for kind, lines in fact['nodesets'].items():
            groups = [g for g in export.groups if g.kind == kind]
            for group in groups:
                value = _value(group, fact['name'])
                source = (export.sources.get(group.name) or {}).get(
                    fact['name'], '') if value is not None else ABSENT.get(
                        fact.get('when'), 'missing')
                rows.append(('%s %s' % (kind, lines), fact['name'],
                             group.name, '-' if value is None else value,
                             source))
    return ['## The procedures\' variables', '',
            'Each variable the compute and networker procedures set for '
            'adopted nodes (%s, %s), its line there, and what each NodeSet '
            'has (`-`: not here, for the reason given).' % (
                upstream.source('compute').text(),
                upstream.source('networker').text()), ''] + markdown.table(
        ('Procedure lines', 'Variable', 'NodeSet', 'Value', 'Source'), rows)
