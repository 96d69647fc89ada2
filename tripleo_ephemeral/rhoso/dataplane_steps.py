"""The data plane's steps (50-99), in the procedures' order.

Compute procedure, then its fast-forward upgrade, then the networker
procedure (assembly_adopting-the-data-plane.adoc): the NetConfig; the
Secrets; the cells' ConfigMap and Nova services; the compute NodeSets;
the pre-adoption validation, the TripleO cleanup and the adoption of the
compute cells' NodeSets (``$NODESETS``), each once the one before is
Ready; the fast-forward upgrade's Deployments; then the networkers' own
NodeSet, pre-adoption validation and Deployment, never the cleanup (it
stops every ``tripleo_*`` unit, the gateways' ``tripleo_ovn_controller``
included).
"""

from tripleo_ephemeral.rhoso import documents
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import steps
from tripleo_ephemeral.rhoso import upstream

#: The data plane's step directories, in the order they apply.
NETCONFIG = '50-netconfig'
SECRETS = '51-dataplane-secrets'
NOVA_CELLS = '52-nova-cells'
COMPUTE_NODESETS = '53-compute-nodesets'
PRE_ADOPTION = '54-pre-adoption-validation'
CLEANUP = '55-tripleo-cleanup'
COMPUTE_ADOPTION = '56-compute-adoption'
FFU = '57-nova-compute-ffu'
NETWORKER_NODESETS = '60-networker-nodesets'
NETWORKER_PRE_ADOPTION = '61-networker-pre-adoption'
NETWORKER_ADOPTION = '62-networker-adoption'
EE_PODS = ('oc get pod -l app=openstackansibleee (every pod Completed); '
           'oc logs -l app=openstackansibleee -f --max-log-requests 20')
AGENTS = 'oc exec openstackclient -- openstack network agent list'


def _step(directory, title, source, documents, **kwargs):
    number, name = directory.split('-', 1)
    return steps.Step(int(number), name, title, source, documents, **kwargs)


def _docs(*pairs):
    """Documents of ``(body, what)`` pairs, their files numbered in order:
    ``oc apply -f`` applies a directory's files in the order of their
    names (a service before the Deployment that runs it)."""
    return [steps.Document('%02d-%s-%s.yaml' % (index, what,
                                                body['metadata']['name']),
                           body)
            for index, (body, what) in enumerate(pairs, 1)]


def _wait_deployment(name, timeout):
    return ('oc wait --for condition=Ready openstackdataplanedeployment/%s '
            '--timeout=%s' % (name, timeout))


def _wait_nodesets(names):
    return ['oc wait --for condition=Ready osdpns/%s --timeout=30m' % n
            for n in names]


def netconfig_step(document, merged_from, notes):
    if merged_from:
        checks = ['oc get netconfig %s -o yaml: the networks of the report '
                  '(applying fails if the NetConfig changed since %s was '
                  'read: read it again and export again)'
                  % (document['metadata']['name'], merged_from)]
    else:
        checks = ['oc get netconfig: NetConfig %s only (the webhook allows '
                  'one per namespace: where yours exists, this step is '
                  'refused; export again with --netconfig)'
                  % document['metadata']['name']]
    return _step(NETCONFIG, 'The NetConfig the nodes\' addresses come '
                 'from (its IPAM)', upstream.source('compute', '13-80'),
                 _docs((document, 'netconfig')), checks=checks, notes=notes)


def secrets_step(secrets, notes):
    return _step(SECRETS, 'The Secrets of the data plane nodes',
                 upstream.source('compute', '152-218'),
                 _docs(*[(s.document, 'secret') for s in secrets]),
                 checks=['oc get secret %s' % ' '.join(
                     s.name for s in secrets)] if secrets else [],
                 notes=notes, private=True)


