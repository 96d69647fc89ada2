"""The control plane's steps of `overcloud adoption export` on real
tripleo-heat-templates 18.0.0 overclouds, deployed --stack-only as the
docs show.

Opt-in (two stack creates of a minute each)::

    TRIPLEO_EPHEMERAL_THT=1 python3 tools/dev.py test \\
        tripleo_ephemeral/tests/functional/test_rhoso_controlplane_tht.py

Network isolation with 3 Controllers and 2 Computes, THT's single-NIC
VLANs and ``environments/external-ceph.yaml`` (no Ceph cluster needed to
render), Neutron's VLAN ranges and Nova's pinning set; then a custom
layout: bonds, other VLANs and MTUs, a /25 internal API network.
"""

import base64
import configparser
import os

import yaml

from tripleo_ephemeral.tests.functional import test_rhoso_tht as base

pytestmark = base.pytestmark
nic_templates = base.nic_templates
FSID = '4b5c8c0a-ff60-454b-a1b4-9747aa737d19'
KEY = 'AQDLOh1VgEp6FRAAFzT7Zw+Y9V6JJExQAsRnRQ=='
PARAMETERS = {'parameter_defaults': {
    'CephClusterFSID': FSID, 'CephClientKey': KEY,
    'CephExternalMonHost': '172.16.1.7, 172.16.1.8',
    'NeutronNetworkVLANRanges': 'datacentre:1000:1099,tenantvlan:200:299',
    'NeutronBridgeMappings': 'datacentre:br-ex,tenantvlan:br-vlan',
    'NovaComputeCpuDedicatedSet': '4-15', 'NovaReservedHostMemory': 8192}}
WORKERS = ('--ocp-worker', 'worker-0=enp6s0', '--ocp-worker',
           'worker-1=enp6s0', '--ocp-worker', 'worker-2=enp6s0')
ROLES = {'Controller': ('overcloud-controller', 10, 3),
         'Compute': ('overcloud-novacompute', 20, 2)}


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def ini(text):
    # [DEFAULT] is a section of its own for oslo.config, not defaults
    parser = configparser.ConfigParser(interpolation=None,
                                       default_section='no default')
    parser.read_string(text)
    return parser


def deploy(cli, tmp_path, work_dir, port, tht_dir, network_data,
           nic_environment):
    servers = base.servers(tmp_path / 'servers.yaml', ROLES)
    parameters = tmp_path / 'parameters.yaml'
    parameters.write_text(yaml.safe_dump(PARAMETERS))
    environments = [os.path.join(tht_dir, p) for p in (
        'environments/deployed-network-environment.yaml',
        'environments/network-environment.yaml', nic_environment,
        'environments/external-ceph.yaml')] + [str(parameters)]
    args = ['--templates', tht_dir, '--deployed-servers', servers,
            '-n', network_data]
    for environment in environments:
        args += ['-e', environment]
    done = cli.deploy(work_dir, *args, port=port, timeout=3600)
    assert done.result['status'] == 'DEPLOY_SUCCESS'


def export_and_validate(cli, work_dir, out):
    result = base.export(cli, work_dir, out, '--networker', 'Controller',
                         *WORKERS)
    assert result['control_plane'] == ('19 steps (12 patches): valid for '
                                       'RHOSO 18.0-fr2, 18.0-fr6')
    for version in base.VERSIONS:
        assert 'control plane: 13 states checked' in base.validate(
            cli, out, version)
    return result


def check_networks(out, network_data):
    """Each worker's VLANs are TripleO's, every pool and range inside its
    subnet (validate checked that no address is in two parts)."""
    by_name = {'internal_api': 'internalapi'}
    nets = {by_name.get(n['name_lower'], n['name_lower']): n
            for n in load(network_data)}
    policy = load(os.path.join(out, '10-nncp', 'nncp-enp6s0-worker-0.yaml'))
    vlans = {i['name']: (i['vlan']['id'], i['mtu'])
             for i in policy['spec']['desiredState']['interfaces']
             if i['type'] == 'vlan'}
    assert vlans == {
        name: (next(iter(nets[name]['subnets'].values()))['vlan'],
               nets[name]['mtu'])
        for name in ('storage', 'internalapi', 'tenant')}
    return vlans


