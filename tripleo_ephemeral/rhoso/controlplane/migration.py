"""The database and OVN migration steps: their shell variables and the OVN
patches.

``proc_retrieving-topology-specific-service-configuration.adoc``,
``proc_stopping-openstack-services.adoc``,
``proc_migrating-databases-to-mariadb-instances.adoc`` and
``proc_migrating-ovn-data.adoc`` have the operator define variables and
then paste their scripts. ``migration-vars.sh`` defines every one of them
with the names the pages use: the source cloud's from the work dir (the
controllers' SSH, the Galera VIP and members, the cells), the target's by
the pages' own ``oc`` queries, the passwords by reference (read from the
passwords file or ``osp-secret`` when sourced, never written here), the
images and character set the pages give. After the OVN data is copied,
the databases and then ``ovn-northd`` are started by two patches.
"""

import shlex

from tripleo_ephemeral.rhoso import shellvars
from tripleo_ephemeral.rhoso.controlplane import backend
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

FILE = 'migration-vars.sh'
OVN_PAGE = 'proc_migrating-ovn-data.adoc'
#: The pages' values (upstream images; downstream in the comments).
IMAGES = (
    ('MARIADB_IMAGE', 'quay.io/podified-antelope-centos9/openstack-mariadb:'
     'current-podified', 'registry.redhat.io/rhoso/openstack-mariadb-rhel9:'
     '18.0'),
    ('OVSDB_IMAGE', 'quay.io/podified-antelope-centos9/openstack-ovn-base:'
     'current-podified', 'registry.redhat.io/rhoso/openstack-ovn-base-rhel9:'
     '18.0'),
)
CHARACTER_SET = ('utf8', 'utf8_general_ci')
SOURCE_CELL = shellvars.SOURCE_CELL


def _q(value):
    return shlex.quote(str(value))


def controllers(deployment):
    """The hosts of the roles tagged ``controller``, in inventory order."""
    return [h for role in deployment.roles.values()
            if 'controller' in (role.data.get('tags') or [])
            for h in role.hosts]


def script(deployment, inputs, cells, key_path, internal):
    """The text of ``migration-vars.sh``."""
    workdir = deployment.workdir
    lines = ['#!/bin/bash',
             '# Written by "openstack overcloud adoption export" from %s '
             '(stack %s).' % (workdir.path, deployment.stack),
             '# The variables of the database and OVN migration steps, '
             'named as data-plane-adoption names them; source it: '
             '. %s' % FILE,
             '# No password is written here: they are read when sourced.',
             'EDPM_PRIVATEKEY_PATH=%s' % _q(key_path or '<path to SSH key>')]
    for index, host in enumerate(controllers(deployment), 1):
        user = host.vars.get('ansible_ssh_user') or deployment.roles[
            host.role].ssh_user
        lines.append('CONTROLLER%d_SSH="ssh -i $EDPM_PRIVATEKEY_PATH %s@%s"'
                     % (index, user, host.ctlplane_ip))
    lines += ['STORAGE_CLASS=%s' % _q(inputs.storage_class),
              'STORAGE_CLASS_NAME="$STORAGE_CLASS"']
    for name, upstream, downstream in IMAGES:
        lines.append('%s=%s  # downstream: %s' % (name, upstream, downstream))
    lines += ['CHARACTER_SET=%s' % CHARACTER_SET[0],
              'COLLATION=%s' % CHARACTER_SET[1],
              'CELLS=%s' % _q(SOURCE_CELL),
              'DEFAULT_CELL_NAME=%s' % _q(sorted(cells)[0] if cells
                                          else 'cell1'),
              'RENAMED_CELLS=%s' % _q(' '.join(sorted(cells)) or 'cell1'),
              'declare -A TRIPLEO_PASSWORDS',
              'TRIPLEO_PASSWORDS[%s]=%s' % (
                  SOURCE_CELL, _q(workdir.passwords_file)),
              'PASSWORD_FILE="${TRIPLEO_PASSWORDS[%s]}"' % SOURCE_CELL,
              'declare -A SOURCE_DB_ROOT_PASSWORD',
              'for CELL in $(echo $CELLS); do',
              '  SOURCE_DB_ROOT_PASSWORD[$CELL]=$(cat '
              '${TRIPLEO_PASSWORDS[$CELL]} | grep \' MysqlRootPassword:\' | '
              'awk -F \': \' \'{ print $2; }\')',
              'done']
    vip, net = shellvars._mysql_vip(deployment)
    lines += ['declare -A SOURCE_MARIADB_IP',
              '# the Galera VIP on %s' % net,
              'SOURCE_MARIADB_IP[%s]=%s' % (SOURCE_CELL, _q(vip or ''))]
    members = [(h.canonical_hostname, h.ip(net))
               for h in deployment.group_hosts('mysql')]
    lines.append('declare -A SOURCE_GALERA_MEMBERS_%s' % SOURCE_CELL.upper())
    lines.append('SOURCE_GALERA_MEMBERS_%s=(' % SOURCE_CELL.upper())
    lines += ['  [%s]=%s' % (_q(name), _q(ip)) for name, ip in members]
    lines.append(')')
    lines += [
        'declare -A PODIFIED_DB_ROOT_PASSWORD',
        'declare -A PODIFIED_MARIADB_IP',
        'for CELL in $(echo "super $RENAMED_CELLS"); do',
        '  PODIFIED_DB_ROOT_PASSWORD[$CELL]=$(oc get -o json secret/'
        'osp-secret | jq -r .data.DbRootPassword | base64 -d)',
        '  if [ "$CELL" = "super" ]; then',
        '    PODIFIED_MARIADB_IP[$CELL]=$(oc get svc --selector '
        '"mariadb/name=openstack" -ojsonpath=\'{.items[0].spec.clusterIP}\')',
        '  else',
        '    PODIFIED_MARIADB_IP[$CELL]=$(oc get svc --selector '
        '"mariadb/name=openstack-$CELL" -ojsonpath=\'{.items[0].spec.'
        'clusterIP}\')',
        '  fi',
        'done',
        'MARIADB_CLIENT_ANNOTATIONS=%s' % _q(
            '--annotations=k8s.v1.cni.cncf.io/networks=%s' % internal),
        'MARIADB_RUN_OVERRIDES="$MARIADB_CLIENT_ANNOTATIONS"']
    return '\n'.join(lines) + '\n'


def ovn_patches(inputs, endpoints):
    """The two patches that start the adopted OVN databases, then northd."""
    databases = backend.ovn(inputs.replicas, endpoints.internal,
                            endpoints.tenant, enabled=True)
    template = databases['template']
    for cluster in template['ovnDBCluster'].values():
        cluster['storageRequest'] = '10G'
    del template['ovnController'], template['ovnNorthd']
    first = patch_mod.Patch(
        'ovn', 'ovn-databases', {'ovn': databases}, OVN_PAGE, after=[
            'oc wait pod --for condition=Ready --selector=service='
            'ovsdbserver-nb --timeout=300s',
            'oc wait pod --for condition=Ready --selector=service='
            'ovsdbserver-sb --timeout=300s',
            'oc exec -it ovsdbserver-sb-0 -- ovn-sbctl list Chassis'])
    second = patch_mod.Patch(
        'ovn', 'ovn-northd', {'ovn': {'enabled': True, 'template': {
            'ovnNorthd': {'replicas': 1}}}}, OVN_PAGE,
        inputs=['OVN gateways on OpenShift nodes need ovnController.'
                'nicMappings (physnet: NIC), which only you know; the '
                'procedure advises networker nodes instead'])
    return [first, second]
