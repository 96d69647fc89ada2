"""What becomes of every service the stack's roles ran.

Each TripleO service name (a role's ``service_names``) is one of: a
service the export adopts (its RHOSO service gets the procedure's patch),
a back-end service the backend step replaces (Galera, RabbitMQ,
Memcached, the OVN databases), a data-plane service (the NodeSets'), host
configuration, something OpenShift replaces (HAProxy, Pacemaker), the Ceph
cluster (its own procedures), or a service left out with the upstream page
to follow by hand. A name the table does not know stops the export: the
operator leaves it out knowingly with ``--skip-service``. ML2/OVS is
refused: the procedure adopts ML2/OVN clouds only.
"""

import collections

from tripleo_ephemeral import exceptions

ADOPT = 'adopted'
BACKEND = 'backend'
DATAPLANE = 'data plane'
HOST = 'host'
REPLACED = 'replaced'
CEPH = 'ceph'
LEFT_OUT = 'left out'
SKIPPED = 'skipped'

#: RHOSO service -> the TripleO services it adopts (name or prefix*).
ADOPTED = collections.OrderedDict((
    ('keystone', ('keystone*',)),
    ('neutron', ('neutron_api', 'neutron_plugin_ml2_ovn', 'neutron_server',
                 'neutron_base')),
    ('glance', ('glance_api*',)),
    ('placement', ('placement',)),
    ('nova', ('nova_api', 'nova_conductor', 'nova_scheduler',
              'nova_metadata', 'nova_vnc_proxy', 'nova_manager', 'nova_base')),
    ('cinder', ('cinder_api', 'cinder_scheduler', 'cinder_volume',
                'cinder_backup', 'cinder_backend_rbd', 'cinder_backend_nfs',
                'cinder_base')),
    ('horizon', ('horizon',)),
    ('heat', ('heat_api', 'heat_api_cfn', 'heat_engine', 'heat_base')),
    ('telemetry', ('ceilometer_agent_central', 'ceilometer_agent_notification',
                   'ceilometer_base', 'aodh*')),
))
#: The upstream page of each service left out, to adopt by hand.
LEFT_OUT_PAGES = (
    ('barbican*', 'proc_adopting-key-manager-service.adoc'),
    ('manila*', 'assembly_adopting-the-shared-file-systems-service.adoc'),
    ('octavia*', 'proc_adopting-the-loadbalancer-service.adoc'),
    ('designate*', 'proc_adopting-the-dns-service.adoc'),
    ('ironic*', 'assembly_adopting-the-bare-metal-provisioning-service.adoc'),
    ('nova_ironic', 'assembly_adopting-the-bare-metal-provisioning-service'
                    '.adoc'),
    ('swift*', 'proc_adopting-the-object-storage-service.adoc'),
    ('external_swift_proxy', 'proc_adopting-the-object-storage-service.adoc'),
    ('cinder_backend_*', 'proc_adopting-the-block-storage-service.adoc '
                         '(an external back end: its secrets are the '
                         'operator\'s)'),
    ('gnocchi*', 'proc_adopting-telemetry-services.adoc (RHOSO stores '
                 'metrics in Prometheus, not Gnocchi)'),
    ('neutron_bgpvpn*', 'none: not in RHOSO'),
    ('neutron_l2gw*', 'none: not in RHOSO'),
    ('neutron_sfc_api', 'none: not in RHOSO'),
    ('neutron_mlnx_agent', 'none: not in RHOSO'),
    ('neutron_plugin_ml2_cisco_vts', 'none: not in RHOSO'),
    ('neutron_plugin_ml2_mlnx_sdn_assist', 'none: not in RHOSO'),
    ('compute_instanceha', 'assembly_preparing-an-instance-HA-deployment-for'
                           '-adoption.adoc'),
    ('heat_ephemeral', 'none: the undercloud\'s'),
)
BACKENDS = (('mysql', 'galera'), ('oslo_messaging_rpc', 'rabbitmq'),
            ('oslo_messaging_notify', 'rabbitmq'), ('rabbitmq', 'rabbitmq'),
            ('memcached', 'memcached'), ('ovn_dbs', 'ovn'),
            ('redis*', 'redis'))
DATAPLANE_SERVICES = (
    'nova_compute', 'nova_libvirt*', 'nova_migration_target', 'ovn_controller',
    'ovn_metadata', 'neutron_sriov_agent', 'neutron_dhcp', 'neutron_metadata',
    'neutron_ovn_dpdk', 'ceilometer_agent_compute', 'ceilometer_agent_ipmi',
    'iscsid', 'multipathd', 'frr', 'openvswitch*', 'neutron_agents_ib_config',
    'ovs_dpdk*', 'nova_az_config')
