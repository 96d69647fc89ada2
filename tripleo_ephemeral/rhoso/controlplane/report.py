"""The control plane's sections of ``report.md``, after the kit's (whose
step sections and network plan include the control plane's steps): the
workers' networks, what became of every service TripleO ran, every
carried setting beside its TripleO source, the computes' Nova settings,
and the validation at every bundled version."""

from tripleo_ephemeral.rhoso import markdown
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import migration
from tripleo_ephemeral.rhoso.controlplane import services as services_mod

_table = markdown.table


def networks(cp):
    lines = ['## Control plane: the workers\' networks', '',
             'Each network the control plane attaches to, as the network '
             'plan split it (the plan\'s section above): the VLAN and MTU '
             'the workers\' NodeNetworkConfigurationPolicies give it, their '
             'addresses (reserved before the plan), the pods\' and load '
             'balancers\' ranges of its attachment and address pool.', '']
    rows = []
    for split in cp.splits:
        if not split.attached:
            continue
        rows.append((
            split.name, split.network.lower, str(split.subnet.cidr),
            split.subnet.vlan or '-', split.network.mtu,
            ', '.join('%s %s' % (n, ip) for n, ip in split.workers.items())
            or '-', addressing.text(split.pods),
            addressing.text(split.loadbalancers)))
    lines += _table(('Network', 'TripleO', 'CIDR', 'VLAN', 'MTU', 'Workers',
                     'Pods', 'Load balancers'), rows)
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


def settings(cp):
    """Every setting a patch carries, beside its TripleO source."""
    lines = ['## Control plane: the settings carried', '',
             'Each `customServiceConfig` option and other setting of the '
             'patches, with the THT parameter and hiera key it came from '
             '(the role\'s group_vars: what puppet rendered the service\'s '
             'configuration from).', '']
    for step in cp.steps:
        for patch in step.patches:
            configs = [(path, config) for path, config in getattr(
                patch, 'configs', {}).items() if config.options]
            values = getattr(patch, 'values', [])
            if not configs and not values:
                continue
            lines += ['### %s' % step.path_of(patch), '']
            for path, config in configs:
                lines += ['`%s`:' % path, '']
                lines += _table(('Section', 'Option', 'Value',
                                 'TripleO source'), [
                    (o.section, o.option, o.value, o.source)
                    for o in config.options])
            if values:
                lines += _table(('Setting', 'Value', 'Source'), values)
    if cp.values:
        lines += ['### The backend services', '']
        lines += _table(('Setting', 'Value', 'Source'), cp.values)
    lines += ['`%s` sets the database and OVN migration pages\' variables '
              '(passwords read when sourced, never written).'
              % migration.FILE, '']
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
    return '\n'.join(networks(cp) + services(cp, step_of) + settings(cp) +
                     compute(cp) + validation(results)) + '\n'
