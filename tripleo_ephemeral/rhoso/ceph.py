"""Computes on Ceph: the ``ceph-conf-files`` Secret and Nova's Ceph
configuration, from what TripleO left.

A compute role is on Ceph when it runs ``ceph_client`` or its Nova uses
rbd. cephadm's client configuration (``ceph_client.yml``: fsid, cluster,
monitors, cephx keys) is in the work dir, or in config-download's
``cephadm/`` (THT's ``CephClientConfigVars``); Nova's pool, user and
secret are in the role's hiera. The procedure's ``03-ceph-nova.conf``
hard-codes pool ``vms`` and user ``openstack``; here they are TripleO's.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import services

SECRET = 'ceph-conf-files'
SERVICE = services.CEPH
CLIENT_VARS = ('ceph_client.yml', os.path.join('cephadm', 'ceph_client.yml'))
RBD = 'nova::compute::rbd::'
NOVA_CONF = '03-ceph-nova.conf'
#: The NodeSet's extraMounts that put the Secret in /etc/ceph.
EXTRA_MOUNTS = [{'extraVolType': 'Ceph',
                 'volumes': [{'name': 'ceph',
                              'secret': {'secretName': SECRET}}],
                 'mounts': [{'name': 'ceph', 'mountPath': '/etc/ceph',
                             'readOnly': True}]}]


def uses_ceph(role):
    return services.uses_ceph(role)


def client_vars(deployment):
    """``(path, data)`` of cephadm's client configuration, or
    ``(None, None)``."""
    for name in CLIENT_VARS:
        base = deployment.config_dir if os.sep in name else \
            deployment.workdir.path
        path = os.path.join(base, name)
        if os.path.isfile(path):
            data = yamlfile.load(path, 'Ceph client configuration',
                                 exceptions.RhosoExportError)
            if isinstance(data, dict) and data.get('tripleo_ceph_client_fsid'):
                return path, data
    return None, None


def conf_files(data):
    """``{file name: text}`` of the ``ceph-conf-files`` Secret."""
    cluster = data.get('tripleo_ceph_client_cluster') or 'ceph'
    files = {'%s.conf' % cluster: '[global]\nfsid = %s\nmon_host = %s\n' % (
        data['tripleo_ceph_client_fsid'],
        data.get('external_cluster_mon_ips') or '')}
    for key in data.get('keys') or []:
        lines = ['[%s]' % key['name'], '    key = %s' % key['key']]
        lines += ['    caps %s = "%s"' % item for item in sorted(
            (key.get('caps') or {}).items())]
        files['%s.%s.keyring' % (cluster, key['name'])] = \
            '\n'.join(lines) + '\n'
    return files


def nova_conf(role):
    """``03-ceph-nova.conf`` from the role's Nova hiera."""
    lines = ['[libvirt]']
    if role.config('nova::compute::libvirt::images_type') == 'rbd':
        lines.append('images_type=rbd')
        for option, key in (
                ('images_rbd_pool', 'libvirt_images_rbd_pool'),
                ('images_rbd_ceph_conf', 'libvirt_images_rbd_ceph_conf'),
                ('images_rbd_glance_store_name',
                 'libvirt_images_rbd_glance_store_name'),
                ('images_rbd_glance_copy_poll_interval',
                 'libvirt_images_rbd_glance_copy_poll_interval'),
                ('images_rbd_glance_copy_timeout',
                 'libvirt_images_rbd_glance_copy_timeout')):
            if role.config(RBD + key) not in (None, ''):
                lines.append('%s=%s' % (option, role.config(RBD + key)))
    for option, key in (('rbd_user', 'libvirt_rbd_user'),
                        ('rbd_secret_uuid', 'libvirt_rbd_secret_uuid')):
        if role.config(RBD + key) not in (None, ''):
            lines.append('%s=%s' % (option, role.config(RBD + key)))
    return '\n'.join(lines) + '\n'
