"""The control plane's documents and patches, every check.

Each document against its CRD schema of the target version (the
OpenStackControlPlane after openstack-operator's defaulting webhook has
written it back, :func:`~.webhooks.mutated`), the OpenShift networking
rules (:mod:`.netrules`); then the control plane as each patch leaves it,
in the steps' order (RFC 7386 merge, as ``oc patch --type=merge``): its
schema, the webhooks' rules on the update, every ``customServiceConfig``
parsed as INI; a problem is named once, by the patch that brings it.
With the work dir: every service TripleO ran that the
export adopts has its patch, and every address is in exactly one part of
its subnet (TripleO's, a worker's, the pods', the load balancers', the
data plane's NetConfig ranges).
"""

import ipaddress

from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import netrules
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod
from tripleo_ephemeral.rhoso.controlplane import schemas
from tripleo_ephemeral.rhoso.controlplane import services as services_mod
from tripleo_ephemeral.rhoso.controlplane import webhooks

KIND = patch_mod.KIND
#: Paths whose ``customServiceConfig`` is not INI (Horizon's is Python).
NOT_INI = ('spec.horizon',)


def _configs(node, path=''):
    if isinstance(node, dict):
        for key, value in node.items():
            sub = '%s.%s' % (path, key) if path else key
            if key == 'customServiceConfig' and isinstance(value, str):
                yield sub, value
            else:
                yield from _configs(value, sub)


def ini_problems(where, document):
    found = []
    for path, text in _configs(document):
        if path.startswith(NOT_INI):
            continue
        try:
            ini.parse(text)
        except ValueError as exc:
            found.append(problems_mod.Problem(
                where, path, 'is not INI oslo.config reads: %s' % exc,
                'fix the section or option', 'ini'))
    return found


def _checked(bundle, where, document, old=None):
    found = []
    kind = bundle.kinds.get(document.get('kind')) if isinstance(
        document, dict) else None
    if kind is not None and document.get('kind') == KIND:
        document = webhooks.mutated(kind.openapi, kind.defaulted(document))
        found += schema.check(bundle, document, where)
        found += webhooks.check(where, document, old)
    else:
        found += schema.check(bundle, document, where)
    return found, document


def check(documents, patches, version):
    """``(problems, states)``: ``documents`` ``[(where, document)]`` and
    ``patches`` ``[(where, patch)]`` in order; ``states`` counts the
    control planes checked (the created one and one per patch)."""
    bundle = schemas.load(version)
    found = []
    current, mutated_spec, before = None, None, set()
    for where, document in documents:
        problems, mutated = _checked(bundle, where, document)
        found += problems + ini_problems(where, document)
        if isinstance(document, dict) and document.get('kind') == KIND:
            current, mutated_spec = document, mutated.get('spec')
            before = {(p.path, p.message) for p in problems}
    found += netrules.check([(w, d) for w, d in documents
                             if isinstance(d, dict)])
    states = 1 if current is not None else 0
    for where, patch in patches:
        if not isinstance(patch, dict) or not isinstance(
                patch.get('spec'), dict):
            found.append(problems_mod.Problem(
                where, '', 'is not a merge patch of the control plane',
                'write {spec: {...}}', 'schema'))
            continue
        if current is None:
            found.append(problems_mod.Problem(
                where, '', 'patches a control plane the export does not '
                'create', 'apply the backend services step first', 'schema'))
            continue
        current = patch_mod.merge(current, patch)
        problems, mutated = _checked(bundle, where, current, mutated_spec)
        # a problem the control plane had before this patch is not its own
        found += [p for p in problems if (p.path, p.message) not in before]
        found += ini_problems(where, patch)
        before = {(p.path, p.message) for p in problems}
        mutated_spec = mutated.get('spec')
        states += 1
    if current is not None:
        found += _lb_addresses(documents, current)
    return list(dict.fromkeys(found)), states


