"""What each role becomes: several compute roles of one cell, names of 63
characters, and the topologies the export refuses."""

import copy

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.tests import rhoso_workdir
from tripleo_ephemeral import workdir

LONG = 'ComputeR' + 'x' * 55


def _workdir(tmp_path, **extra):
    """The test work dir with a second compute role ``LONG`` (one host)
    changed by ``extra`` (role data keys)."""
    roles = copy.deepcopy(rhoso_workdir.ROLES)
    second = copy.deepcopy(roles['Compute'])
    second['hosts'] = [('overcloud-big-0', '192.168.24.40', {
        'internal_api': '172.17.0.40', 'tenant': '172.19.0.40'})]
    second.update(extra)
    roles[LONG] = second
    return workdir.WorkDir(rhoso_workdir.write(str(tmp_path / 'wd'),
                                               roles=roles))


def _build(wd, **kwargs):
    kwargs.setdefault('networkers', ['Networker'])
    kwargs.setdefault('skipped', ['Controller'])
    return export.build(wd, plan.choices('18.0-fr6', **kwargs))


def test_one_nodeset_per_cell_what_differs_per_node(tmp_path):
    assert len(LONG) == 63
    wd = _workdir(tmp_path, tuned='throughput-performance',
                  kernel_args='', hugepages={})
    built = _build(wd)
    computes = [g for g in built.groups if g.kind == plan.COMPUTE]
    assert [(g.name, g.role_names) for g in computes] == [
        ('openstack-cell1', ['Compute', LONG])]
    spec = computes[0].document['spec']
    template = spec['nodeTemplate']['ansible']['ansibleVars']
    assert 'edpm_tuned_profile' not in template
    assert template['edpm_ovs_packages'] == ['openvswitch3.3']
    per_node = {n: (v.get('ansible') or {}).get('ansibleVars', {})
                for n, v in spec['nodes'].items()}
    assert per_node['overcloud-big-0']['edpm_tuned_profile'] == \
        'throughput-performance'
    assert per_node['overcloud-novacompute-0']['edpm_tuned_profile'] == \
        'virtual-host'
    assert per_node['overcloud-big-0']['edpm_default_mounts'] == []
    assert built.sources['openstack-cell1']['edpm_ovn_bridge'] == (
        'OVNIntegrationBridge (group_vars/<Role> service_configs '
        'ovn::controller::ovn_bridge), roles Compute, %s' % LONG)
    # Upstream's openstack-$CELL loops and the fast-forward upgrade find it.
    ffu = built.kit.step('nova-compute-ffu').documents[0].body
    assert ffu['metadata']['name'] == 'openstack-nova-compute-ffu-cell1'
    assert ffu['spec']['nodeSets'] == ['openstack-cell1']
    assert built.result.problems == []


def test_roles_with_other_services_get_a_nodeset_each(tmp_path):
    services = rhoso_workdir.ROLES['Compute']['services'] + [
        'ceilometer_agent_compute']
    built = _build(_workdir(tmp_path, services=services))
    names = [g.name for g in built.groups if g.kind == plan.COMPUTE]
    assert names[0] == 'openstack-cell1-compute'
    assert names[1] == 'openstack-cell1-computer%s-%s' % ('x' * 32,
                                                          names[1][-6:])
    assert len(names[1]) == 63
    located = {d.name: d.body for _, d in built.kit.documents()}
    for deployment in ('openstack-pre-adoption', 'tripleo-cleanup',
                       'openstack', 'openstack-nova-compute-ffu-cell1'):
        assert located[deployment]['spec']['nodeSets'] == names
    assert built.result.problems == []


def test_skip_role_on_a_long_compute_role(tmp_path):
    built = _build(_workdir(tmp_path), skipped=['Controller', LONG])
    assert built.skipped[LONG] == 'left out with --skip-role'
    assert [h.name for g in built.groups for h in g.hosts] == [
        'overcloud-novacompute-0', 'overcloud-novacompute-1',
        'overcloud-networker-0']


def test_a_cell_name_too_long_for_its_nodeset(tmp_path):
    wd = workdir.WorkDir(rhoso_workdir.write(str(tmp_path / 'wd')))
    with pytest.raises(exceptions.RhosoExportError,
                       match='Cell name c{54} has 54 characters: its NodeSet '
                             'openstack-c{54} would have more than the 63'):
        _build(wd, default_cell='c' * 54)


@pytest.mark.parametrize('service, message', [
    ('frr', 'Role Compute runs BGP (frr), which the export does not adopt: '
     'adopt its nodes by hand as the procedure\'s BGP notes say'),
    ('neutron_ovn_dpdk', 'Role Compute runs OVS-DPDK (neutron_ovn_dpdk), '
     'which the adoption procedure does not cover'),
    ('neutron_ovs_agent', 'Role Compute runs ML2/OVS (neutron_ovs_agent): '
     'RHOSO adopts ML2/OVN overclouds only'),
    ('neutron_l3', 'Role Compute runs ML2/OVS (neutron_l3)'),
])
def test_topologies_refused_in_one_line(tmp_path, service, message):
    roles = copy.deepcopy(rhoso_workdir.ROLES)
    roles['Compute']['services'].append(service)
    wd = workdir.WorkDir(rhoso_workdir.write(str(tmp_path / 'wd'),
                                             roles=roles))
    with pytest.raises(exceptions.RhosoExportError) as caught:
        _build(wd)
    assert str(caught.value).startswith(message)
    assert 'or leave' in str(caught.value) and '\n' not in str(caught.value)
    _build(wd, skipped=['Controller', 'Compute'])


def test_dvr_computes_stay_gateways(tmp_path):
    roles = copy.deepcopy(rhoso_workdir.ROLES)
    roles['Compute']['cms'] = 'enable-chassis-as-gw'
    wd = workdir.WorkDir(rhoso_workdir.write(str(tmp_path / 'wd'),
                                             roles=roles))
    built = _build(wd)
    assert built.groups[0].document['spec']['nodeTemplate']['ansible'][
        'ansibleVars']['edpm_enable_chassis_gw'] is True


def test_nodeset_names():
    assert plan.nodeset_name('openstack-cell1') == 'openstack-cell1'
    assert plan.nodeset_name('openstack-cell1', 'Compute_Sriov') == \
        'openstack-cell1-compute-sriov'
    long = plan.nodeset_name('openstack-networker', 'N' * 80)
    assert len(long) == 63 and long != plan.nodeset_name(
        'openstack-networker', 'N' * 81)
