"""A small deployed work dir as tripleo-heat-templates leave one, for the
``overcloud adoption export`` tests that need no THT deploy.

:func:`write` lays out what the export reads (status, outputs with the
roles and networks data, config-download's inventory, group_vars,
host_vars, global_vars, step-0 tasks and the SELinux playbook,
ansible.cfg, the passwords and an SSH key) for a Controller, two Computes
and a Networker on three isolated networks, with values shaped as THT
18.0.0 renders them (the opt-in tests check the export on real THT
deploys). The NIC template is this module's own, in the form of
TripleO's (``role_networks``, ``ctlplane_subnet_cidr``, ``lookup('vars',
...)``).
"""

import copy
import os

import yaml

STACK = 'overcloud'
DOMAIN = 'localdomain'
NIC_TEMPLATE = """---
{% set mtus = [ctlplane_mtu] %}
{% for network in role_networks %}
{% do mtus.append(lookup('vars', networks_lower[network] ~ '_mtu')) %}
{% endfor %}
network_config:
- type: ovs_bridge
  name: {{ neutron_physical_bridge_name }}
  mtu: {{ mtus | max }}
  use_dhcp: false
  dns_servers: {{ ctlplane_dns_nameservers }}
  domain: {{ dns_search_domains }}
  addresses:
  - ip_netmask: {{ ctlplane_ip }}/{{ ctlplane_subnet_cidr }}
  routes: {{ ctlplane_host_routes }}
  members:
  - type: interface
    name: {{ neutron_public_interface_name }}
    primary: true
{% for network in role_networks %}
  - type: vlan
    vlan_id: {{ lookup('vars', networks_lower[network] ~ '_vlan_id') }}
    mtu: {{ lookup('vars', networks_lower[network] ~ '_mtu') }}
    addresses:
    - ip_netmask: {{ lookup('vars', networks_lower[network] ~ '_ip') }}/{{
        lookup('vars', networks_lower[network] ~ '_cidr') }}
    routes: {{ lookup('vars', networks_lower[network] ~ '_host_routes') }}
{% endfor %}
"""

NETWORKS = [
    {'name': 'InternalApi', 'name_lower': 'internal_api', 'vip': True,
     'mtu': 1500, 'subnets': {'internal_api_subnet': {
         'ip_subnet': '172.17.0.0/24', 'vlan': 20,
         'allocation_pools': [{'start': '172.17.0.10',
                               'end': '172.17.0.250'}]}}},
    {'name': 'Tenant', 'name_lower': 'tenant', 'vip': False, 'mtu': 1450,
     'subnets': {'tenant_subnet': {
         'ip_subnet': '172.19.0.0/24', 'vlan': 50,
         'allocation_pools': [{'start': '172.19.0.10',
                               'end': '172.19.0.250'}]}}},
    {'name': 'External', 'name_lower': 'external', 'vip': True, 'mtu': 1500,
     'subnets': {'external_subnet': {
         'ip_subnet': '10.0.0.0/24', 'vlan': 10, 'gateway_ip': '10.0.0.1',
         'allocation_pools': [{'start': '10.0.0.10', 'end': '10.0.0.250'}]}}},
]
VIPS = {'ctlplane': '192.168.24.5', 'internal_api': '172.17.0.5',
        'external': '10.0.0.5'}
COMMON_SERVICES = ['chrony', 'kernel', 'sshd', 'tuned', 'ovn_controller']
#: role -> its data, hosts (name, ctlplane ip, isolated ips by name_lower)
ROLES = {
    'Controller': {
        'tags': ['primary', 'controller'],
        'networks': ['External', 'InternalApi', 'Tenant'],
        'services': COMMON_SERVICES + ['mysql', 'pacemaker', 'ovn_dbs'],
        'cms': 'enable-chassis-as-gw', 'tuned': 'throughput-performance',
        'default_route': ['External'],
        'hosts': [('overcloud-controller-0', '192.168.24.10', {
            'internal_api': '172.17.0.10', 'tenant': '172.19.0.10',
            'external': '10.0.0.10'})],
    },
    'Compute': {
        'tags': ['compute'],
        'networks': ['InternalApi', 'Tenant'],
        'services': COMMON_SERVICES + ['nova_compute', 'nova_libvirt',
                                       'ovn_metadata'],
        'cms': '', 'tuned': 'virtual-host',
        'kernel_args': 'default_hugepagesz=1GB hugepagesz=1G hugepages=4',
        'hugepages': {1048576: {'count': 4, 'default': True}},
        'default_route': ['ControlPlane'],
        'hosts': [
            ('overcloud-novacompute-0', '192.168.24.20', {
                'internal_api': '172.17.0.20', 'tenant': '172.19.0.20'}),
            ('overcloud-novacompute-1', '192.168.24.21', {
                'internal_api': '172.17.0.21', 'tenant': '172.19.0.21'}),
        ],
    },
    'Networker': {
        'tags': ['external_bridge'],
        'networks': ['InternalApi', 'Tenant', 'External'],
        'services': COMMON_SERVICES,
        'cms': 'enable-chassis-as-gw', 'tuned': 'throughput-performance',
        'default_route': ['External'],
        'hosts': [('overcloud-networker-0', '192.168.24.30', {
            'internal_api': '172.17.0.30', 'tenant': '172.19.0.30',
            'external': '10.0.0.30'})],
    },
}
PASSWORDS = {
    'AdminPassword': 'admin-secret', 'NovaPassword': 'nova-secret',
    'NeutronPassword': 'neutron-secret', 'MysqlRootPassword': 'root-db',
    'NeutronMetadataProxySharedSecret': 'metadata-secret',
    'LibvirtTLSPassword': 'libvirt-secret',
    'MigrationSshKey': {'private_key': '-----BEGIN KEY-----\nabc\n'
                                       '-----END KEY-----\n',
                        'public_key': 'ssh-rsa AAAA migration'},
}
SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nfixture\n' \
          '-----END OPENSSH PRIVATE KEY-----\n'