def _annotations(node, path='spec'):
    if isinstance(node, dict):
        annotations = node.get('annotations')
        if isinstance(annotations, dict) and \
                'metallb.universe.tf/loadBalancerIPs' in annotations:
            yield path, annotations
        for key, value in node.items():
            yield from _annotations(value, '%s.%s' % (path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _annotations(value, '%s[%d]' % (path, index))


def _lb_addresses(documents, control_plane):
    """A problem per load balancer address outside the pool its Service
    names (MetalLB would leave the Service pending)."""
    pools = {}
    for _, document in documents:
        if isinstance(document, dict) and \
                document.get('kind') == 'IPAddressPool':
            try:
                pools[document['metadata']['name']] = netrules.pool_ranges(
                    document)
            except (ValueError, TypeError, KeyError):
                continue
    found = []
    for path, annotations in _annotations(control_plane.get('spec')):
        pool = annotations.get('metallb.universe.tf/address-pool')
        for text in str(annotations[
                'metallb.universe.tf/loadBalancerIPs']).split(','):
            try:
                ip = ipaddress.ip_address(text.strip())
            except ValueError:
                found.append(problems_mod.Problem(
                    'the control plane', path, '%r is not an address'
                    % text, 'give the load balancer\'s address', 'webhook'))
                continue
            if pool in pools and not any(
                    a.version == ip.version and a <= ip <= b
                    for a, b in pools[pool]):
                found.append(problems_mod.Problem(
                    'the control plane', path, 'load balancer address %s is '
                    'not in pool %s (%s): the Service would stay pending'
                    % (ip, pool, ', '.join('%s-%s' % r for r in pools[pool])),
                    'use an address of the pool', 'webhook'))
    return found


def coverage(deployment, patches, skip=frozenset()):
    """A problem per service TripleO ran that the export adopts and no
    patch turns on."""
    fates = services_mod.fates(deployment, skip)
    turned_on = set()
    for _, patch in patches:
        for name, section in ((patch or {}).get('spec') or {}).items():
            if isinstance(section, dict) and section.get('enabled'):
                turned_on.add(name)
    found = []
    for name in services_mod.adopted(fates):
        if name not in turned_on:
            ran = sorted(s for s, f in fates.items() if f.target == name)
            found.append(problems_mod.Problem(
                'the export', 'spec.%s' % name, 'TripleO ran %s (%s) and no '
                'patch adopts it' % (name, ', '.join(ran)), 'export again, '
                'or leave it out with --skip-service %s' % name, 'work dir'))
    return found


def _tripleo_addresses(deployment):
    found = {}
    for host in deployment.hosts():
        for key, value in host.vars.items():
            if key.endswith('_ip') and value:
                try:
                    found[ipaddress.ip_address(str(value))] = host.name
                except ValueError:
                    continue
    for key, value in deployment.vips.items():
        try:
            found.setdefault(ipaddress.ip_address(str(value)), 'VIP %s' % key)
        except ValueError:
            continue
    return found


def parts(documents):
    """``[(where, label, first, last)]`` of every allocation the documents
    make: attachments' pods, pools' load balancers, workers' addresses,
    NetConfig allocation ranges."""
    result = []
    for where, document in documents:
        kind = document.get('kind') if isinstance(document, dict) else None
        try:
            if kind == 'NetworkAttachmentDefinition':
                found = netrules.nad_range(document)
                if found:
                    result.append((where, 'pods', found[1], found[2]))
            elif kind == 'IPAddressPool':
                for first, last in netrules.pool_ranges(document):
                    result.append((where, 'load balancers', first, last))
        except (ValueError, TypeError):
            continue
        if kind == 'NodeNetworkConfigurationPolicy':
            state = document['spec'].get('desiredState') or {}
            for iface in state.get('interfaces') or []:
                for family in ('ipv4', 'ipv6'):
                    for address in ((iface or {}).get(family) or {}).get(
                            'address') or []:
                        ip = ipaddress.ip_address(address['ip'])
                        result.append((where, 'worker', ip, ip))
        elif kind == 'NetConfig':
            for network in document['spec'].get('networks') or []:
                for subnet in network.get('subnets') or []:
                    for item in subnet.get('allocationRanges') or []:
                        result.append((where, 'data plane', ipaddress.
                                       ip_address(item['start']),
                                       ipaddress.ip_address(item['end'])))
    return result


def addresses(deployment, documents):
    """A problem per address in two parts, or TripleO's in any."""
    found = []
    tripleo = _tripleo_addresses(deployment)
    items = parts(documents)
    for index, (where, label, first, last) in enumerate(items):
        for ip, owner in tripleo.items():
            if ip.version == first.version and first <= ip <= last:
                found.append(problems_mod.Problem(
                    where, '', 'the %s range %s-%s holds %s, TripleO\'s (%s)'
                    % (label, first, last, ip, owner), 'export again, or '
                    'give a range without it', 'work dir'))
        for other, other_label, a, b in items[index + 1:]:
            if a.version == first.version and a <= last and first <= b:
                found.append(problems_mod.Problem(
                    where, '', 'the %s range %s-%s overlaps the %s range '
                    '%s-%s of %s' % (label, first, last, other_label, a, b,
                                     other), 'give them disjoint ranges',
                    'work dir'))
    return found
