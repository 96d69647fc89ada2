"""The Secrets the procedure names, from the passwords file and the key
TripleO's Ansible used.

Each is a Kubernetes Secret of its own (written 0600 under ``secrets/``);
the other documents only name them. ``osp-secret`` gets the service
passwords the procedure sets with ``oc set data``; the Nova migration key
is TripleO's ``MigrationSshKey`` (so the computes keep trusting each
other while they move); ``libvirt-secret`` exists with TLS everywhere.
"""

import base64
import collections

#: TripleO password -> its osp-secret key (the procedure's "oc set data")
#: and the procedure's shell variable; None where it has none.
PASSWORDS = (
    ('AdminPassword', 'AdminPassword', 'ADMIN_PASSWORD'),
    ('AodhPassword', 'AodhPassword', 'AODH_PASSWORD'),
    ('BarbicanPassword', 'BarbicanPassword', 'BARBICAN_PASSWORD'),
    ('BarbicanSimpleCryptoKek', 'BarbicanSimpleCryptoKEK', None),
    ('CeilometerMeteringSecret', None, 'CEILOMETER_METERING_SECRET'),
    ('CeilometerPassword', 'CeilometerPassword', 'CEILOMETER_PASSWORD'),
    ('CinderPassword', 'CinderPassword', 'CINDER_PASSWORD'),
    ('DesignatePassword', 'DesignatePassword', 'DESIGNATE_PASSWORD'),
    ('GlancePassword', 'GlancePassword', 'GLANCE_PASSWORD'),
    ('HeatAuthEncryptionKey', 'HeatAuthEncryptionKey',
     'HEAT_AUTH_ENCRYPTION_KEY'),
    ('HeatPassword', 'HeatPassword', 'HEAT_PASSWORD'),
    ('HeatStackDomainAdminPassword', 'HeatStackDomainAdminPassword',
     'HEAT_STACK_DOMAIN_ADMIN_PASSWORD'),
    ('IronicPassword', 'IronicPassword', 'IRONIC_PASSWORD'),
    ('IronicPassword', 'IronicInspectorPassword', None),
    ('ManilaPassword', 'ManilaPassword', 'MANILA_PASSWORD'),
    ('NeutronMetadataProxySharedSecret', 'MetadataSecret',
     'METADATA_SECRET'),
    ('NeutronPassword', 'NeutronPassword', 'NEUTRON_PASSWORD'),
    ('NovaPassword', 'NovaPassword', 'NOVA_PASSWORD'),
    ('OctaviaPassword', 'OctaviaPassword', 'OCTAVIA_PASSWORD'),
    ('PlacementPassword', 'PlacementPassword', 'PLACEMENT_PASSWORD'),
    ('SwiftPassword', 'SwiftPassword', 'SWIFT_PASSWORD'),
)
OSP_SECRET_NAME = 'osp-secret'
#: Where the control plane's osp-secret keys are, as a merge patch (no
#: step of the data plane applies it).
OSP_PATCH = 'secrets/osp-secret-patch'
MIGRATION_KEY = 'nova-migration-ssh-key'
LIBVIRT = 'libvirt-secret'
CEPH = 'ceph-conf-files'

#: ``name``: the Secret; ``keys``: {key: TripleO source}; ``note``: what
#: it is for.
Written = collections.namedtuple('Written', 'name document keys note')


def _b64(text):
    return base64.b64encode(str(text).encode('utf-8')).decode('ascii')


def _secret(name, data, secret_type='Opaque'):
    return {'apiVersion': 'v1', 'kind': 'Secret',
            'metadata': {'name': name}, 'type': secret_type,
            'data': {k: _b64(v) for k, v in data.items()}}


def osp_secret(passwords):
    data, keys = {}, {}
    for name, key, _ in PASSWORDS:
        if key and passwords.get(name) not in (None, ''):
            data[key] = passwords[name]
            keys[key] = '%s of the passwords file' % name
    return Written(OSP_SECRET_NAME, _secret(OSP_SECRET_NAME, data), keys,
                   'merge into the existing osp-secret: oc patch secret '
                   'osp-secret --type merge --patch-file %s' % OSP_PATCH)


def migration_key(passwords):
    key = passwords.get('MigrationSshKey')
    if not isinstance(key, dict) or not key.get('private_key'):
        return None
    return Written(MIGRATION_KEY, _secret(MIGRATION_KEY, {
        'ssh-privatekey': key['private_key'],
        'ssh-publickey': key.get('public_key', '')},
        'kubernetes.io/ssh-auth'),
        {'ssh-privatekey': 'MigrationSshKey.private_key',
         'ssh-publickey': 'MigrationSshKey.public_key'},
        'TripleO\'s key, so computes keep trusting each other during the '
        'move (the procedure makes a new one)')


def libvirt(passwords, tls):
    if not tls or not passwords.get('LibvirtTLSPassword'):
        return None
    return Written(LIBVIRT, _secret(LIBVIRT, {
        'LibvirtPassword': passwords['LibvirtTLSPassword']}),
        {'LibvirtPassword': 'LibvirtTLSPassword of the passwords file'},
        'TLS everywhere')


def ssh_key(name, private_key_text, path):
    return Written(name, _secret(name, {'ssh-privatekey': private_key_text}),
                   {'ssh-privatekey': path},
                   'the key TripleO\'s Ansible logged in with')


def ceph_conf(files, path):
    return Written(CEPH, _secret(CEPH, files),
                   {name: path for name in files},
                   'mounted on the computes as /etc/ceph (the Ceph back end '
                   'procedure creates it: apply once)')


def data_plane(passwords, tls, key_secret, key_path, key_text,
               ceph_files=None, ceph_path=None):
    """The :class:`Written` Secrets of the data plane's step, in the
    procedure's order: the SSH key, the migration key, libvirt's (TLS
    everywhere), Ceph's configuration (computes on Ceph)."""
    found = [ssh_key(key_secret, key_text, key_path) if key_text else None,
             migration_key(passwords), libvirt(passwords, tls)]
    if ceph_files:
        found.append(ceph_conf(ceph_files, ceph_path))
    return [w for w in found if w is not None]
