"""TripleO's networks merged into the operator's NetConfig, never
replacing it: theirs kept, subnet names and ranges theirs where they have
the subnet, TripleO's addresses cut out, clashes refused in one line."""

import copy
import ipaddress

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral.tests import rhoso_workdir
from tripleo_ephemeral import workdir

THEIRS = {
    'apiVersion': 'network.openstack.org/v1beta1', 'kind': 'NetConfig',
    'metadata': {
        'name': 'netconfig', 'namespace': 'openstack',
        'resourceVersion': '4711', 'uid': 'abc', 'generation': 3,
        'annotations': {'kubectl.kubernetes.io/last-applied-configuration':
                        '{}', 'team': 'net'}},
    'spec': {'networks': [
        {'name': 'ctlplane', 'dnsDomain': 'ctlplane.example.com',
         'subnets': [{'name': 'subnet1', 'cidr': '192.168.24.0/24',
                      'gateway': '192.168.24.1',
                      'allocationRanges': [{'start': '192.168.24.100',
                                            'end': '192.168.24.120'}]}]},
        {'name': 'internalapi', 'dnsDomain': 'internalapi.example.com',
         'mtu': 1500,
         'subnets': [{'name': 'ia', 'cidr': '172.17.0.0/24', 'vlan': 20,
                      'allocationRanges': [{'start': '172.17.0.15',
                                            'end': '172.17.0.40'}],
                      'excludeAddresses': ['172.17.0.33']}]},
        {'name': 'octavia', 'dnsDomain': 'octavia.example.com',
         'subnets': [{'name': 'subnet1', 'cidr': '172.23.0.0/24',
                      'vlan': 23,
                      'allocationRanges': [{'start': '172.23.0.100',
                                            'end': '172.23.0.250'}]}]},
    ]},
    'status': {'conditions': []},
}


@pytest.fixture
def wd(tmp_path):
    return workdir.WorkDir(rhoso_workdir.write(str(tmp_path / 'wd')))


def _build(wd, tmp_path, theirs, **network):
    path = tmp_path / 'netconfig.yaml'
    path.write_text(yaml.safe_dump(theirs))
    return export.build(wd, plan.choices(
        '18.0-fr6', networkers=['Networker'], skipped=['Controller'],
        network=plan.NetworkChoices(str(path), **network)))


def test_merged_into_theirs(wd, tmp_path):
    listed = {'apiVersion': 'v1', 'kind': 'List', 'items': [THEIRS]}
    built = _build(wd, tmp_path, listed)
    merged = built.netconfig
    assert built.merged_into == 'netconfig'
    assert merged['metadata'] == {
        'name': 'netconfig', 'namespace': 'openstack',
        'resourceVersion': '4711', 'annotations': {'team': 'net'}}
    assert 'status' not in merged
    networks = {n['name']: n for n in merged['spec']['networks']}
    assert list(networks) == ['ctlplane', 'internalapi', 'octavia', 'tenant',
                              'external']
    assert networks['octavia'] == THEIRS['spec']['networks'][2]
    internalapi = networks['internalapi']
    assert internalapi['dnsDomain'] == 'internalapi.example.com'
    assert internalapi['subnets'] == [{
        'name': 'ia', 'cidr': '172.17.0.0/24', 'vlan': 20,
        'allocationRanges': [{'start': '172.17.0.15', 'end': '172.17.0.19'},
                             {'start': '172.17.0.22', 'end': '172.17.0.29'},
                             {'start': '172.17.0.31', 'end': '172.17.0.40'}],
        'excludeAddresses': ['172.17.0.5', '172.17.0.33']}]
    ctlplane = built.networks[0].subnets[0].plan
    assert ctlplane.tripleo[ipaddress.ip_address('192.168.24.1')] == \
        'gateway'
    nodes = built.groups[0].document['spec']['nodes']
    assert nodes['overcloud-novacompute-0']['networks'][1] == {
        'name': 'internalapi', 'subnetName': 'ia', 'fixedIP': '172.17.0.20'}
    # The webhook's update rule: nothing of theirs dropped or changed.
    for net in THEIRS['spec']['networks']:
        for subnet in net['subnets']:
            found = next(s for s in networks[net['name']]['subnets']
                         if s['name'] == subnet['name'])
            assert (found['cidr'], found.get('vlan')) == (
                subnet['cidr'], subnet.get('vlan'))
    assert built.result.problems == []


