from tripleo_ephemeral.overcloud import inventory
from tripleo_ephemeral.tests.unit import fakes


def test_inventory_groups_and_hosts():
    inv = inventory.build(fakes.outputs(), 'oc', ssh_user='heat-admin',
                          host_ssh_users={'C0': 'cloud-admin'})
    host = inv['Controller']['hosts']['c0']
    assert host == {
        'ansible_host': '192.0.2.10', 'ctlplane_ip': '192.0.2.10',
        'ctlplane_hostname': 'C0.ctlplane.localdomain',
        'canonical_hostname': 'c0.localdomain',
        'deploy_server_id': 's-c0', 'ansible_ssh_user': 'cloud-admin'}
    assert inv['Controller']['vars']['tripleo_role_name'] == 'Controller'
    assert inv['Controller']['vars']['ansible_ssh_user'] == 'heat-admin'
    assert inv['Controller']['vars']['bootstrap_server_id'] == 's-c0'
    assert inv['Controller']['vars']['serial'] == 1
    assert 'Compute' not in inv          # no hosts
    assert inv['oc'] == {'children': {'Controller': {}},
                         'vars': {'ctlplane_vip': '192.0.2.5',
                                  'container_cli': None}}
    assert inv['allovercloud'] == {'children': {'oc': {}}}
    assert inv['heartbeat']['children'] == {'Controller': {}}
    assert inv['marker']['children'] == {'Controller': {}}
    assert inv['excluded_overcloud'] == {'hosts': {'gone': {}}}
    assert inv['Undercloud']['vars']['ansible_connection'] == 'local'


def test_roles_by_service():
    assert inventory.roles_by_service({'B': ['x'], 'A': ['x', 'y']}) == {
        'x': ['A', 'B'], 'y': ['A']}


def test_empty_outputs():
    inv = inventory.build({}, 'oc')
    assert set(inv) == {'Undercloud', 'excluded_overcloud'}


def test_stack_environment_and_undercloud_vars():
    outputs = dict(fakes.outputs(), KeystoneURL='http://192.0.2.5:5000',
                   EndpointMap={'HorizonPublic': {
                       'uri': 'http://192.0.2.5:80/dashboard'}})
    inv = inventory.build(outputs, 'oc', stack_environment={
        'ContainerCli': 'podman', 'AdminPassword': 'secret'},
        ansible_python_interpreter='/usr/bin/python3')
    assert inv['oc']['vars']['container_cli'] == 'podman'
    assert inv['Undercloud'] == {'hosts': {'undercloud': {}}, 'vars': {
        'ansible_connection': 'local', 'ansible_host': 'localhost',
        'ansible_python_interpreter': '/usr/bin/python3',
        'ansible_remote_tmp': '/tmp/ansible-${USER}',
        'any_error_fatal': True, 'max_fail_percentage': 0,
        'undercloud_service_list': ['tripleo_ironic_conductor'],
        'plan': 'oc', 'overcloud_admin_password': 'secret',
        'overcloud_keystone_url': 'http://192.0.2.5:5000',
        'overcloud_horizon_url': 'http://192.0.2.5:80/dashboard'}}
