"""The control plane of a small work dir: valid at both bundled versions;
what a hand edit breaks is one problem row each."""

import copy

import pytest

from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso.controlplane import inputs as inputs_mod
from tripleo_ephemeral.rhoso.controlplane import kit
from tripleo_ephemeral.rhoso.controlplane import validation
from tripleo_ephemeral.tests.unit.rhoso.controlplane import conftest

VERSIONS = ('18.0-fr2', '18.0-fr6')
WORKERS = {'worker-0': 'enp6s0', 'worker-1': 'enp6s0'}


@pytest.fixture
def built(wd):
    return export.build(wd, plan.choices('18.0-fr6', **conftest.CHOICES),
                        inputs_mod.inputs(workers=WORKERS))


def test_valid_at_both_versions(built):
    cp = built.controlplane
    assert [s.directory for s in cp.steps] == [
        '10-nncp', '11-networks', '12-metallb', '20-controlplane-secrets',
        '21-backend-services', '22-ceph-backend', '23-stop-services',
        '30-database-migration', '31-ovn-databases', '32-ovn-northd',
        '40-keystone', '41-neutron', '42-glance', '43-placement', '44-nova',
        '45-cinder-api', '46-cinder', '47-horizon', '48-heat']
    assert [s.directory for s in built.kit.steps()][:len(cp.steps)] == [
        s.directory for s in cp.steps]
    for version in VERSIONS:
        found, states, provenance = built.controlplane_results[version]
        assert found == []
        assert states == 13  # created, then 12 patches
        assert set(provenance) == {
            'IPAddressPool', 'L2Advertisement', 'NetworkAttachmentDefinition',
            'NodeNetworkConfigurationPolicy', 'OpenStackControlPlane',
            'Secret'}


def rerun(cp, edit):
    documents = [(p, copy.deepcopy(d)) for p, d in kit.documents(cp)]
    patches = copy.deepcopy(kit.patches(cp))
    edit(documents, patches)
    return validation.check(documents, patches, '18.0-fr6')[0]


def patch_of(patches, name):
    return next(p for where, p in patches if where.endswith(name))


@pytest.mark.parametrize('edit, expected', [
    (lambda d, p: patch_of(p, 'neutron.patch')['spec']['neutron'][
        'template'].update(customServiceConfig='[ml2\nx = 1\n'),
     ('41-neutron/neutron.patch',
      'spec.neutron.template.customServiceConfig', 'ini')),
    (lambda d, p: patch_of(p, 'keystone.patch')['spec']['keystone'][
        'template'].update(tokenLifetime=5),
     ('40-keystone/keystone.patch', 'spec.keystone.template.tokenLifetime',
      'schema')),
    (lambda d, p: p.insert(0, p.pop(next(
        i for i, (w, _) in enumerate(p) if w.endswith('nova.patch')))),
     ('44-nova/nova.patch', 'spec.nova.enabled', 'webhook')),
    (lambda d, p: next(doc for w, doc in d if w.endswith(
        'ipaddresspool-tenant.yaml'))['spec'].update(
            addresses=['172.17.0.195-172.17.0.196']),
     ('12-metallb/ipaddresspool-tenant.yaml', 'spec.addresses', 'webhook')),
])
def test_a_broken_edit_is_one_problem(built, edit, expected):
    found = rerun(built.controlplane, edit)
    assert (found[0].document, found[0].path, found[0].rule) == expected


def test_work_dir_checks(built, deployment):
    cp = built.controlplane
    patches = [(w, p) for w, p in kit.patches(cp)
               if not w.endswith('heat.patch')]
    found = validation.coverage(deployment, patches)
    assert [p.message for p in found] == [
        'TripleO ran heat (heat_api, heat_api_cfn, heat_engine) and no patch '
        'adopts it']
    assert validation.coverage(deployment, patches, frozenset(['heat'])) == []
    netconfig = [(p, d.body) for p, d in built.kit.documents()
                 if d.kind == 'NetConfig']
    assert validation.addresses(deployment, kit.documents(cp) +
                                netconfig) == []
    broken = copy.deepcopy(netconfig)
    broken[0][1]['spec']['networks'][1]['subnets'][0][
        'allocationRanges'].append({'start': '172.17.0.190',
                                    'end': '172.17.0.191'})
    found = validation.addresses(deployment, kit.documents(cp) + broken)
    assert [p.message for p in found] == [
        'the pods range 172.17.0.163-172.17.0.192 overlaps the data plane '
        'range 172.17.0.190-172.17.0.191 of %s' % netconfig[0][0]]
