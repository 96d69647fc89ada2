"""The small work dir of :mod:`~tripleo_ephemeral.tests.rhoso_workdir`
with a control plane: the Controller runs the OpenStack services THT
18.0.0's default roles give it, with the hiera (``service_configs``) THT
renders for them (values as THT 18.0.0 renders them with network isolation
and ``environments/external-ceph.yaml``; the opt-in THT tests check the
export on real deploys).
"""

import copy
import os

import yaml

from tripleo_ephemeral.tests import rhoso_workdir

CONTROL_SERVICES = [
    'keystone', 'keystone_public_api', 'glance_api', 'glance_api_internal',
    'neutron_api', 'neutron_plugin_ml2_ovn', 'nova_api', 'nova_conductor',
    'nova_metadata', 'nova_scheduler', 'nova_vnc_proxy', 'placement',
    'cinder_api', 'cinder_scheduler', 'cinder_volume', 'cinder_backend_rbd',
    'heat_api', 'heat_api_cfn', 'heat_engine', 'horizon', 'memcached',
    'oslo_messaging_rpc', 'oslo_messaging_notify', 'haproxy', 'clustercheck',
    'swift_proxy', 'ceph_client']
FERNET = {'/etc/keystone/fernet-keys/0': {'content': 'fernet-zero='},
          '/etc/keystone/fernet-keys/1': {'content': 'fernet-one='}}
CREDENTIAL = {'/etc/keystone/credential-keys/0': {'content': 'cred-zero='},
              '/etc/keystone/credential-keys/1': {'content': 'cred-one='}}
ML2 = 'neutron::plugins::ml2::'
CONTROL_HIERA = {
    'keystone::token_expiration': 7200, 'keystone::token_provider': 'fernet',
    'keystone::fernet_max_active_keys': 5, 'keystone::fernet_keys': FERNET,
    'keystone::credential_keys': CREDENTIAL,
    ML2 + 'type_drivers': ['geneve', 'vxlan', 'vlan', 'flat'],
    ML2 + 'tenant_network_types': ['geneve', 'vlan'],
    ML2 + 'mechanism_drivers': ['ovn'],
    ML2 + 'network_vlan_ranges': ['datacentre:1000:1099', 'tenant:200:299'],
    ML2 + 'flat_networks': ['datacentre'],
    ML2 + 'vni_ranges': ['1:65536'],
    ML2 + 'ovn::ovn_metadata_enabled': True,
    ML2 + 'ovn::dns_servers': [],
    'neutron::global_physnet_mtu': 1500,
    'neutron::dhcp_agent_notification': False,
    'glance_backend': 'rbd',
    'glance::backend::rbd::rbd_store_pool': 'images',
    'glance::backend::rbd::rbd_store_user': 'openstack',
    'tripleo::profile::base::glance::api::glance_backend_id':
        'default_backend',
    'tripleo::profile::base::glance::api::glance_store_description':
        'Default glance store backend.',
    'glance::api::image_conversion_output_format': 'raw',
    'nova::scheduler::filter::scheduler_enabled_filters': [
        'ComputeFilter', 'PciPassthroughFilter', 'NUMATopologyFilter'],
    'nova::scheduler::filter::scheduler_available_filters': [],
    'cinder::api::default_volume_type': 'tripleo',
    'cinder::backends::backend_host': 'hostgroup',
    'tripleo::profile::base::cinder::volume::cinder_enable_rbd_backend': True,
    'tripleo::profile::base::cinder::volume::cinder_enable_nfs_backend':
        False,
    'tripleo::profile::base::cinder::volume::cinder_enable_iscsi_backend':
        False,
    'tripleo::profile::base::cinder::volume::rbd::backend_name': [
        'tripleo_ceph'],
    'tripleo::profile::base::cinder::volume::rbd::cinder_rbd_pool_name':
        'volumes',
    'tripleo::profile::base::cinder::volume::rbd::cinder_rbd_user_name':
        'openstack',
    'tripleo::profile::base::cinder::volume::rbd::cinder_rbd_secret_uuid':
        'fsid-1234',
    'heat::engine::max_resources_per_stack': 1000,
}
COMPUTE_HIERA = {
    'nova::compute::cpu_dedicated_set': ['4-15'],
    'nova::compute::cpu_shared_set': ['0-3'],
    'nova::compute::reserved_host_memory': 8192,
    'nova::cpu_allocation_ratio': 0.0,
    'nova::compute::rbd::libvirt_rbd_secret_key': 'AQBkey==',
    'nova::compute::rbd::libvirt_rbd_user': 'openstack',
}
#: The rendered external deploy step of THT's ceph-client service with
#: ``environments/external-ceph.yaml``.
EXTERNAL_CEPH = [{'name': 'Configure Ceph Clients', 'block': [{
    'name': 'Populate CephClientConfigVars from THT',
    'copy': {'dest': '{{ tripleo_ceph_client_vars }}'},
    'vars': {'external_cluster_mon_ips': '172.18.0.10, 172.18.0.11',
             'tripleo_ceph_client_fsid': 'fsid-1234'}}]}]


def roles(extra_services=(), hiera=None):
    """:data:`rhoso_workdir.ROLES` with the control plane on the
    Controller."""
    result = copy.deepcopy(rhoso_workdir.ROLES)
    controller = result['Controller']
    controller['services'] += CONTROL_SERVICES + list(extra_services)
    controller['hiera'] = dict(CONTROL_HIERA, **(hiera or {}))
    result['Compute']['hiera'] = dict(COMPUTE_HIERA)
    return result


def write(path, extra_services=(), hiera=None, external_ceph=True, **kwargs):
    """Write the work dir at ``path``; return ``path``."""
    rhoso_workdir.write(path, roles(extra_services, hiera), **kwargs)
    if external_ceph:
        tasks = os.path.join(path, 'config-download', rhoso_workdir.STACK,
                             'external_deploy_steps_tasks_step2.yaml')
        with open(tasks, 'w') as f:
            yaml.safe_dump(EXTERNAL_CEPH, f)
    return path
