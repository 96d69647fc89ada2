"""The report's steps and network plan.

One section per step of the kit in order (the commands to run from the
export directory, what they create, the waits and checks before the next
step, what to decide or do by hand, the upstream text it follows), then
per subnet who has which addresses: TripleO's, the operator's
reservations, the dataplane, pods and loadbalancers parts, and what is
left.
"""

from tripleo_ephemeral.rhoso import markdown
from tripleo_ephemeral.rhoso import netplan


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
