"""`overcloud adoption export` and `validate` of real tripleo-heat-templates
18.0.0 overclouds, deployed --stack-only as the README shows.

Opt-in: three stack creates of a minute or more each, and the NIC
templates of TripleO's Ansible::

    TRIPLEO_EPHEMERAL_THT=1 python3 tools/dev.py test \\
        tripleo_ephemeral/tests/functional/test_rhoso_tht.py

Network isolation with 1 Controller and 2 Computes on THT's single-NIC
VLANs template, merged into an operator's NetConfig; the same stack
adopted from its Heat dump (an adopted work dir exports the same
documents); two compute roles in one cell, one named with 63 characters;
Controller, Compute and Networker, where the export refuses to guess what
the gateway roles become.
"""

import json
import os

import pytest
import yaml

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.rhoso import nic_files
from tripleo_ephemeral.tests.functional import helpers

pytestmark = pytest.mark.skipif(
    os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
    reason='set TRIPLEO_EPHEMERAL_THT=1 to deploy and export the real '
           'tripleo-heat-templates (minutes)')

ISOLATION = ('network-data-samples/default-network-isolation.yaml',
             'environments/deployed-network-environment.yaml',
             'environments/network-environment.yaml',
             'environments/net-single-nic-with-vlans.yaml')
VERSIONS = ('18.0-fr2', '18.0-fr6')


def servers(path, roles):
    data = {role: [{'hostname': '%s-%d' % (prefix, i),
                    'ctlplane_ip': '192.0.2.%d' % (base + i)}
                   for i in range(count)]
            for role, (prefix, base, count) in roles.items()}
    path.write_text(json.dumps(data))
    return str(path)


def deploy_args(tht_dir, servers_file, roles_file=None):
    network_data, *environments = [os.path.join(tht_dir, p)
                                   for p in ISOLATION]
    args = ['--templates', tht_dir, '--deployed-servers', servers_file,
            '-n', network_data]
    if roles_file:
        args += ['-r', roles_file]
    for environment in environments:
        args += ['-e', environment]
    return args


@pytest.fixture(scope='module')
def nic_templates():
    """TripleO's Ansible has the tripleo_network_config role's templates
    (``tools/dev.py test`` installs it when TRIPLEO_EPHEMERAL_THT=1)."""
    if not os.path.isdir(nic_files.default_dir()):
        pytest.skip('TripleO\'s Ansible is not installed: "openstack '
                    'tripleo ansible install"')
    return nic_files.default_dir()


def export(cli, work_dir, out, *args):
    return cli.json('overcloud', 'adoption', 'export', '--work-dir',
                    str(work_dir), '--output-dir', str(out), *args)


def validate(cli, out, version):
    proc = cli.run('overcloud', 'adoption', 'validate', str(out),
                   '--rhoso-version', version, '-f', 'json')
    assert json.loads(proc.stdout) == []
    return proc.stderr


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def step_documents(out):
    """``{step/file: document}`` of every step directory of an export."""
    found = {}
    for step in sorted(os.listdir(out)):
        if step[:2].isdigit():
            for name in sorted(os.listdir(out / step)):
                found['%s/%s' % (step, name)] = load(out / step / name)
    return found


THEIR_NETCONFIG = {'apiVersion': 'v1', 'kind': 'List', 'items': [{
    'apiVersion': 'network.openstack.org/v1beta1', 'kind': 'NetConfig',
    'metadata': {'name': 'netconfig', 'namespace': 'openstack',
                 'resourceVersion': '42'},
    'spec': {'networks': [
        {'name': 'ctlplane', 'dnsDomain': 'ctlplane.example.com',
         'subnets': [{'name': 'subnet1', 'cidr': '192.0.2.0/24',
                      'allocationRanges': [{'start': '192.0.2.100',
                                            'end': '192.0.2.120'}]}]},
        {'name': 'internalapi', 'dnsDomain': 'internalapi.example.com',
         'subnets': [{'name': 'subnet1', 'cidr': '172.16.2.0/24',
                      'vlan': 20, 'allocationRanges': [
                          {'start': '172.16.2.4', 'end': '172.16.2.100'}]}]},
        {'name': 'octavia', 'dnsDomain': 'octavia.example.com',
         'subnets': [{'name': 'subnet1', 'cidr': '172.23.0.0/24',
                      'vlan': 23, 'allocationRanges': [
                          {'start': '172.23.0.100',
                           'end': '172.23.0.250'}]}]}]}}]}


