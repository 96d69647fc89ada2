"""Adopting the Image service on the back end TripleO gave it.

``GlanceBackend`` (hiera ``glance_backend``) picks the page:
``proc_adopting-image-service-with-ceph-backend.adoc`` (rbd: pool and user
from ``GlanceRbdPoolName`` and ``CephClientUserName``; the Ceph Secret and
``extraMounts`` come first, :mod:`.ceph_backend`),
``..._with-object-storage-backend.adoc`` (swift: the service's own
credentials through the operator's template variables),
``..._with-block-storage-backend.adoc`` (cinder) and
``..._with-nfs-backend.adoc`` (file with ``GlanceNfsEnabled``: the share
of the Controller's host preparation task, mounted by ``extraMounts``, on a
``single`` API, which file back ends need). The store's id and
description (``GlanceBackendID``, ``GlanceStoreDescription``) and the API
settings carried are TripleO's. A multi-store (``GlanceMultistoreConfig``)
is the operator's to write.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGES = {'rbd': 'proc_adopting-image-service-with-ceph-backend.adoc',
         'swift': 'proc_adopting-image-service-with-object-storage-backend'
                  '.adoc',
         'cinder': 'proc_adopting-image-service-with-block-storage-backend'
                   '.adoc',
         'file': 'proc_adopting-image-service-with-nfs-backend.adoc'}
PROFILE = 'tripleo::profile::base::glance::api::'
#: back end -> (option, hiera key, THT parameter) or (option, None, the
#: procedure's value)
BACKEND_OPTIONS = {
    'rbd': (('rbd_store_ceph_conf', None, '/etc/ceph/ceph.conf'),
            ('rbd_store_user', 'glance::backend::rbd::rbd_store_user',
             'CephClientUserName'),
            ('rbd_store_pool', 'glance::backend::rbd::rbd_store_pool',
             'GlanceRbdPoolName')),
    'swift': (('swift_store_create_container_on_put', None, 'True'),
              ('swift_store_auth_version', None, '3'),
              ('swift_store_auth_address', None, '{{ .KeystoneInternalURL }}'),
              ('swift_store_endpoint_type', None, 'internalURL'),
              ('swift_store_user', None, 'service:glance'),
              ('swift_store_key', None, '{{ .ServicePassword }}')),
    'cinder': (('cinder_store_auth_address', None,
                '{{ .KeystoneInternalURL }}'),
               ('cinder_store_user_name', None, '{{ .ServiceUser }}'),
               ('cinder_store_password', None, '{{ .ServicePassword }}'),
               ('cinder_store_project_name', None, 'service'),
               ('cinder_catalog_info', None, 'volumev3::internalURL'),
               ('cinder_use_multipath',
                'glance::backend::cinder::cinder_use_multipath', None)),
    'file': (('filesystem_store_datadir', None, '/var/lib/glance/images/'),),
}
API_OPTIONS = (
    ('DEFAULT', 'enabled_import_methods',
     'glance::api::enabled_import_methods', 'GlanceEnabledImportMethods'),
    ('DEFAULT', 'image_member_quota', 'glance::api::image_member_quota',
     'GlanceImageMemberQuota'),
    ('image_conversion', 'output_format',
     'glance::api::image_conversion_output_format',
     'GlanceImageConversionOutputFormat'),
)


def nfs_share(deployment, role):
    """``(share, options)`` of the role's Glance NFS mount, or None."""
    path = os.path.join(deployment.config_dir, role.name,
                        'host_prep_tasks.yaml')
    if not os.path.isfile(path):
        return None
    tasks = yamlfile.load(path, 'config-download tasks file',
                          exceptions.RhosoExportError, strict=False) or []
    for task in tasks if isinstance(tasks, list) else []:
        found = (task or {}).get('vars') or {}
        if 'nfs_backend_enabled' in found:
            if found.get('nfs_backend_enabled') and found.get(
                    'glance_nfs_share'):
                return found['glance_nfs_share'], found.get('nfs_options')
            return None
    return None


def build(deployment, role, endpoints, replicas):
    """The :class:`~.patch.Patch` of the Image service."""
    backend = role.config('glance_backend') or 'file'
    share = nfs_share(deployment, role) if backend == 'file' else None
    config = ini.Config(role)
    backend_id = role.config(PROFILE + 'glance_backend_id') or \
        'default_backend'
    config.set('DEFAULT', 'enabled_backends', '%s:%s' % (backend_id, backend),
               'GlanceBackendID and GlanceBackend, from hiera %s'
               'glance_backend_id and glance_backend (group_vars/%s)'
               % (PROFILE, role.name))
    config.set('glance_store', 'default_backend', backend_id,
               'GlanceBackendID, from hiera %sglance_backend_id '
               '(group_vars/%s)' % (PROFILE, role.name))
    for option, key, value in BACKEND_OPTIONS.get(backend, ()):
        if key:
            config.hiera(backend_id, option, key, value)
        else:
            config.set(backend_id, option, value,
                       'the procedure\'s value (%s)' % PAGES[backend].split(
                           '.')[0])
    config.hiera(backend_id, 'store_description',
                 PROFILE + 'glance_store_description',
                 'GlanceStoreDescription')
    for section, option, key, parameter in API_OPTIONS:
        config.hiera(section, option, key, parameter)
    api = {'replicas': replicas, 'networkAttachments': [endpoints.storage]}
    if 'internal' in endpoints.addresses:
        api['override'] = {'service': endpoints.internal_override()}
    if backend == 'file':
        api['type'] = 'single'
    template = {'databaseInstance': 'openstack', 'secret': 'osp-secret',
                'customServiceConfig': config.text(),
                'storage': {'storageRequest': '10G'},
                'keystoneEndpoint': 'default',
                'glanceAPIs': {'default': api}}
    spec = {'glance': {'enabled': True,
                       'apiOverrides': {'default': {'route': {}}},
                       'template': template}}
    inputs, values = [], [('spec.glance.template.glanceAPIs.default.replicas',
                           replicas, 'the operator (--replicas)')]
    if backend == 'file' and share:
        server, _, export = share.partition(':')
        spec['extraMounts'] = [{'name': 'r1', 'region': 'r1', 'extraVol': [{
            'extraVolType': 'Nfs', 'propagation': ['Glance'],
            'volumes': [{'name': 'nfs', 'nfs': {'server': server,
                                                'path': export}}],
            'mounts': [{'name': 'nfs',
                        'mountPath': '/var/lib/glance/images'}]}]}]
        values.append(('spec.extraMounts (NFS)', share, 'GlanceNfsShare, '
                       'from the host preparation task of %s' % role.name))
    elif backend == 'file':
        inputs.append('TripleO kept images on the controllers\' disks '
                      '(GlanceBackend file, no NFS): copy them to the new '
                      'store, or move them to another back end first')
    if role.config(PROFILE + 'multistore_config'):
        inputs.append('GlanceMultistoreConfig has more stores: add them to '
                      'customServiceConfig and enabled_backends by hand')
    return patch_mod.Patch('glance', 'glance', spec, PAGES.get(
        backend, PAGES['rbd']),
        configs={'spec.glance.template.customServiceConfig': config},
        inputs=inputs, values=values,
        after=['oc wait --for condition=Ready --timeout=300s '
               'OpenStackControlPlane openstack'])
