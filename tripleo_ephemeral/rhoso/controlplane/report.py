"""The control plane's sections of ``report.md``: the network plan, what
became of every service TripleO ran, each step with its commands, waits
and checks, every carried setting beside its TripleO source, and what only
the operator can give."""

import json

from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import migration
from tripleo_ephemeral.rhoso.controlplane import services as services_mod


def _cell(value):
    text = value if isinstance(value, str) else json.dumps(value)
    return text.replace('|', '\\|').replace('\n', ' ')


def _table(header, rows):
    lines = ['| %s |' % ' | '.join(header),
             '|%s|' % '|'.join('---' for _ in header)]
    lines += ['| %s |' % ' | '.join(_cell(c) for c in row) for row in rows]
    return lines + ['']


def _ranges(ranges):
    return ', '.join(addressing.text(r) for r in ranges) or '-'


def networks(cp):
    lines = ['## Control plane: the network plan', '',
             'Each subnet split between TripleO (kept out until the adoption '
             'is over), the OpenShift workers (NodeNetworkConfigurationPolicy'
             '), the data plane (NetConfig allocationRanges), the load '
             'balancers (MetalLB IPAddressPool) and the pods '
             '(NetworkAttachmentDefinition whereabouts range), carved in '
             'that order from the top of the free space unless given (marked '
             '"given"); what is left stays free.', '']
    rows = []
    for split in cp.splits:
        tripleo = sorted(split.tripleo)
        rows.append((
            split.name, split.network.lower, str(split.subnet.cidr),
            split.subnet.vlan or '-', split.network.mtu,
            '%d: %s' % (len(tripleo), ', '.join(
                '%s %s' % (ip, split.tripleo[ip]) for ip in tripleo)),
            ', '.join('%s %s' % (n, ip) for n, ip in split.workers.items())
            or '-',
            addressing.text(split.pods) + (' (given)' if 'pods' in split.given
                                           else ''),
            addressing.text(split.loadbalancers) + (
                ' (given)' if 'loadbalancers' in split.given else ''),
            _ranges(split.dataplane), _ranges(split.left)))
    lines += _table(('Network', 'TripleO', 'CIDR', 'VLAN', 'MTU',
                     'TripleO\'s addresses', 'Workers', 'Pods',
                     'Load balancers', 'Data plane', 'Left'), rows)
    if cp.endpoints.addresses:
        lines += ['Load balancer addresses: ' + ', '.join(
            '%s %s (%s)' % (what, ip, net) for what, (net, ip) in
            cp.endpoints.addresses.items()) + '.', '']
    for name, why in sorted(cp.missing_networks.items()):
        lines += ['No attachment for %s: %s.' % (name, why), '']
    return lines


def services(cp, step_of):
    rows = []
    for name, fate in cp.fates.items():
        if fate.kind == services_mod.ADOPT:
            what = 'adopted: %s (step %s)' % (fate.target, step_of.get(
                fate.target, '-'))
        elif fate.kind == services_mod.BACKEND:
            what = 'backend services: %s' % fate.target
        elif fate.kind == services_mod.LEFT_OUT:
            what = 'left out: adopt by hand (%s)' % fate.target
        elif fate.kind == services_mod.CEPH:
            what = 'the Ceph cluster (%s)' % fate.target
        elif fate.kind == services_mod.SKIPPED:
            what = 'left out with --skip-service'
        else:
            what = {services_mod.DATAPLANE: 'data plane (the NodeSets)',
                    services_mod.HOST: 'host configuration',
                    services_mod.REPLACED: 'replaced by OpenShift'}[fate.kind]
        rows.append((name, ', '.join(fate.roles), what))
    return ['## Control plane: the services TripleO ran', ''] + _table(
        ('TripleO service', 'Roles', 'Becomes'), rows)


def _patch(patch):
    lines = []
    for path, config in getattr(patch, 'configs', {}).items():
        if not config.options:
            continue
        lines += ['`%s`:' % path, '']
        lines += _table(('Section', 'Option', 'Value', 'TripleO source'), [
            (o.section, o.option, o.value, o.source) for o in config.options])
    if getattr(patch, 'values', None):
        lines += _table(('Setting', 'Value', 'Source'), patch.values)
    return lines


def steps(cp):
    lines = ['## Control plane steps', '',
             'In order; each waits for the one before. `oc apply -f '
             'NN-name/` applies the documents of a step and nothing else; '
             'a `.patch` file is a merge patch for the `oc patch` its step '
             'gives, never read by `oc apply`. `. %s` sets the database and '
             'OVN migration pages\' variables.' % migration.FILE, '']
    for step in cp.steps:
        lines += ['### %s: %s' % (step.directory, step.title), '',
                  'Follows %s.' % step.source.text(), '']
        if step.commands:
            lines += ['```'] + step.commands + ['```', '']
        if step.documents:
            lines += ['Creates: %s.' % ', '.join(step.creates()), '']
        for patch in step.patches:
            lines += _patch(patch)
        if step.waits:
            lines += ['Wait: ' + '; '.join('`%s`' % w for w in step.waits)
                      + '.', '']
        if step.checks:
            lines += ['Then: ' + '; '.join('`%s`' % c for c in step.checks)
                      + '.', '']
        lines += ['- **Yours:** %s.' % n.rstrip('.') for n in step.notes]
        if step.notes:
            lines.append('')
    if cp.values:
        lines += ['### Backend services settings', '']
        lines += _table(('Setting', 'Value', 'Source'), cp.values)
    return lines


def compute(cp):
    lines = ['## Computes\' Nova settings', '']
    if cp.compute_differs:
        lines += ['The compute roles %s have different CPU pinning, memory '
                  'or allocation settings: give each NodeSet its own Nova '
                  'service with its own file (not written).'
                  % ', '.join(cp.compute_differs), '']
    for role, config in sorted(cp.compute_configs.items()):
        if config.options:
            lines += ['Role %s:' % role, '']
            lines += _table(('Section', 'Option', 'Value', 'TripleO source'), [
                (o.section, o.option, o.value, o.source)
                for o in config.options])
    return lines if len(lines) > 2 else []


def validation(results):
    """``results``: ``{version: (problems, states, provenance)}``."""
    lines = ['## Control plane validation', '']
    for version, (found, states, provenance) in sorted(results.items()):
        lines.append('RHOSO %s: %s; the control plane checked as created '
                     'and after each of its %d patches (defaulting webhook '
                     'applied, strict schema, webhook rules, INI).' % (
                         version, '%d problems' % len(found) if found
                         else 'valid', states - 1))
        lines.append('')
        lines += _table(('Kind', 'Schema from'), sorted(provenance.items()))
    return lines


def text(cp, results):
    step_of = {}
    for step in cp.steps:
        for patch in step.patches:
            step_of.setdefault(getattr(patch, 'service', None),
                               step.directory)
    return '\n'.join(networks(cp) + services(cp, step_of) + steps(cp) +
                     compute(cp) + validation(results)) + '\n'
