"""Adopting the Block Storage service with the back ends TripleO ran.

``proc_adopting-the-block-storage-service.adoc`` applies two patches: the
API alone (scheduler, backup and volumes at 0 replicas), then, after the
source cloud's services that are down are removed with ``cinder-manage
service remove``, the scheduler, backup and one volume service per back
end, each back end under the section name it had in TripleO's
``cinder.conf`` (``CinderRbdBackendName``: ``tripleo_ceph``;
``CinderNfsBackendName``: ``tripleo_nfs``) and with TripleO's
``backend_host`` (``hostgroup``), so the volumes keep their host. LVM
(``CinderEnableIscsiBackend``) and third-party back ends need the
operator: their storage and secrets are not in the work dir.
"""

from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGE = 'proc_adopting-the-block-storage-service.adoc'
VOLUME = 'tripleo::profile::base::cinder::volume::'
RBD = VOLUME + 'rbd::'
NFS = VOLUME + 'nfs::'
BACKUP = 'cinder::backup::ceph::'
#: (cinder.conf option, hiera key under RBD/NFS, THT parameter)
RBD_OPTIONS = (
    ('rbd_ceph_conf', 'cinder_rbd_ceph_conf', None),
    ('rbd_user', 'cinder_rbd_user_name', 'CephClientUserName'),
    ('rbd_pool', 'cinder_rbd_pool_name', 'CinderRbdPoolName'),
    ('rbd_secret_uuid', 'cinder_rbd_secret_uuid', 'CephClusterFSID'),
    ('rbd_flatten_volume_from_snapshot',
     'cinder_rbd_flatten_volume_from_snapshot',
     'CinderRbdFlattenVolumeFromSnapshot'))
NFS_OPTIONS = (
    ('nfs_mount_options', 'cinder_nfs_mount_options', 'CinderNfsMountOptions'),
    ('nfs_snapshot_support', 'cinder_nfs_snapshot_support',
     'CinderNfsSnapshotSupport'),
    ('nas_secure_file_operations', 'cinder_nas_secure_file_operations',
     'CinderNasSecureFileOperations'),
    ('nas_secure_file_permissions', 'cinder_nas_secure_file_permissions',
     'CinderNasSecureFilePermissions'))


def _first(value):
    return value[0] if isinstance(value, (list, tuple)) and value else value


def _rbd(role):
    name = _first(role.config(RBD + 'backend_name')) or 'tripleo_ceph'
    config = ini.Config(role)
    config.hiera(name, 'backend_host', 'cinder::backends::backend_host')
    config.set(name, 'volume_backend_name', name, 'CinderRbdBackendName, '
               'from hiera %sbackend_name' % RBD)
    config.set(name, 'volume_driver', 'cinder.volume.drivers.rbd.RBDDriver',
               'the driver of TripleO\'s rbd back end')
    for option, key, parameter in RBD_OPTIONS:
        config.hiera(name, option, RBD + key, parameter,
                     skip_empty=option != 'rbd_flatten_volume_from_snapshot')
    config.set(name, 'report_discard_supported', True, 'the procedure\'s '
               'value (TripleO\'s rbd back end reports discards)')
    return 'ceph', config


def _nfs(role):
    name = _first(role.config(NFS + 'backend_name')) or 'tripleo_nfs'
    config = ini.Config(role)
    config.hiera(name, 'backend_host', 'cinder::backends::backend_host')
    config.set(name, 'volume_backend_name', name, 'CinderNfsBackendName, '
               'from hiera %sbackend_name' % NFS)
    config.set(name, 'volume_driver', 'cinder.volume.drivers.nfs.NfsDriver',
               'the driver of TripleO\'s nfs back end')
    servers = role.config(NFS + 'cinder_nfs_servers') or []
    if servers:
        host, _, path = str(servers[0]).partition(':')
        config.set(name, 'nas_host', host, 'CinderNfsServers, from hiera '
                   '%scinder_nfs_servers' % NFS)
        config.set(name, 'nas_share_path', path, 'CinderNfsServers, from '
                   'hiera %scinder_nfs_servers' % NFS)
    for option, key, parameter in NFS_OPTIONS:
        config.hiera(name, option, NFS + key, parameter, skip_empty=False)
    return 'nfs', config, len(servers)


