"""The OpenStackControlPlane webhooks' defaulting and rules."""

import copy

import pytest

from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso.controlplane import patch
from tripleo_ephemeral.rhoso.controlplane import schemas
from tripleo_ephemeral.rhoso.controlplane import webhooks

VERSIONS = ('18.0-fr2', '18.0-fr6')
#: proc_deploying-backend-services.adoc's document, as the page gives it.
PROCEDURE = {
    'secret': 'osp-secret', 'storageClass': 'local-storage',
    'barbican': {'enabled': False, 'template': {
        'barbicanAPI': {}, 'barbicanWorker': {},
        'barbicanKeystoneListener': {}}},
    'cinder': {'enabled': False, 'template': {
        'cinderAPI': {}, 'cinderScheduler': {}, 'cinderBackup': {},
        'cinderVolumes': {}}},
    'glance': {'enabled': False, 'template': {'glanceAPIs': {}}},
    'heat': {'enabled': False, 'template': {}},
    'keystone': {'enabled': False, 'template': {}},
    'galera': {'enabled': True, 'templates': {'openstack': {
        'secret': 'osp-secret', 'replicas': 3, 'storageRequest': '5G'}}},
    'memcached': {'enabled': True, 'templates': {'memcached': {
        'replicas': 3}}},
    'neutron': {'enabled': False, 'template': {}},
    'nova': {'enabled': False, 'template': {}},
    'ovn': {'enabled': False, 'template': {
        'ovnController': {'networkAttachment': 'tenant'},
        'ovnNorthd': {'replicas': 0},
        'ovnDBCluster': {'ovndbcluster-nb': {
            'replicas': 3, 'dbType': 'NB', 'networkAttachment': 'internalapi'},
        }}},
    'placement': {'enabled': False, 'template': {}},
    'rabbitmq': {'templates': {'rabbitmq': {}}},
    'telemetry': {'enabled': False},
}


def checked(version, spec, old=None):
    bundle = schemas.load(version)
    kind = bundle.kinds[patch.KIND]
    document = webhooks.mutated(kind.openapi, kind.defaulted(
        patch.control_plane(copy.deepcopy(spec))))
    return (schema.check(bundle, document, 'doc') +
            webhooks.check('doc', document, old))


@pytest.mark.parametrize('version', VERSIONS)
def test_the_procedures_document_passes_as_the_webhook_writes_it(version):
    assert checked(version, PROCEDURE) == []
    bundle = schemas.load(version)
    raw = schema.check(bundle, patch.control_plane(PROCEDURE), 'doc')
    # without the defaulting webhook's round trip it would not
    assert any(p.path == 'spec.keystone.template' for p in raw)


@pytest.mark.parametrize('version', VERSIONS)
def test_dependencies(version):
    spec = copy.deepcopy(PROCEDURE)
    spec['nova'] = {'enabled': True, 'template': {
        'secret': 'osp-secret', 'cellTemplates': {'cell0': {}}}}
    found = checked(version, spec)
    assert [p.path for p in found] == ['spec.nova.enabled']
    assert found[0].message == (
        'nova requires these services to be enabled: galera, memcached, '
        'rabbitmq, keystone, placement, neutron, glance')


def test_names_and_cells():
    spec = copy.deepcopy(PROCEDURE)
    spec['galera']['templates']['x' * 50] = {'secret': 'osp-secret',
                                             'storageRequest': '5G'}
    spec['nova'] = {'enabled': True, 'template': {
        'secret': 'osp-secret', 'cellTemplates': {
            'cell1': {'cellMessageBusInstance': 'rabbitmq-cell1'},
            'cell2': {'cellMessageBusInstance': 'rabbitmq-cell1'}}}}
    for name in ('keystone', 'glance', 'placement', 'neutron'):
        spec[name]['enabled'] = True
    spec['glance']['template'] = {
        'glanceAPIs': {'default': {'replicas': 1}},
        'keystoneEndpoint': 'other',
        'customServiceConfig': '[DEFAULT]\nenabled_backends=b:file\n'}
    messages = {(p.path, p.message) for p in checked('18.0-fr6', spec)}
    assert ('spec.galera.templates[%s]' % ('x' * 50), '%r must be a DNS '
            'label of at most 46 characters (the StatefulSet\'s revision '
            'label)' % ('x' * 50)) in messages
    assert ('spec.nova.template.cellTemplates', 'cell0 specification is '
            'missing, cell0 key is required in cellTemplates') in messages
    assert any('duplicated with cell: cell1' in m for _, m in messages)
    assert ('spec.glance.template.keystoneEndpoint', 'KeystoneEndpoint is '
            'assigned to an invalid GlanceAPI instance (\'other\')') in \
        messages
    assert any(m.startswith('The GlanceAPI layout type: split cannot')
               for _, m in messages)


def test_layout_cannot_change():
    spec = {'glance': {'template': {'glanceAPIs': {
        'default': {'type': 'single'}}}}}
    old = {'glance': {'template': {'glanceAPIs': {
        'default': {'type': 'split'}}}}}
    found = webhooks.check('doc', {'spec': spec}, old)
    assert [p.message for p in found if 'layout' in p.message] == [
        'The GlanceAPI layout (type) cannot be modified']


def test_override_keys():
    spec = {'keystone': {'template': {'override': {'service': {
        'admin': {}}}}}}
    found = webhooks.check('doc', {'spec': spec})
    assert [(p.path, p.message) for p in found] == [
        ('spec.keystone.template.override.service[admin]',
         'invalid endpoint type \'admin\'')]