HOST_SERVICES = (
    'aide', 'auditd', 'boot_params_service', 'ca_certs', 'ceph_client',
    'chrony', 'container_image_prepare', 'docker_registry', 'ipsec',
    'kernel', 'login_defs', 'logrotate*', 'masquerade_networks',
    'mysql_client', 'openstack_clients', 'podman', 'ptp', 'rhsm', 'rsyslog*',
    'securetty', 'snmp*', 'sshd', 'test_container_volume', 'timezone',
    'tripleo_firewall', 'tripleo_packages', 'tripleo_validations', 'tuned',
    'unbound', 'undercloud*', 'ipaservice', 'tls', 'collectd',
    'metrics_qdr', 'qdr')
REPLACED_SERVICES = ('haproxy*', 'pacemaker*', 'clustercheck', 'apache',
                     'etcd', 'keepalived')
#: ML2/OVS and other agents the procedure cannot adopt.
REFUSED = ('neutron_ovs_agent', 'neutron_ovs_dpdk_agent', 'neutron_l3',
           'neutron_linuxbridge_agent', 'neutron_plugin_ml2')
SKIP_NAMES = tuple(ADOPTED)

#: ``kind``: one of the constants above; ``target``: the RHOSO service
#: (adopted, backend) or the page to follow (left out); ``roles``.
Fate = collections.namedtuple('Fate', 'kind target roles')


def _match(name, patterns):
    for pattern in patterns:
        if pattern.endswith('*') and name.startswith(pattern[:-1]) or \
                name == pattern:
            return True
    return False


def _fate(name):
    for service, patterns in ADOPTED.items():
        if _match(name, patterns):
            return ADOPT, service
    for pattern, page in LEFT_OUT_PAGES:
        if _match(name, (pattern,)):
            return LEFT_OUT, page
    for pattern, service in BACKENDS:
        if _match(name, (pattern,)):
            return BACKEND, service
    for kind, patterns in ((DATAPLANE, DATAPLANE_SERVICES),
                           (HOST, HOST_SERVICES),
                           (REPLACED, REPLACED_SERVICES)):
        if _match(name, patterns):
            return kind, None
    if name.startswith('ceph_'):
        return CEPH, 'assembly_migrating-ceph-cluster.adoc'
    return None, None


def ran(deployment):
    """``{TripleO service: [roles]}`` over every role with hosts."""
    found = collections.OrderedDict()
    for role in deployment.roles.values():
        for name in role.services:
            found.setdefault(name, []).append(role.name)
    return found


def fates(deployment, skip=frozenset()):
    """``{TripleO service: Fate}``; RhosoExportError on a service the
    table does not know, on ML2/OVS, or on a ``skip`` that names
    nothing."""
    services = ran(deployment)
    known = set(services) | set(SKIP_NAMES)
    for name in sorted(skip):
        if name not in known:
            raise exceptions.RhosoExportError(
                '--skip-service %s: stack %s runs no service %s (give a '
                'TripleO service of its roles or one of %s)'
                % (name, deployment.stack, name, ', '.join(SKIP_NAMES)))
    result = collections.OrderedDict()
    for name, roles in services.items():
        if name in REFUSED and 'neutron_plugin_ml2_ovn' not in services \
                and name not in skip:
            raise exceptions.RhosoExportError(
                'Role %s runs %s (ML2/OVS): the adoption procedure adopts '
                'ML2/OVN clouds only; migrate the overcloud to ML2/OVN '
                'first (TripleO\'s ovn-migration)' % (roles[0], name))
        kind, target = _fate(name)
        if name in REFUSED:
            kind, target = REPLACED, None
        if name in skip or target in skip and kind == ADOPT:
            kind = SKIPPED
        elif kind is None:
            raise exceptions.RhosoExportError(
                'Role %s runs %s, a service the export does not know: '
                'leave it out knowingly with --skip-service %s, and adopt '
                'it by hand' % (roles[0], name, name))
        result[name] = Fate(kind, target, roles)
    return result


def adopted(fates_):
    """The RHOSO services to adopt, in :data:`ADOPTED` order."""
    wanted = {f.target for f in fates_.values() if f.kind == ADOPT}
    return [s for s in ADOPTED if s in wanted]
