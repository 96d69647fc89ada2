"""The bundled CRD schemas, checked as the API server would."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import schema


def nodeset(**spec):
    base = {'nodeTemplate': {'ansibleSSHPrivateKeySecret': 'key',
                             'ansible': {'ansibleUser': 'tripleo-admin',
                                         'ansibleVars': {'any': {'x': 1}}}},
            'nodes': {'c0': {'hostName': 'c0.localdomain',
                             'ansible': {'ansibleHost': '192.0.2.20'},
                             'networks': [{'name': 'ctlplane',
                                           'subnetName': 'subnet1',
                                           'fixedIP': '192.0.2.20'}]}}}
    base.update(spec)
    return {'apiVersion': 'dataplane.openstack.org/v1beta1',
            'kind': 'OpenStackDataPlaneNodeSet',
            'metadata': {'name': 'openstack-cell1'}, 'spec': base}


def test_versions_are_bundled_with_their_source():
    assert schema.versions()[:2] == ['18.0-fr2', '18.0-fr6']
    assert schema.default_version() == schema.versions()[-1]
    bundle = schema.load('18.0-fr6')
    source = bundle.kinds['OpenStackDataPlaneNodeSet'].source
    assert source['repository'].endswith('openstack-operator')
    assert len(source['commit']) == 40
    assert source['path'] == ('api/bases/dataplane.openstack.org_'
                              'openstackdataplanenodesets.yaml')
    assert schema.load('18.0-fr2').kinds['NetConfig'].source[
        'path'].startswith('apis/bases/')
    assert 'nova' in bundle.default_services


def test_unknown_version():
    with pytest.raises(exceptions.RhosoExportError,
                       match='choose one of 18.0-fr2'):
        schema.load('17.1')


@pytest.mark.parametrize('version', ['18.0-fr2', '18.0-fr6'])
def test_valid_nodeset(version):
    assert schema.check(schema.load(version), nodeset(), 'ns') == []


def test_unknown_field_is_refused_with_its_path():
    doc = nodeset()
    doc['spec']['nodes']['c0']['ansible']['ansibleHots'] = 'typo'
    found = schema.check(schema.load('18.0-fr6'), doc, 'ns.yaml')
    assert [(p.path, p.message) for p in found] == [
        ('spec.nodes.c0.ansible.ansibleHots', 'unknown field "ansibleHots"')]
    assert 'ansibleHost' in found[0].fix


def test_preserved_fields_take_anything_but_metadata_is_strict():
    doc = nodeset()
    doc['metadata']['labels'] = {'a': 'b'}
    assert schema.check(schema.load('18.0-fr2'), doc, 'ns') == []
    doc['metadata']['uid'] = 'x'
    assert schema.check(schema.load('18.0-fr2'), doc, 'ns')[0].path == \
        'metadata.uid'


def test_required_and_types():
    doc = nodeset()
    del doc['spec']['nodeTemplate']['ansibleSSHPrivateKeySecret']
    doc['spec']['nodes']['c0']['networks'][0]['subnetName'] = 7
    found = schema.check(schema.load('18.0-fr6'), doc, 'ns')
    assert {(p.path, p.fix.split(' ')[0]) for p in found} == {
        ('spec.nodeTemplate', 'add'),
        ('spec.nodes.c0.networks[0].subnetName', 'write')}


def test_defaults_are_applied_before_checking():
    kind = schema.load('18.0-fr6').kinds['NetConfig']
    doc = {'apiVersion': 'network.openstack.org/v1beta1',
           'kind': 'NetConfig', 'metadata': {'name': 'n'},
           'spec': {'networks': [{'name': 'ctlplane', 'dnsDomain': 'c.x.com',
                                  'subnets': [{'name': 'subnet1', 'cidr':
                                               '192.0.2.0/24',
                                               'allocationRanges': []}]}]}}
    assert kind.defaulted(doc)['spec']['networks'][0]['mtu'] == 1500
    assert 'mtu' not in doc['spec']['networks'][0]
    doc['spec']['networks'][0]['subnets'][0]['vlan'] = 5000
    found = schema.check(schema.load('18.0-fr6'), doc, 'nc')
    assert [p.path for p in found] == ['spec.networks[0].subnets[0].vlan']


def test_wrong_api_version_and_kind():
    doc = nodeset()
    doc['apiVersion'] = 'dataplane.openstack.org/v1'
    assert 'v1beta1' in schema.check(schema.load('18.0-fr6'), doc,
                                     'ns')[0].fix
    doc['kind'] = 'Pod'
    assert schema.check(schema.load('18.0-fr6'), doc, 'ns')[0].path == 'kind'


def test_core_secret():
    secret = {'apiVersion': 'v1', 'kind': 'Secret',
              'metadata': {'name': 'osp-secret'}, 'type': 'Opaque',
              'data': {'AdminPassword': 'c2VjcmV0'}}
    bundle = schema.load('18.0-fr6')
    assert schema.check(bundle, secret, 's') == []
    secret['data']['AdminPassword'] = 'not base64!'
    assert schema.check(bundle, secret, 's')[0].path == 'data.AdminPassword'