def build(deployment, role, endpoints):
    """The two :class:`~.patch.Patch` of the Block Storage service."""
    storage = [endpoints.storage]
    api_config = ini.Config(role)
    api_config.hiera('DEFAULT', 'default_volume_type',
                     'cinder::api::default_volume_type',
                     'CinderDefaultVolumeType')
    api = {'replicas': 1, 'customServiceConfig': api_config.text()}
    if 'internal' in endpoints.addresses:
        api['override'] = {'service': endpoints.internal_override()}
    template = {'databaseInstance': 'openstack', 'databaseAccount': 'cinder',
                'secret': 'osp-secret', 'cinderAPI': api,
                'cinderScheduler': {'replicas': 0},
                'cinderBackup': {'networkAttachments': storage,
                                 'replicas': 0},
                'cinderVolumes': {}}
    first = patch_mod.Patch(
        'cinder', 'cinder-api', {'cinder': {
            'enabled': True, 'apiOverride': {'route': {}},
            'template': template}}, PAGE,
        configs={'spec.cinder.template.cinderAPI.customServiceConfig':
                 api_config},
        after=['openstack volume service list',
               '# for each service of the source cloud that is down: oc exec '
               '-t cinder-api-0 -c cinder-api -- cinder-manage service '
               'remove <binary> <host>'])
    volumes, configs, inputs = {}, {}, []
    if role.config(VOLUME + 'cinder_enable_rbd_backend'):
        name, config = _rbd(role)
        volumes[name] = config
    if role.config(VOLUME + 'cinder_enable_nfs_backend'):
        name, config, servers = _nfs(role)
        volumes[name] = config
        if servers != 1:
            inputs.append('CinderNfsServers lists %d shares; the NFS driver '
                          'takes one nas_host/nas_share_path: write the '
                          'others as more back ends' % servers)
    if role.config(VOLUME + 'cinder_enable_iscsi_backend'):
        inputs.append('The LVM back end (CinderEnableIscsiBackend) keeps '
                      'volumes on the controllers\' disks: migrate them to '
                      'another back end first; it is not adopted')
    services = {'cinderScheduler': {'replicas': 1}, 'cinderVolumes': {}}
    for name, config in volumes.items():
        services['cinderVolumes'][name] = {
            'networkAttachments': storage, 'replicas': 1,
            'customServiceConfig': config.text()}
        configs['spec.cinder.template.cinderVolumes.%s.customServiceConfig'
                % name] = config
    backups = any('cinder_backup' in r.services
                  for r in deployment.roles.values())
    if backups and not role.config(BACKUP + 'backup_ceph_pool'):
        inputs.append('cinder-backup runs with a back end other than Ceph '
                      '(CinderBackupBackend): write cinderBackup\'s '
                      'customServiceConfig by hand')
    elif backups:
        backup = ini.Config(role)
        backup.set('DEFAULT', 'backup_driver',
                   'cinder.backup.drivers.ceph.CephBackupDriver',
                   'CinderBackupBackend ceph (hiera %s*)' % BACKUP)
        for option, parameter in (('backup_ceph_conf', None),
                                  ('backup_ceph_user', 'CephClientUserName'),
                                  ('backup_ceph_pool',
                                   'CinderBackupRbdPoolName')):
            backup.hiera('DEFAULT', option, BACKUP + option, parameter)
        services['cinderBackup'] = {'networkAttachments': storage,
                                    'replicas': 1,
                                    'customServiceConfig': backup.text()}
        configs['spec.cinder.template.cinderBackup.customServiceConfig'] = \
            backup
    second = patch_mod.Patch(
        'cinder', 'cinder-services', {'cinder': {
            'enabled': True, 'template': services}}, PAGE, configs=configs,
        inputs=inputs, after=['openstack volume service list'])
    return [first, second]
