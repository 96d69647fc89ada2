"""The export file: tripleoclient's structure."""

from tripleo_ephemeral.overcloud import all_nodes
from tripleo_ephemeral.overcloud import export
from tripleo_ephemeral.overcloud import passwords

OUTPUTS = {
    'EndpointMap': {'KeystonePublic': {'host': '192.0.2.5'}},
    'HostsEntry': '192.0.2.10 c0.localdomain c0\n\n192.0.2.20 n0\n',
    'GlobalConfig': {'cloud_domain': 'localdomain'},
}


def test_export_data():
    secrets = {name: 'v-%s' % name for name in passwords.PASSWORD_NAMES}
    data = export.export_data(
        'overcloud', OUTPUTS, secrets, passwords.PASSWORD_NAMES,
        all_nodes_data={'redis_vip': '1.2.3.4', 'marker_enabled': True})
    params = data['parameter_defaults']
    assert params['AdminPassword'] == 'v-AdminPassword'
    assert not [n for n in params if n.lower().startswith('ceph')]
    assert params['EndpointMapOverride'] == OUTPUTS['EndpointMap']
    assert params['ExtraHostFileEntries'] == ['192.0.2.10 c0.localdomain c0',
                                              '192.0.2.20 n0']
    assert params['GlobalConfigExtraMapData'] == OUTPUTS['GlobalConfig']
    assert params['AllNodesExtraMapData'] == {'redis_vip': '1.2.3.4',
                                              'marker_enabled': True}
    assert params['AuthCloudName'] == 'overcloud'
    assert params['AddVipsToEtcHosts'] is False


def test_no_password_excludes_and_cell_filter():
    data = export.export_data(
        'cell1', {'AuthCloudName': 'central'},
        {'CephClusterFSID': 'f', 'RabbitPassword': 'r'},
        ['CephClusterFSID', 'RabbitPassword', 'RpcPassword'],
        all_nodes_data={'redis_vip': '1.2.3.4', 'marker_enabled': True},
        excludes=False, cell=True)
    params = data['parameter_defaults']
    assert params['CephClusterFSID'] == 'f'
    assert params['RpcPassword'] == params['NotifyPassword'] == 'r'
    assert params['AllNodesExtraMapData'] == {'redis_vip': '1.2.3.4'}
    assert params['AuthCloudName'] == 'central'
    assert 'EndpointMapOverride' not in params  # no data: skipped


def test_all_nodes_data():
    inventory = {
        'Controller': {'hosts': {'c0': {'ctlplane_ip': '10.0.0.10',
                                        'ctlplane_hostname': 'c0.ctl',
                                        'internal_api_ip': '172.16.0.10'}},
                       'vars': {}},
        'Compute': {'hosts': {'n1': {'ctlplane_ip': '10.0.0.21',
                                     'ctlplane_hostname': 'n1.ctl'},
                              'n0': {'ctlplane_ip': '10.0.0.20',
                                     'ctlplane_hostname': 'n0.ctl'}}},
        'redis': {'children': {'Controller': {}}},
        'marker': {'children': {'Compute': {}, 'Controller': {}}},
    }
    data = all_nodes.all_nodes(inventory, {
        'enabled_services': {'Controller': ['redis', 'marker'],
                             'Compute': ['marker']},
        'service_net_map': {'redis_network': 'internal_api'},
        'net_vip_map': {'redis': '172.16.0.5'},
        'primary_role_name': 'Controller', 'deploy_identifier': 7})
    assert data['enabled_services'] == ['marker', 'redis']
    assert data['redis_node_ips'] == ['172.16.0.10']
    assert data['marker_short_node_names'] == ['n1', 'n0', 'c0']
    assert data['marker_short_bootstrap_node_name'] == 'c0'
    assert data['marker_bootstrap_node_ip'] == '10.0.0.21'
    assert data['marker_node_names'] == ['n1.ctl', 'n0.ctl', 'c0.ctl']
    assert data['redis_network'] == 'internal_api'
    assert data['redis_vip'] == '172.16.0.5'
    assert data['controller_node_ips'] == '10.0.0.10'
    assert data['controller_node_names'] == 'c0'
    assert data['deploy_identifier'] == 7
    assert data['container_cli'] == 'podman'


def test_all_nodes_load_prefers_the_file(tmp_path):
    import json

    import yaml

    (tmp_path / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'Controller': {'hosts': {'c0': {'ctlplane_ip': '10.0.0.10'}}},
         'marker': {'children': {'Controller': {}}}}))
    (tmp_path / 'global_vars.yaml').write_text(yaml.safe_dump(
        {'enabled_services': ['marker'], 'primary_role_name': 'Controller'}))
    computed = all_nodes.load(str(tmp_path))
    assert computed['marker_node_ips'] == ['10.0.0.10']
    (tmp_path / 'group_vars').mkdir()
    (tmp_path / 'group_vars' / 'overcloud.json').write_text(
        json.dumps({'written': 'by the playbook'}))
    assert all_nodes.load(str(tmp_path)) == {'written': 'by the playbook'}
    assert all_nodes.load(str(tmp_path / 'none')) is None
