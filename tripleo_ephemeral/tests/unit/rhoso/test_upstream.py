"""The upstream facts the kit depends on (upstream.yaml), each checked on
an export: a variable, service, step or rule the kit misses fails here,
naming the fact and the upstream lines it came from."""

import copy

import pytest

from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import upstream
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral.tests import rhoso_workdir
from tripleo_ephemeral import workdir

FACTS = upstream.facts()
SRIOV_HIERA = {
    'neutron::agents::ml2::sriov::physical_device_mappings':
        ['sriovnet:ens1f0', 'sriovnet2:ens1f1'],
    'neutron::agents::ml2::sriov::resource_provider_bandwidths':
        ['ens1f0:40000000:40000000'],
    'neutron::agents::ml2::sriov::resource_provider_hypervisors':
        ['ens1f0:overcloud-novacompute-0.localdomain'],
}
REDHAT = plan.RedHat('subscription-manager', 'redhat-registry', '9.2',
                     ('rhel-9-for-x86_64-baseos-eus-rpms',))


@pytest.fixture(scope='module')
def built(tmp_path_factory):
    """An export of computes with hugepages, SR-IOV and Ceph, a networker
    with the metadata agent, downstream."""
    roles = copy.deepcopy(rhoso_workdir.ROLES)
    roles['Compute']['services'] += ['neutron_sriov_agent',
                                     'ceilometer_agent_compute']
    roles['Compute']['hiera'] = dict(SRIOV_HIERA)
    roles['Networker']['services'] += ['ovn_metadata']
    path = rhoso_workdir.write(str(tmp_path_factory.mktemp('wd') / 'wd'),
                               roles=roles, ceph=True)
    return export.build(workdir.WorkDir(path), plan.choices(
        '18.0-fr6', networkers=['Networker'], skipped=['Controller'],
        redhat=REDHAT))


def _nodeset(built, kind):
    group = next(g for g in built.groups if g.kind == kind)
    return group.document


def _vars(nodeset):
    spec = nodeset['spec']
    merged = dict(spec['nodeTemplate']['ansible']['ansibleVars'])
    for node in spec['nodes'].values():
        merged.update((node.get('ansible') or {}).get('ansibleVars') or {})
    return merged


def _id(fact):
    return fact.get('name') or fact.get('id')


@pytest.mark.parametrize('fact', FACTS['variables'], ids=_id)
def test_the_procedures_variables(built, fact):
    for kind, lines in fact['nodesets'].items():
        where = upstream.source(kind, lines).text()
        variables = _vars(_nodeset(built, kind))
        assert fact['name'] in variables, (
            'the %s NodeSet lacks %s (%s)' % (kind, fact['name'], where))
        value = variables[fact['name']]
        if 'value' in fact and not fact.get('carried'):
            assert value == fact['value'], (fact['name'], where)
        for line in fact.get('contains', ()):
            assert line in value, (fact['name'], line, where)


def _expected(names, cell='cell1'):
    return [n.replace('$CELL', cell) for n in names]


def test_the_procedures_services(built):
    services = FACTS['services']
    compute = _nodeset(built, 'compute')['spec']['services']
    down = services['downstream']
    assert compute[0] == down['first']
    expected = _expected(services['compute']['names'])
    ceph = services['compute']['ceph']
    expected.insert(expected.index(ceph['before']), ceph['name'])
    appended = list(services['compute']['appended'])
    assert compute[1:] == expected + appended[:1], (
        upstream.source('compute', services['compute']['lines']).text())
    networker = _nodeset(built, 'networker')['spec']['services']
    assert networker[1:] == services['networker']['names'] + [
        'neutron-metadata'], upstream.source(
            'networker', services['networker']['lines']).text()
    for kind in ('compute', 'networker'):
        assert [v['secretRef']['name'] for v in _nodeset(built, kind)[
            'spec']['nodeTemplate']['ansible']['ansibleVarsFrom']] == \
            down['vars_from']


def _located(built):
    """``(kind, name) -> (step number, document)`` of every document."""
    found = {}
    for step in built.kit.steps():
        for document in step.documents:
            found[(document.kind, document.name)] = (
                step.number, document.body)
    return found


def test_the_procedures_steps_in_order(built):
    located = _located(built)
    nodesets = {kind: [g.name for g in built.groups if g.kind == kind]
                for kind in ('compute', 'networker')}
    numbers = []
    for fact in FACTS['steps']:
        where = upstream.source(fact['source'], fact['lines']).text()
        key = (fact['kind'], fact.get('name', '').replace('$CELL', 'cell1'))
        if fact['kind'] == 'NetConfig':
            key = ('NetConfig', built.netconfig['metadata']['name'])
        if fact['kind'] == 'OpenStackDataPlaneNodeSet':
            key = (key[0], nodesets['compute' if '$CELL' in fact['name']
                                    else 'networker'][0])
        assert key in located, 'the kit lacks %s %s (%s)' % (key + (where,))
        number, document = located[key]
        numbers.append(number)
        spec = document.get('spec') or {}
        if 'nodeSets' in fact:
            assert spec['nodeSets'] == nodesets[fact['nodeSets']], where
        if 'servicesOverride' in fact:
            assert spec['servicesOverride'] == _expected(
                fact['servicesOverride']), where
    assert numbers == sorted(numbers), 'the steps are not in the ' \
        'procedure\'s order: %s' % numbers