def compute_steps(kit, groups, config, nova_services, cleanup_note):
    computes = [g for g in groups if g.kind == plan.COMPUTE]
    if not computes:
        return
    names = [g.name for g in computes]
    kit.add(_step(
        NOVA_CELLS, 'The cells\' Nova configuration and '
        'services', upstream.source('compute', '220-334'),
        _docs((config, 'configmap'), *[(s, 'service')
                                       for s in nova_services])))
    notes = []
    for cell in sorted({g.cell for g in computes}):
        several = [g.name for g in computes if g.cell == cell]
        if len(several) > 1:
            notes.append(
                'Cell %s has NodeSets %s (its roles run different services): '
                'upstream\'s openstack-$CELL loops (the fast-forward '
                'upgrade\'s oc get osdpns openstack-${CELL}, oc wait '
                'osdpns/openstack-$CELL) do not find them; the steps here '
                'name them all' % (cell, ', '.join(several)))
    kit.add(_step(
        COMPUTE_NODESETS, 'The compute cells\' '
        'NodeSets', upstream.source('compute', '364-703'),
        _docs(*[(g.document, 'nodeset') for g in computes]),
        checks=['oc get osdpns %s' % ' '.join(names)], notes=notes))
    pre = documents.deployment(documents.PRE_ADOPTION_DEPLOYMENT, names,
                               [documents.PRE_ADOPTION])
    kit.add(_step(
        PRE_ADOPTION, 'The pre-adoption '
        'validation of the computes', upstream.source('compute', '720-801'),
        _docs((documents.pre_adoption_service(), 'service'),
              (pre, 'deployment')),
        waits=[_wait_deployment(pre['metadata']['name'], '10m')],
        checks=[EE_PODS, 'on a failure, the Ansible log says which check: '
                'hostname (hostName), kernel args (edpm_kernel_args, '
                'edpm_kernel_hugepages) or tuned profile '
                '(edpm_tuned_profile)']))
    cleanup = documents.deployment(documents.CLEANUP_DEPLOYMENT, names,
                                   [documents.CLEANUP])
    kit.add(_step(
        CLEANUP, 'TripleO\'s services stopped on the '
        'computes', upstream.source('compute', '803-831'),
        _docs((documents.cleanup_service(), 'service'),
              (cleanup, 'deployment')),
        waits=[_wait_deployment(cleanup['metadata']['name'], '10m')],
        checks=[EE_PODS], notes=[cleanup_note]))
    adoption = documents.deployment(documents.ADOPTION_DEPLOYMENT, names)
    kit.add(_step(
        COMPUTE_ADOPTION, 'The computes adopted',
        upstream.source('compute', '833-881'), _docs((adoption, 'deployment')),
        waits=_wait_nodesets(names), checks=[EE_PODS, AGENTS]))
    _ffu_step(kit, computes)


def _ffu_step(kit, computes):
    cells = sorted({g.cell for g in computes})
    ffu = [documents.ffu_deployment(cell, [g.name for g in computes
                                           if g.cell == cell])
           for cell in cells]
    patch = ('oc patch cm %s --type=json -p=\'[{"op": "replace", "path": '
             '"/data/%s", "value": "[workarounds]\\n"}]\'' % (
                 documents.CELLS_CONFIG, documents.WORKAROUNDS[0]))
    kit.add(_step(
        FFU, 'The fast-forward upgrade of the computes\' '
        'Nova services', upstream.source('ffu', '32-167'),
        _docs(*[(d, 'deployment') for d in ffu]),
        commands=[patch, 'oc apply -f {dir}/'],
        waits=[_wait_deployment(d['metadata']['name'], '5m') for d in ffu],
        checks=['oc exec -it nova-cell0-conductor-0 -- nova-manage db '
                'online_data_migrations'] + [
            'oc exec -it nova-%s-conductor-0 -- nova-manage db '
            'online_data_migrations' % cell for cell in cells] + [
            'oc rsh nova-cell0-conductor-0 nova-manage cell_v2 '
            'discover_hosts --verbose'],
        notes=['Before: the control plane\'s Nova without the pre-upgrade '
               'workarounds (the procedure\'s oscp-patch.yaml) and Ready '
               '(oc wait --for condition=Ready --timeout=300s Nova/nova); '
               'the Nova data plane services\' version updated in every '
               'cell (the procedure\'s query returns nothing).']))


def networker_steps(kit, groups, with_service):
    networkers = [g for g in groups if g.kind == plan.NETWORKER]
    if not networkers:
        return
    names = [g.name for g in networkers]
    kit.add(_step(
        NETWORKER_NODESETS, 'The networkers\' '
        'NodeSet', upstream.source('networker', '62-336'),
        _docs(*[(g.document, 'nodeset') for g in networkers]),
        checks=['oc get osdpns %s' % ' '.join(names)]))
    pre = documents.deployment(documents.NETWORKER_PRE_ADOPTION, names,
                               [documents.PRE_ADOPTION])
    pairs = [(pre, 'deployment')]
    if with_service:
        pairs.insert(0, (documents.pre_adoption_service(), 'service'))
    docs = _docs(*pairs)
    kit.add(_step(
        NETWORKER_PRE_ADOPTION, 'The pre-adoption '
        'validation of the networkers',
        upstream.source('networker', '338-370'), docs,
        waits=[_wait_deployment(pre['metadata']['name'], '10m')],
        checks=[EE_PODS]))
    adoption = documents.deployment(documents.NETWORKER_DEPLOYMENT, names)
    kit.add(_step(
        NETWORKER_ADOPTION, 'The networkers adopted '
        '(no tripleo-cleanup: the procedure never runs it on networkers)',
        upstream.source('networker', '372-449'),
        _docs((adoption, 'deployment')), waits=_wait_nodesets(names),
        checks=[EE_PODS, AGENTS + ': delete the agents that stay XXX and '
                'whose work moved (openstack network agent delete <id>)']))