def test_isolation_external_ceph(cli, tmp_path, work_dir, port, tht_dir,
                                 nic_templates):
    network_data = os.path.join(
        tht_dir, 'network-data-samples/default-network-isolation.yaml')
    deploy(cli, tmp_path, work_dir, port, tht_dir, network_data,
           'environments/net-single-nic-with-vlans.yaml')
    out = tmp_path / 'rhoso'
    export_and_validate(cli, work_dir, out)
    check_networks(out, network_data)

    neutron = ini(load(out / '41-neutron' / 'neutron.patch')['spec'][
        'neutron']['template']['customServiceConfig'])
    assert neutron['ml2_type_vlan']['network_vlan_ranges'] == \
        PARAMETERS['parameter_defaults']['NeutronNetworkVLANRanges']
    assert neutron['ml2']['type_drivers'] == 'geneve,vxlan,vlan,flat'
    glance = ini(load(out / '42-glance' / 'glance.patch')['spec']['glance'][
        'template']['customServiceConfig'])
    assert glance['DEFAULT']['enabled_backends'] == 'default_backend:rbd'
    assert dict(glance['default_backend']) == {
        'rbd_store_ceph_conf': '/etc/ceph/ceph.conf',
        'rbd_store_user': 'openstack', 'rbd_store_pool': 'images',
        'store_description': 'Default glance store backend.'}
    secret = load(out / '20-controlplane-secrets' /
                  '01-secret-ceph-conf-files.yaml')['data']
    assert 'fsid = %s' % FSID in base64.b64decode(
        secret['ceph.conf']).decode()
    assert 'key = %s' % KEY in base64.b64decode(
        secret['ceph.client.openstack.keyring']).decode()
    cells = load(out / '52-nova-cells' /
                 '01-configmap-nova-cells-global-config.yaml')['data']
    assert 'cpu_dedicated_set = 4-15' in cells[
        '04-tripleo-nova-compute.conf']
    with open(out / 'report.md') as f:
        report = f.read()
    assert 'NeutronNetworkVLANRanges, from hiera neutron::plugins::ml2::' \
        'network_vlan_ranges (group_vars/Controller)' in report


def test_custom_nic_and_vlans(cli, tmp_path, work_dir, port, tht_dir,
                              nic_templates):
    network_data = tmp_path / 'network_data.yaml'
    nets = load(os.path.join(
        tht_dir, 'network-data-samples/default-network-isolation.yaml'))
    for net in nets:
        subnet = next(iter(net['subnets'].values()))
        subnet['vlan'] += 100
        net['mtu'] = 9000 if net['name_lower'] != 'external' else 1500
        if net['name_lower'] == 'internal_api':
            subnet['ip_subnet'] = '172.16.2.0/25'
            subnet['allocation_pools'] = [{'start': '172.16.2.10',
                                           'end': '172.16.2.80'}]
    network_data.write_text(yaml.safe_dump(nets))
    deploy(cli, tmp_path, work_dir, port, tht_dir, str(network_data),
           'environments/net-bond-with-vlans.yaml')
    out = tmp_path / 'rhoso'
    result = export_and_validate(cli, work_dir, out)
    assert result['nic_templates'] == ('same network_config as TripleO on '
                                       '5 of 5 nodes')
    vlans = check_networks(out, str(network_data))
    assert vlans['internalapi'] == (120, 9000)
    policy = load(out / '10-nncp' / 'nncp-enp6s0-worker-0.yaml')
    assert policy['spec']['desiredState']['interfaces'][0] == {
        'description': 'the VLANs\' NIC', 'name': 'enp6s0',
        'type': 'ethernet', 'state': 'up', 'mtu': 9000}
    nad = yaml.safe_load(load(out / '11-networks' / 'nad-internalapi.yaml')[
        'spec']['config'])
    assert nad['ipam']['range'] == '172.16.2.0/25'
    assert nad['master'] == 'internalapi'