def test_isolation_then_adopted(cli, tmp_path, work_dir, port, adopted_dir,
                                tht_dir, nic_templates):
    servers_file = servers(tmp_path / 'servers.yaml', {
        'Controller': ('overcloud-controller', 10, 1),
        'Compute': ('overcloud-novacompute', 20, 2)})
    done = cli.deploy(work_dir, *deploy_args(tht_dir, servers_file),
                      port=port, timeout=3600)
    assert done.result['status'] == 'DEPLOY_SUCCESS'

    out = tmp_path / 'rhoso'
    theirs = tmp_path / 'netconfig.yaml'
    theirs.write_text(yaml.safe_dump(THEIR_NETCONFIG))
    result = export(cli, work_dir, out, '--networker', 'Controller',
                    '--netconfig', str(theirs), '--reserve',
                    'internalapi=172.16.2.200-172.16.2.220')
    assert result['nic_templates'] == ('same network_config as TripleO on '
                                       '3 of 3 nodes')
    assert result['netconfig'] == 'merged into netconfig'
    # the data plane's steps (the control plane's, 10-49, come first:
    # test_rhoso_controlplane_tht.py)
    assert [s for s in result['steps'] if s >= '50'] == [
        '50-netconfig', '51-dataplane-secrets', '52-nova-cells',
        '53-compute-nodesets', '54-pre-adoption-validation',
        '55-tripleo-cleanup', '56-compute-adoption', '57-nova-compute-ffu',
        '60-networker-nodesets', '61-networker-pre-adoption',
        '62-networker-adoption']
    for version in VERSIONS:
        assert 'valid; NIC template: same network_config on 3 of 3 nodes' \
            in validate(cli, out, version)
    assert [n for n in os.listdir(out) if n.endswith(
        ('.yaml', '.yml', '.json'))] == []

    # Each node is the inventory's host, with every address it has.
    wd = helpers.Layout(work_dir)
    inventory = load(wd.config_download_dir / 'tripleo-ansible-inventory'
                     '.yaml')
    documents = step_documents(out)
    nodeset = documents['53-compute-nodesets/01-nodeset-openstack-cell1.yaml']
    for name, node in nodeset['spec']['nodes'].items():
        host = inventory['Compute']['hosts'][name]
        assert node['hostName'] == host['canonical_hostname']
        assert node['ansible']['ansibleHost'] == host['ctlplane_ip']
        assert {n['name']: n['fixedIP'] for n in node['networks']} == {
            'ctlplane': host['ctlplane_ip'],
            'internalapi': host['internal_api_ip'],
            'storage': host['storage_ip'], 'tenant': host['tenant_ip']}
    variables = nodeset['spec']['nodeTemplate']['ansible']['ansibleVars']
    assert variables['edpm_tuned_profile'] == 'virtual-host'
    assert variables['edpm_network_config_nmstate'] is False
    assert variables['edpm_bootstrap_release_version_package'] == []
    assert 'sudo rm -f /run/virtlogd.pid' in variables[
        'edpm_bootstrap_command']
    assert variables['edpm_ovs_packages'] == ['openvswitch3.3']
    networker = documents['60-networker-nodesets/'
                          '01-nodeset-openstack-networker.yaml']
    assert networker['spec']['nodeTemplate']['ansible']['ansibleVars'][
        'edpm_enable_chassis_gw'] is True
    assert documents['55-tripleo-cleanup/02-deployment-tripleo-cleanup'
                     '.yaml']['spec']['nodeSets'] == ['openstack-cell1']

    # Merged, never replacing: theirs kept, TripleO's addresses out of
    # their ranges, the reservation kept out of everything.
    netconfig = documents['50-netconfig/01-netconfig-netconfig.yaml']
    networks = {n['name']: n for n in netconfig['spec']['networks']}
    assert networks['octavia'] == THEIR_NETCONFIG['items'][0]['spec'][
        'networks'][2]
    used = {host['internal_api_ip'] for group in ('Controller', 'Compute')
            for host in inventory[group]['hosts'].values()}
    ranges = networks['internalapi']['subnets'][0]['allocationRanges']
    for pool in ranges:
        first = int(pool['start'].rsplit('.', 1)[1])
        last = int(pool['end'].rsplit('.', 1)[1])
        assert not any(first <= int(ip.rsplit('.', 1)[1]) <= last
                       for ip in used)
        assert last < 200 or first > 220
    assert networks['storage']['subnets'][0]['name'] == 'subnet1'

    # The same stack adopted from its dump exports the same documents.
    other = readiness.free_port()
    cli.json('overcloud', 'adopt', '--work-dir', str(adopted_dir),
             '--heat-api-port', str(other), '--heat-db-dump',
             str(wd.heat_dump), timeout=3600)
    adopted = tmp_path / 'rhoso-adopted'
    export(cli, adopted_dir, adopted, '--networker', 'Controller',
           '--netconfig', str(theirs), '--reserve',
           'internalapi=172.16.2.200-172.16.2.220')
    validate(cli, adopted, VERSIONS[-1])
    assert step_documents(adopted) == documents


