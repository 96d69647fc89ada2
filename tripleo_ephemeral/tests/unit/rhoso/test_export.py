"""An export of a small THT-shaped work dir (tests/rhoso_workdir.py):
the documents, the files, and what the checks catch."""

import os
import stat

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import export_files
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral.rhoso import writing
from tripleo_ephemeral.tests import rhoso_workdir
from tripleo_ephemeral import workdir

CHOICES = dict(networkers=['Networker'], skipped=['Controller'])


@pytest.fixture
def wd(tmp_path):
    rhoso_workdir.write(str(tmp_path / 'wd'))
    return workdir.WorkDir(str(tmp_path / 'wd'))


def build(wd, version='18.0-fr6', **kwargs):
    return export.build(wd, plan.choices(version, **dict(CHOICES, **kwargs)))


def docs(built, kind):
    return {d['metadata']['name']: d for d in built.named(kind)}


def write(built, dest):
    writing.write(dest, export_files.files(built),
                  export_files.private_dirs(built))
    return dest


def test_nodesets_follow_the_inventory(wd):
    built = build(wd)
    nodesets = docs(built, 'OpenStackDataPlaneNodeSet')
    assert sorted(nodesets) == ['openstack-cell1', 'openstack-networker']
    cell1 = nodesets['openstack-cell1']['spec']
    assert cell1['nodes']['overcloud-novacompute-1'] == {
        'hostName': 'overcloud-novacompute-1.localdomain',
        'ansible': {'ansibleHost': '192.168.24.21'},
        'networks': [
            {'name': 'ctlplane', 'subnetName': 'subnet1',
             'fixedIP': '192.168.24.21', 'defaultRoute': True},
            {'name': 'internalapi', 'subnetName': 'subnet1',
             'fixedIP': '172.17.0.21'},
            {'name': 'tenant', 'subnetName': 'subnet1',
             'fixedIP': '172.19.0.21'}]}
    variables = cell1['nodeTemplate']['ansible']['ansibleVars']
    assert cell1['nodeTemplate']['ansible']['ansibleUser'] == 'tripleo-admin'
    assert variables['edpm_network_config_nmstate'] is False
    assert variables['edpm_tuned_profile'] == 'virtual-host'
    assert variables['edpm_kernel_args'].startswith('default_hugepagesz=1GB')
    assert variables['edpm_kernel_hugepages'] == {
        1048576: {'count': 4, 'default': True}}
    assert variables['edpm_enable_chassis_gw'] is False
    assert variables['edpm_sshd_allowed_ranges'] == ['192.168.24.0/24']
    assert variables['timesync_ntp_servers'][0] == {
        'hostname': '0.pool.ntp.org'}
    assert 'role_networks' not in variables['edpm_network_config_template']
    assert cell1['services'][-2:] == ['libvirt', 'nova-cell1']
    # What the procedure sets for adopted nodes.
    assert variables['edpm_bootstrap_release_version_package'] == []
    assert 'sudo rm -f /run/virtlogd.pid' in variables[
        'edpm_bootstrap_command']
    assert variables['edpm_ovs_packages'] == ['openvswitch3.3']
    assert variables['edpm_default_mounts'] == [{
        'path': '/dev/hugepages1G', 'opts': 'pagesize=1G',
        'fstype': 'hugetlbfs', 'group': 'hugetlbfs'}]
    assert cell1['env'][-1] == {'name': 'ANSIBLE_VERBOSITY', 'value': '3'}
    networker = nodesets['openstack-networker']['spec']
    assert networker['nodeTemplate']['ansible']['ansibleVars'][
        'edpm_enable_chassis_gw'] is True
    assert networker['nodes']['overcloud-networker-0']['networks'][-1] == {
        'name': 'external', 'subnetName': 'subnet1',
        'fixedIP': '10.0.0.30', 'defaultRoute': True}
    networker_vars = networker['nodeTemplate']['ansible']['ansibleVars']
    assert 'edpm_bootstrap_command' not in networker_vars
    assert networker_vars['enable_debug'] is False
    assert networker['services'][-1] == 'ovn'
    assert built.skipped == {'Controller': 'left out with --skip-role'}
    assert {h: why for t in built.templates.values()
            for h, why in t.proof.items()} == {
        'overcloud-novacompute-0': None, 'overcloud-novacompute-1': None,
        'overcloud-networker-0': None}


