"""The Ceph back end of the control plane: its Secret and ``extraMounts``.

``proc_configuring-a-ceph-backend.adoc`` creates ``ceph-conf-files`` (the
cluster's ``ceph.conf`` and the ``client.openstack`` keyring) and mounts it
on every storage service with one ``extraMounts`` patch. The data plane's
:mod:`~tripleo_ephemeral.rhoso.ceph` builds the Secret from cephadm's
``ceph_client.yml``; an external cluster (THT's
``environments/external-ceph.yaml``) leaves none before Ansible ran, but
its parameters are rendered: ``CephClusterFSID`` and
``CephExternalMonHost`` in the external deploy steps' ``Populate
CephClientConfigVars from THT`` task, ``CephClientKey`` and
``CephClientUserName`` in the computes' Nova hiera. :func:`client_data`
reads them into ``ceph_client.yml``'s shape (move it into
:mod:`~tripleo_ephemeral.rhoso.ceph` once both sides use it).
"""

import glob
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGE = 'proc_configuring-a-ceph-backend.adoc'
SECRET = 'ceph-conf-files'
PROPAGATION = ['CinderVolume', 'CinderBackup', 'GlanceAPI', 'ManilaShare']
RBD = 'nova::compute::rbd::'


def uses_ceph(role):
    """Whether the control plane's services on ``role`` use Ceph."""
    return role.config('glance_backend') == 'rbd' or bool(role.config(
        'tripleo::profile::base::cinder::volume::cinder_enable_rbd_backend'))


def _external_vars(config_dir):
    for path in sorted(glob.glob(os.path.join(
            config_dir, 'external_deploy_steps_tasks*.yaml'))):
        tasks = yamlfile.load(path, 'config-download tasks file',
                              exceptions.RhosoExportError, strict=False)
        stack = list(tasks) if isinstance(tasks, list) else []
        while stack:
            task = stack.pop()
            if not isinstance(task, dict):
                continue
            found = task.get('vars') or {}
            if found.get('tripleo_ceph_client_fsid') and \
                    'external_cluster_mon_ips' in found:
                return path, found
            stack += [t for key in ('block', 'rescue', 'always')
                      for t in task.get(key) or []]
    return None, {}


def client_data(deployment):
    """``(source, data)`` in cephadm's ``ceph_client.yml`` shape for an
    external cluster, or ``(None, None)``."""
    path, found = _external_vars(deployment.config_dir)
    if not found:
        return None, None
    key = user = None
    for role in deployment.roles.values():
        key = key or role.config(RBD + 'libvirt_rbd_secret_key')
        user = user or role.config(RBD + 'libvirt_rbd_user') or role.config(
            'tripleo::profile::base::cinder::volume::rbd::'
            'cinder_rbd_user_name')
    data = {'tripleo_ceph_client_fsid': found['tripleo_ceph_client_fsid'],
            'tripleo_ceph_client_cluster': 'ceph',
            'external_cluster_mon_ips': found['external_cluster_mon_ips'],
            'keys': []}
    if key:
        data['keys'].append({'name': 'client.%s' % (user or 'openstack'),
                             'key': key})
    return ('CephClusterFSID and CephExternalMonHost (%s), CephClientKey and '
            'CephClientUserName (the computes\' hiera %slibvirt_rbd_secret_key'
            ', libvirt_rbd_user)' % (os.path.basename(path), RBD)), data


def build():
    """The ``extraMounts`` :class:`~.patch.Patch`."""
    spec = {'extraMounts': [{'name': 'v1', 'region': 'r1', 'extraVol': [{
        'propagation': list(PROPAGATION), 'extraVolType': 'Ceph',
        'volumes': [{'name': 'ceph', 'projected': {'sources': [
            {'secret': {'name': SECRET}}]}}],
        'mounts': [{'name': 'ceph', 'mountPath': '/etc/ceph',
                    'readOnly': True}]}]}]}
    return patch_mod.Patch('ceph', 'ceph-backend', spec, PAGE)