def _dump(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        yaml.safe_dump(data, f, default_flow_style=False)


def _net(name):
    return next(n for n in NETWORKS if n['name'] == name)


def _group_vars(role, spec, nic_template):
    networks = [_net(n) for n in spec['networks']]
    result = {
        'service_names': list(spec['services']),
        'role_networks': list(spec['networks']),
        'networks_lower': {n['name']: n['name_lower'] for n in NETWORKS},
        'default_route_networks': list(spec['default_route']),
        'ctlplane_mtu': 1500, 'ctlplane_subnet_cidr': '24',
        'ctlplane_gateway_ip': '192.168.24.1',
        'ctlplane_dns_nameservers': ['192.168.24.1'],
        'ctlplane_host_routes': [],
        'dns_search_domains': [],
        'neutron_physical_bridge_name': 'br-ex',
        'neutron_public_interface_name': 'nic1',
        'tripleo_network_config_template': nic_template,
        'tripleo_network_config_os_net_config_mappings': {},
        'chrony_ntp_servers': ['0.pool.ntp.org', '1.pool.ntp.org'],
        'chrony_ntp_pools': [],
        'tuned_profile': spec['tuned'], 'tuned_custom_profile': '',
        'tripleo_firewall_rules': {
            '003 accept ssh from all': {'dport': 22, 'proto': 'tcp',
                                        'extras': {'ensure': 'absent'}},
            '003 accept ssh from ctlplane subnet 192.168.24.0/24': {
                'dport': 22, 'proto': 'tcp', 'source': '192.168.24.0/24'}},
        'service_configs': {
            'ovn::controller::ovn_bridge': 'br-int',
            'ovn::controller::ovn_bridge_mappings': ['datacentre:br-ex'],
            'ovn::controller::ovn_cms_options': spec['cms'],
            'ovn::controller::ovn_encap_type': 'geneve',
            'ovn::controller::ovn_encap_tos': '0',
            'ovn::controller::ovn_monitor_all': True,
            'ovn::controller::ovn_remote_probe_interval': 60000,
            'ovn::controller::ovn_ofctrl_wait_before_clear': 8000,
        },
    }
    result['service_configs'].update(spec.get('hiera') or {})
    for network in networks:
        subnet = next(iter(network['subnets'].values()))
        lower = network['name_lower']
        routes = []
        if network['name'] in spec['default_route']:
            routes = [{'default': True, 'next_hop': subnet['gateway_ip']}]
        result.update({
            '%s_cidr' % lower: subnet['ip_subnet'].split('/')[1],
            '%s_vlan_id' % lower: subnet['vlan'],
            '%s_mtu' % lower: network['mtu'],
            '%s_gateway_ip' % lower: subnet.get('gateway_ip'),
            '%s_host_routes' % lower: routes,
        })
    return result


def _host_vars(name, ctlplane, ips):
    result = {'ansible_host': ctlplane, 'ctlplane_ip': ctlplane,
              'canonical_hostname': '%s.%s' % (name, DOMAIN),
              'ctlplane_hostname': '%s.ctlplane.%s' % (name, DOMAIN)}
    for lower, ip in ips.items():
        result['%s_ip' % lower] = ip
        result['%s_hostname' % lower] = '%s.%s.%s' % (
            name, lower.replace('_', ''), DOMAIN)
    return result


def _step0(spec):
    return [
        {'name': 'Configure tuned before reboot',
         'include_role': {'name': 'tuned'},
         'vars': {'tuned_profile': spec['tuned'],
                  'tuned_isolated_cores': ''}},
        {'name': 'Configure kernel args and reboot',
         'include_role': {'name': 'tripleo_kernel',
                          'tasks_from': 'kernelargs.yml'},
         'vars': {'tripleo_kernel_args': spec.get('kernel_args', ''),
                  'tripleo_kernel_hugepages': spec.get('hugepages', {}),
                  'tripleo_kernel_defer_reboot': False}},
    ]


CEPH_HIERA = {
    'nova::compute::libvirt::images_type': 'rbd',
    'nova::compute::rbd::libvirt_images_rbd_pool': 'vms_fast',
    'nova::compute::rbd::libvirt_rbd_user': 'openstack',
    'nova::compute::rbd::libvirt_rbd_secret_uuid': 'fsid-1234',
}
CEPH_CLIENT = {
    'tripleo_ceph_client_fsid': 'fsid-1234',
    'tripleo_ceph_client_cluster': 'ceph',
    'external_cluster_mon_ips': '172.18.0.10,172.18.0.11',
    'keys': [{'name': 'client.openstack', 'key': 'AQBkey==',
              'caps': {'mon': 'profile rbd', 'osd': 'profile rbd'}}],
}


def write(path, roles=None, status='DEPLOY_SUCCESS', ceph=False):
    """Write the work dir at ``path`` with ``roles`` (default:
    :data:`ROLES`); with ``ceph``, the computes use Ceph and cephadm's
    client configuration is there. Return ``path``."""
    roles = copy.deepcopy(roles or ROLES)
    if ceph:
        roles['Compute']['services'].append('ceph_client')
        roles['Compute'].setdefault('hiera', {}).update(CEPH_HIERA)
        _dump(os.path.join(path, 'ceph_client.yml'), CEPH_CLIENT)
    config = os.path.join(path, 'config-download', STACK)
    nic_template = os.path.join(path, 'nic-templates', 'vlans.j2')
    os.makedirs(os.path.dirname(nic_template), exist_ok=True)
    with open(nic_template, 'w') as f:
        f.write(NIC_TEMPLATE)
    _dump(os.path.join(path, '%s-deployment_status.yaml' % STACK),
          {'deployment_status': status})
    _dump(os.path.join(path, 'outputs', '%s-outputs.yaml' % STACK), {
        'VipMap': dict(VIPS),
        'TripleoHeatTemplatesJinja2RenderingDataSources': {
            'networks_data': NETWORKS,
            'roles_data': [{'name': name, 'tags': spec['tags'],
                            'networks': spec['networks']}
                           for name, spec in roles.items()]}})
    inventory = {STACK: {'children': {name: {} for name in roles},
                         'vars': {'%s_vip' % k: v for k, v in VIPS.items()}},
                 'allovercloud': {'children': {STACK: {}}}}
    for name, spec in roles.items():
        inventory[name] = {
            'hosts': {host: _host_vars(host, ip, ips)
                      for host, ip, ips in spec['hosts']},
            'vars': {'ansible_ssh_user': 'tripleo-admin',
                     'tripleo_role_name': name}}
        for service in spec['services']:
            inventory.setdefault(service, {'children': {}})[
                'children'][name] = {}
        _dump(os.path.join(config, 'group_vars', name),
              _group_vars(name, spec, nic_template))
        _dump(os.path.join(config, name, 'deploy_steps_tasks_step0.yaml'),
              _step0(spec))
        for host, _, _ in spec['hosts']:
            _dump(os.path.join(config, 'host_vars', host),
                  {'fqdn_canonical': '%s.%s' % (host, DOMAIN)})
    _dump(os.path.join(config, 'tripleo-ansible-inventory.yaml'), inventory)
    _dump(os.path.join(config, 'deploy_steps_selinux_playbook.yaml'), [
        {'hosts': 'overcloud', 'name': 'Manage SELinux', 'tasks': [
            {'name': 'Set selinux state', 'become': True,
             'selinux': {'policy': 'targeted', 'state': 'enforcing'}}]}])
    _dump(os.path.join(config, 'global_vars.yaml'), {
        'cloud_domain': DOMAIN, 'enable_internal_tls': False,
        'service_net_map': {'mysql_network': 'internal_api'}})
    key = os.path.join(path, 'ssh_private_key')
    with open(key, 'w') as f:
        f.write(SSH_KEY)
    os.chmod(key, 0o600)
    with open(os.path.join(config, 'ansible.cfg'), 'w') as f:
        f.write('[defaults]\nprivate_key_file = %s\n' % key)
    _dump(os.path.join(path, '%s-passwords.yaml' % STACK),
          {'parameter_defaults': PASSWORDS})
    return path