def test_netconfig_keeps_addresses_in_use_out_of_ipam(wd):
    built = build(wd)
    netconfig = built.netconfig
    assert netconfig['metadata']['name'] == 'tripleo-netconfig'
    networks = netconfig['spec']['networks']
    assert [n['name'] for n in networks] == ['ctlplane', 'internalapi',
                                             'tenant', 'external']
    ctlplane, internalapi = networks[0]['subnets'][0], networks[1]
    assert ctlplane['gateway'] == '192.168.24.1'
    assert ctlplane['excludeAddresses'] == ['192.168.24.5']
    assert ctlplane['allocationRanges'] == [
        {'start': '192.168.24.205', 'end': '192.168.24.254'}]
    assert internalapi['dnsDomain'] == 'internalapi.localdomain'
    assert internalapi['subnets'][0]['name'] == 'subnet1'
    assert internalapi['subnets'][0]['vlan'] == 20
    assert networks[2]['mtu'] == 1450
    plan_ = built.networks[1].subnets[0].plan
    assert {part: [str(r) for r in ranges]
            for part, ranges in plan_.parts.items()} == {
        'dataplane': ['172.17.0.205-172.17.0.254'],
        'loadbalancers': ['172.17.0.195-172.17.0.204'],
        'pods': ['172.17.0.165-172.17.0.194']}


def test_files_secrets_and_validation(wd, tmp_path):
    built = build(wd)
    dest = write(built, str(tmp_path / 'out'))
    names = ('50-netconfig/01-netconfig-tripleo-netconfig.yaml',
             'adoption-vars.sh', 'secrets/passwords.sh',
             'secrets/osp-secret-patch', '51-dataplane-secrets',
             '51-dataplane-secrets/01-secret-dataplane-adoption-secret.yaml',
             'secrets', '.')
    mode = {name: stat.S_IMODE(os.stat(os.path.join(dest, name)).st_mode)
            for name in names}
    assert mode == dict(zip(names, (0o644, 0o644, 0o600, 0o600, 0o700,
                                    0o600, 0o700, 0o700)))
    # Nothing at the top is a document oc apply would read.
    assert [n for n in os.listdir(dest) if n.endswith(
        ('.yaml', '.yml', '.json'))] == []
    variables = open(os.path.join(dest, 'adoption-vars.sh')).read()
    assert 'admin-secret' not in variables
    assert 'SOURCE_MARIADB_IP=(\n  [default]=172.17.0.5\n)' in variables
    assert '[overcloud-novacompute-0.localdomain]=192.168.24.20' in variables
    assert 'CONTROLLER1_SSH="ssh -i $EDPM_PRIVATEKEY_PATH ' \
        'tripleo-admin@192.168.24.10"' in variables
    assert "NODESETS=\"['openstack-cell1']\"" in variables
    nodeset = open(os.path.join(dest, '53-compute-nodesets',
                                '01-nodeset-openstack-cell1.yaml')).read()
    assert '# TunedProfileName (group_vars/Compute tuned_profile)\n' \
        '        edpm_tuned_profile: virtual-host' in nodeset
    report = open(os.path.join(dest, 'report.md')).read()
    assert '| overcloud-novacompute-0 | the same |' in report
    documents, unreadable = validate.load_dir(dest)
    assert unreadable == [] and len(documents) == 15
    for version in ('18.0-fr2', '18.0-fr6'):
        result = validate.check(documents, version, built.deployment,
                                plan.choices(version).rhoso_network,
                                skipped={'Controller'})
        assert result.problems == []
        assert [p.result for p in result.proofs] == [None] * 3


def test_embedded_secrets(wd, tmp_path):
    built = build(wd, embed_secrets=True)
    names = {f.name: f for f in export_files.files(built)}
    assert 'secrets/passwords.sh' not in names
    assert names['adoption-vars.sh'].mode == 0o600
    assert 'ADMIN_PASSWORD=admin-secret' in names['adoption-vars.sh'].text


def test_cells(wd):
    built = build(wd, cells={'Compute': 'cell2'})
    assert 'openstack-cell2' in docs(built, 'OpenStackDataPlaneNodeSet')
    assert 'nova-cell2' in docs(built, 'OpenStackDataPlaneService')


def test_computes_on_ceph(tmp_path):
    path = rhoso_workdir.write(str(tmp_path / 'wd'), ceph=True)
    built = build(workdir.WorkDir(path))
    spec = docs(built, 'OpenStackDataPlaneNodeSet')['openstack-cell1'][
        'spec']
    assert spec['services'][spec['services'].index('ceph-client') + 1] == \
        'install-certs'
    assert spec['nodeTemplate']['extraMounts'][0]['volumes'][0][
        'secret'] == {'secretName': 'ceph-conf-files'}
    conf = docs(built, 'ConfigMap')['nova-cells-global-config']['data'][
        '03-ceph-nova.conf']
    assert conf == ('[libvirt]\nimages_type=rbd\nimages_rbd_pool=vms_fast\n'
                    'rbd_user=openstack\nrbd_secret_uuid=fsid-1234\n')
    secret = next(s for s in built.secrets if s.name == 'ceph-conf-files')
    assert 'ceph-conf-files' in [
        d.name for d in built.kit.step('dataplane-secrets').documents]
    assert sorted(secret.document['data']) == [
        'ceph.client.openstack.keyring', 'ceph.conf']
    assert built.result.problems == []