def test_two_compute_roles_in_one_cell(cli, tmp_path, work_dir, port,
                                       tht_dir, nic_templates):
    long_name = 'ComputeR' + 'x' * 55
    roles_file = str(tmp_path / 'roles_data.yaml')
    cli.run('overcloud', 'roles', 'generate', '-o', roles_file,
            '--roles-path', os.path.join(tht_dir, 'roles'),
            'Controller', 'Compute', 'Compute:%s' % long_name)
    servers_file = servers(tmp_path / 'servers.yaml', {
        'Controller': ('overcloud-controller', 10, 1),
        'Compute': ('overcloud-novacompute', 20, 1),
        long_name: ('overcloud-big', 30, 1)})
    done = cli.deploy(work_dir, *deploy_args(tht_dir, servers_file,
                                             roles_file),
                      port=port, timeout=3600)
    assert done.result['status'] == 'DEPLOY_SUCCESS'

    out = tmp_path / 'rhoso'
    result = export(cli, work_dir, out, '--networker', 'Controller')
    # One NodeSet for the cell, the name upstream's openstack-$CELL loops
    # and the fast-forward upgrade find.
    assert result['nodesets'] == {
        'openstack-cell1': ['overcloud-novacompute-0', 'overcloud-big-0'],
        'openstack-networker': ['overcloud-controller-0']}
    for version in VERSIONS:
        validate(cli, out, version)
    documents = step_documents(out)
    ffu = documents['57-nova-compute-ffu/01-deployment-openstack-nova-'
                    'compute-ffu-cell1.yaml']
    assert ffu['spec'] == {'nodeSets': ['openstack-cell1'],
                           'servicesOverride': ['nova-cell1'],
                           'backoffLimit': 3}
    assert "NODESETS=\"['openstack-cell1']\"" in (
        out / 'adoption-vars.sh').read_text()

    skipped = tmp_path / 'rhoso-skipped'
    result = export(cli, work_dir, skipped, '--networker', 'Controller',
                    '--skip-role', long_name)
    assert result['skipped_roles'] == {long_name: 'left out with --skip-role'}
    assert result['nodesets']['openstack-cell1'] == [
        'overcloud-novacompute-0']
    validate(cli, skipped, VERSIONS[-1])


def test_several_roles(cli, tmp_path, work_dir, port, tht_dir,
                       nic_templates):
    roles_file = str(tmp_path / 'roles_data.yaml')
    cli.run('overcloud', 'roles', 'generate', '-o', roles_file,
            '--roles-path', os.path.join(tht_dir, 'roles'),
            'Controller', 'Compute', 'Networker')
    servers_file = servers(tmp_path / 'servers.yaml', {
        'Controller': ('overcloud-controller', 10, 1),
        'Compute': ('overcloud-novacompute', 20, 1),
        'Networker': ('overcloud-networker', 30, 1)})
    done = cli.deploy(work_dir, *deploy_args(tht_dir, servers_file,
                                             roles_file),
                      port=port, timeout=3600)
    assert done.result['status'] == 'DEPLOY_SUCCESS'

    out = tmp_path / 'rhoso'
    refused = cli.run('overcloud', 'adoption', 'export', '--work-dir',
                      str(work_dir), '--output-dir', str(out),
                      '--skip-role', 'Controller', check=False)
    assert helpers.one_line_error(refused).startswith(
        'Role Networker runs ovn_controller as a chassis gateway '
        '(OVNCMSOptions: enable-chassis-as-gw) and no Nova compute')
    assert not out.exists()

    result = export(cli, work_dir, out, '--networker', 'Networker',
                    '--skip-role', 'Controller')
    assert result['skipped_roles'] == {
        'Controller': 'left out with --skip-role'}
    for version in VERSIONS:
        validate(cli, out, version)
    networker = load(out / '60-networker-nodesets' /
                     '01-nodeset-openstack-networker.yaml')['spec']
    assert networker['nodeTemplate']['ansible']['ansibleVars'][
        'edpm_enable_chassis_gw'] is True
    assert 'nova-cell1' not in networker['services']
    assert [n['name'] for n in networker['nodes']['overcloud-networker-0'][
        'networks']] == ['ctlplane', 'internalapi', 'tenant']