def test_an_empty_list_is_a_namespace_without_one(wd, tmp_path):
    built = _build(wd, tmp_path, {'apiVersion': 'v1', 'kind': 'List',
                                  'items': []})
    assert built.merged_into is None
    assert built.netconfig['metadata']['name'] == 'tripleo-netconfig'


def _change(change):
    theirs = copy.deepcopy(THEIRS)
    change(theirs['spec']['networks'])
    return theirs


@pytest.mark.parametrize('theirs, message', [
    ({'kind': 'List', 'items': [THEIRS, THEIRS]}, 'it holds 2 NetConfigs'),
    ({'kind': 'ConfigMap'}, 'is neither a NetConfig nor the List'),
    (_change(lambda n: n.append(['x'])), 'is not a list of networks'),
    (_change(lambda n: n[1]['subnets'][0].update(vlan=21)),
     'network internalapi subnet ia (172.17.0.0/24) has VLAN 21 where '
     'TripleO\'s nodes use 20'),
    (_change(lambda n: n[1]['subnets'][0].update(cidr='172.17.0.0/16')),
     'network internalapi subnet ia (172.17.0.0/16) overlaps TripleO\'s '
     'internal_api subnet 172.17.0.0/24'),
    (_change(lambda n: n[2]['subnets'][0].update(cidr='172.19.0.0/24',
                                                 vlan=50)),
     'network octavia has subnet subnet1 (172.19.0.0/24), which TripleO '
     'uses as network tenant: give that TripleO network the name with '
     '--network-map tenant=octavia'),
])
def test_a_clash_is_refused_in_one_line(wd, tmp_path, theirs, message):
    with pytest.raises(exceptions.RhosoExportError) as caught:
        _build(wd, tmp_path, theirs)
    assert message in str(caught.value)
    assert '\n' not in str(caught.value)


def test_reservations_and_parts_with_theirs(wd, tmp_path):
    from tripleo_ephemeral.rhoso import netplan
    reserve = netplan.Reservation(
        netplan.Range.parse('172.17.0.200-172.17.0.220'), '--reserve',
        False)
    built = _build(wd, tmp_path, THEIRS,
                   reservations={'internalapi': [reserve]},
                   wants={'internalapi': {'pods': netplan.Want(
                       (netplan.Range.parse('172.17.0.150-172.17.0.179'),),
                       0, '--pods-range')}})
    subnet = built.networks[1].subnets[0].plan
    assert [str(r) for r in subnet.parts['pods']] == [
        '172.17.0.150-172.17.0.179']
    assert [str(r) for r in subnet.parts['loadbalancers']] == [
        '172.17.0.245-172.17.0.254']
    with pytest.raises(netplan.PlanError, match=r'overlaps 172\.17\.0\.31-'
                       r'172\.17\.0\.40 \(the dataplane part\)'):
        _build(wd, tmp_path, THEIRS, wants={'internalapi': {
            'pods': netplan.Want((netplan.Range.parse(
                '172.17.0.34-172.17.0.45'),), 0, '--pods-range')}})
    with pytest.raises(exceptions.RhosoExportError,
                       match='--reserve nope=...: the export has no network '
                             'nope'):
        _build(wd, tmp_path, THEIRS, reservations={'nope': [reserve]})


def test_validate_keeps_the_merged_netconfig_valid(wd, tmp_path):
    built = _build(wd, tmp_path, THEIRS)
    assert validate.check(export.documents(built), '18.0-fr2',
                          built.deployment).problems == []