def _tamper(documents):
    nodeset = next(d for _, d in documents if d['metadata']['name'] ==
                   'openstack-cell1')
    node = nodeset['spec']['nodes']['overcloud-novacompute-0']
    node['hostName'] = 'overcloud-novacompute-0'
    del node['networks'][1]['fixedIP']
    variables = nodeset['spec']['nodeTemplate']['ansible']['ansibleVars']
    del variables['edpm_tuned_profile']
    variables['edpm_network_config_nmstate'] = True
    variables['edpm_network_config_template'] = variables[
        'edpm_network_config_template'].replace('vlan_id', 'vlan')


def test_the_quiet_mistakes_are_caught(wd):
    built = build(wd)
    documents = [(path.split(' (')[0], yaml.safe_load(yaml.safe_dump(doc)))
                 for path, doc in export.documents(built)]
    _tamper(documents)
    result = validate.check(documents, '18.0-fr6', built.deployment,
                            plan.choices('18.0-fr6').rhoso_network)
    found = {(p.document, p.path): p for p in result.problems}
    prefix = '53-compute-nodesets/01-nodeset-openstack-cell1.yaml'
    template = 'spec.nodeTemplate.ansible.ansibleVars.'
    assert [(p.document, p.path, p.rule) for p in result.problems] == [
        (prefix, 'spec.nodes.overcloud-novacompute-0.hostName', 'work dir'),
        (prefix, 'spec.nodes.overcloud-novacompute-0.networks[internalapi]'
                 '.fixedIP', 'work dir'),
        (prefix, template + 'edpm_network_config_nmstate', 'work dir'),
        (prefix, template + 'edpm_tuned_profile', 'work dir'),
        (prefix, template + 'edpm_network_config_template', 'nic'),
        (prefix, template + 'edpm_network_config_template', 'nic')]
    assert 'internalapi_vlan is undefined' in result.problems[-1].message
    assert found[(prefix, 'spec.nodes.overcloud-novacompute-0.hostName')] \
        .fix == 'set hostName: overcloud-novacompute-0.localdomain'


@pytest.mark.parametrize('change, kwargs, message', [
    (lambda p: os.unlink(os.path.join(p, 'overcloud-deployment_status'
                                         '.yaml')), {},
     'holds no deployment of stack overcloud'),
    (lambda p: rhoso_workdir.write(p, status='DEPLOY_FAILED'), {},
     'ended DEPLOY_FAILED'),
    (None, {'skipped': []}, 'Role Controller runs ovn_controller as a '
     'chassis gateway'),
    (None, {'networkers': ['Nope']}, '--networker Nope: stack overcloud has '
     'no role Nope'),
    (None, {'cells': {'Networker': 'cell2'}}, 'joins no cell'),
    (None, {'networkers': ['Compute']}, 'runs Nova compute'),
    (lambda p: os.unlink(os.path.join(p, 'nic-templates', 'vlans.j2')), {},
     'give --nic-template-dir'),
])
def test_refusals(wd, change, kwargs, message):
    if change:
        change(wd.path)
    with pytest.raises(exceptions.RhosoExportError, match=message):
        build(wd, **kwargs)


def test_a_stack_without_the_data(wd):
    group_vars = os.path.join(wd.config_download_dir, 'group_vars',
                              'Compute')
    with open(group_vars, 'w') as f:
        yaml.safe_dump({'tripleo_role_name': 'Compute'}, f)
    with pytest.raises(exceptions.RhosoExportError,
                       match='group_vars/Compute has no service_names'):
        build(wd)


def test_a_template_that_does_not_convert(wd, tmp_path):
    template = tmp_path / 'all.j2'
    template.write_text('network_config:\n{% for n in networks_all %}\n'
                        '- name: {{ lookup("vars", networks_lower[n] ~ '
                        '"_ip") }}\n{% endfor %}\n')
    with pytest.raises(exceptions.RhosoExportError,
                       match='cannot be converted so that EDPM renders the '
                             'same network_config'):
        build(wd, nic_templates={'Compute': str(template)})