def test_the_cleanup_runs_on_the_computes_only(built):
    cleanup = FACTS['cleanup']
    located = _located(built)
    _, document = located[('OpenStackDataPlaneDeployment', 'tripleo-cleanup')]
    assert document['spec']['nodeSets'] == [
        g.name for g in built.groups if g.kind == cleanup['nodeSets']]


def _documents(built):
    return copy.deepcopy(export.documents(built))


def _find(documents, kind, name=None):
    return next(d for _, d in documents if d.get('kind') == kind and (
        name is None or d['metadata']['name'] == name))


def _node(documents):
    nodeset = _find(documents, 'OpenStackDataPlaneNodeSet', 'openstack-cell1')
    return nodeset, nodeset['spec']['nodes']['overcloud-novacompute-0']


def _subnet(documents, network='internalapi'):
    netconfig = _find(documents, 'NetConfig')
    return next(n for n in netconfig['spec']['networks']
                if n['name'] == network)['subnets'][0]


def _second_nodeset(documents):
    nodeset, node = _node(documents)
    other = copy.deepcopy(nodeset)
    other['metadata']['name'] = 'openstack-cell9'
    documents.append(('other.yaml', other))


#: Each rule of upstream.yaml broken on a valid export; None: a rule of
#: an update (the kit's own shape keeps it, tested elsewhere).
BREAK = {
    'nodeset-name-rfc1123': lambda d: _node(d)[0]['metadata'].update(
        name='x' * 64),
    'nodeset-volume-dns-label': lambda d: _node(d)[0]['spec'][
        'nodeTemplate']['extraMounts'][0]['volumes'][0].update(name='Ceph_'),
    'nodeset-ansiblehost-ip': lambda d: _node(d)[1]['ansible'].update(
        ansibleHost='compute-0.example.com'),
    'nodeset-duplicate-node': _second_nodeset,
    'deployment-spec-immutable': None,
    'service-artifact': lambda d: _find(
        d, 'OpenStackDataPlaneService', 'nova-cell1')['spec'].pop(
            'playbook'),
    'netconfig-only-one': lambda d: d.append(('second.yaml', dict(
        _find(d, 'NetConfig'), metadata={'name': 'second'}))),
    'netconfig-unique-name': lambda d: _find(d, 'NetConfig')['spec'][
        'networks'].append(dict(_find(d, 'NetConfig')['spec']['networks'][
            1], subnets=[])),
    'netconfig-dns-domain': lambda d: _find(d, 'NetConfig')['spec'][
        'networks'][1].update(dnsDomain='internalapi.localdomain.'),
    'netconfig-unique-subnet-name': lambda d: _find(d, 'NetConfig')['spec'][
        'networks'][1]['subnets'].append(dict(_subnet(d), cidr='10.9.0.0/24',
                                              allocationRanges=[])),
    'netconfig-unique-cidr': lambda d: _find(d, 'NetConfig')['spec'][
        'networks'][2]['subnets'][0].update(cidr='172.17.0.0/24'),
    'netconfig-address-in-cidr': lambda d: _subnet(d).update(
        gateway='10.1.1.1'),
    'netconfig-range-start-before-end': lambda d: _subnet(d).update(
        allocationRanges=[{'start': '172.17.0.100', 'end': '172.17.0.100'}]),
    'netconfig-update-keeps-subnets': None,
    'ipam-fixedip-not-excluded': lambda d: _subnet(d).setdefault(
        'excludeAddresses', []).append('172.17.0.20'),
}


@pytest.mark.parametrize('fact', FACTS['rules'], ids=_id)
def test_the_webhook_rules(built, fact):
    where = upstream.source(fact['source'], fact['lines']).text()
    assert fact['id'] in BREAK, 'no case breaks rule %s (%s)' % (
        fact['id'], where)
    if BREAK[fact['id']] is None:
        return
    documents = _documents(built)
    assert validate.check(documents, '18.0-fr6').problems == []
    BREAK[fact['id']](documents)
    found = validate.check(documents, '18.0-fr6').problems
    assert [p for p in found if p.rule in ('webhook', 'ipam', 'schema')], \
        'rule %s (%s) is not enforced' % (fact['id'], where)


def test_a_deployments_nodesets_are_never_added_later(built):
    """The Deployment spec is immutable: the networkers have their own."""
    located = _located(built)
    compute = located[('OpenStackDataPlaneDeployment', 'openstack')][1]
    networker = located[('OpenStackDataPlaneDeployment',
                         'openstack-networker')][1]
    assert set(compute['spec']['nodeSets']).isdisjoint(
        networker['spec']['nodeSets'])


def test_the_report_puts_each_variable_beside_its_line(built):
    from tripleo_ephemeral.rhoso import report_steps
    rows = [line for line in report_steps.procedure_lines(built)
            if line.startswith('| compute') or line.startswith(
                '| networker')]
    assert len(rows) == sum(len(f['nodesets']) for f in FACTS['variables'])
    assert not [r for r in rows if r.endswith('| missing |')]
    assert '| compute 545-549 | edpm_bootstrap_command | openstack-cell1 |' \
        in '\n'.join(rows)
