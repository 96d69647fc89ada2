"""The webhook and IPAM rules, one by one."""

import copy

import pytest

from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso import webhooks

NETCONFIG = {
    'kind': 'NetConfig', 'metadata': {'name': 'netconfig'},
    'spec': {'networks': [
        {'name': 'ctlplane', 'dnsDomain': 'ctlplane.localdomain',
         'subnets': [{'name': 'ctlplane-subnet', 'cidr': '192.0.2.0/24',
                      'gateway': '192.0.2.1', 'excludeAddresses':
                          ['192.0.2.5'],
                      'allocationRanges': [{'start': '192.0.2.100',
                                            'end': '192.0.2.200'}]}]},
        {'name': 'internalapi', 'dnsDomain': 'internalapi.localdomain',
         'subnets': [{'name': 'internal_api_subnet', 'cidr': '172.17.0.0/24',
                      'allocationRanges': []}]}]}}


def nodeset(name='openstack-cell1', host='c0', ip='192.0.2.20'):
    return {'kind': 'OpenStackDataPlaneNodeSet', 'metadata': {'name': name},
            'spec': {'preProvisioned': True, 'services': ['nova'],
                     'nodes': {host: {
                         'hostName': '%s.localdomain' % host,
                         'ansible': {'ansibleHost': ip},
                         'networks': [{'name': 'ctlplane',
                                       'subnetName': 'ctlplane-subnet',
                                       'fixedIP': ip}]}}}}


def check(*documents, version='18.0-fr6'):
    return webhooks.check([('doc%d' % i, d) for i, d in enumerate(documents)],
                          schema.load(version))


def test_valid():
    assert check(NETCONFIG, nodeset(), nodeset('openstack-networker', 'n0',
                                               '192.0.2.30')) == []


def test_ansible_host_must_be_an_ip_from_fr5():
    doc = nodeset()
    doc['spec']['nodes']['c0']['ansible']['ansibleHost'] = 'c0.localdomain'
    assert check(NETCONFIG, doc, version='18.0-fr2') == []
    found = check(NETCONFIG, doc)
    assert [(p.path, p.rule) for p in found] == [
        ('spec.nodes.c0.ansible.ansibleHost', 'webhook')]


def test_hosts_are_unique_across_nodesets():
    found = check(NETCONFIG, nodeset(), nodeset('other', 'c0', '192.0.2.21'))
    assert [p.path for p in found] == ['spec.nodes.c0.hostName']
    found = check(NETCONFIG, nodeset(), nodeset('other', 'c1', '192.0.2.20'))
    assert 'spec.nodes.c1.ansible.ansibleHost' in [p.path for p in found]


def test_nodeset_name_is_a_hostname():
    assert check(NETCONFIG, nodeset('cell_1'))[0].path == 'metadata.name'


@pytest.mark.parametrize('change, path', [
    (lambda n: n[0].update(dnsDomain='ctlplane.localdomain.'),
     'spec.networks[0].dnsDomain'),
    (lambda n: n[1].update(name='ctlplane'), 'spec.networks[1].name'),
    (lambda n: n[1]['subnets'][0].update(cidr='192.0.2.0/24'),
     'spec.networks[1].subnets[0].cidr'),
    (lambda n: n[0]['subnets'][0].update(gateway='10.0.0.1'),
     'spec.networks[0].subnets[0].gateway'),
    (lambda n: n[0]['subnets'][0]['allocationRanges'][0].update(
        end='192.0.2.99'), 'spec.networks[0].subnets[0].allocationRanges[0]'),
    (lambda n: n[0]['subnets'][0].update(routes=[
        {'destination': '10.1.0.0/16', 'nexthop': '172.17.0.1'}]),
     'spec.networks[0].subnets[0].routes[0].nexthop'),
])
def test_netconfig_rules(change, path):
    doc = copy.deepcopy(NETCONFIG)
    change(doc['spec']['networks'])
    assert path in [p.path for p in check(doc)]


@pytest.mark.parametrize('field, value, message', [
    ('fixedIP', '10.0.0.3', 'not inside subnet'),
    ('fixedIP', '192.0.2.5', 'excludeAddresses'),
    ('subnetName', 'subnet1', 'has no subnet'),
    ('name', 'storage', 'not in the NetConfig'),
])
def test_node_addresses(field, value, message):
    doc = nodeset()
    doc['spec']['nodes']['c0']['networks'][0][field] = value
    found = check(NETCONFIG, doc)
    assert [p.rule for p in found] == ['ipam']
    assert message in found[0].message


def test_fixed_ip_taken_twice():
    other = nodeset('other', 'c1', '192.0.2.21')
    other['spec']['nodes']['c1']['networks'][0]['fixedIP'] = '192.0.2.20'
    found = check(NETCONFIG, nodeset(), other)
    assert ['already node c0' in p.message for p in found] == [True]


def test_deployments_and_services():
    deployment = {'kind': 'OpenStackDataPlaneDeployment',
                  'metadata': {'name': 'd'},
                  'spec': {'nodeSets': ['openstack-cell1', 'gone'],
                           'servicesOverride': ['pre-adoption-validation']}}
    doc = nodeset()
    doc['spec']['services'] = ['nova', 'nova-cell9']
    found = check(NETCONFIG, doc, deployment)
    assert sorted(p.path for p in found) == [
        'spec.nodeSets[1]', 'spec.servicesOverride[0]', 'spec.services[1]']
    service = {'kind': 'OpenStackDataPlaneService',
               'metadata': {'name': 'pre-adoption-validation'},
               'spec': {'playbook': 'osp.edpm.pre_adoption_validation'}}
    assert len(check(NETCONFIG, doc, deployment, service)) == 2
    del service['spec']['playbook']
    assert [p.message for p in check(service)] == [
        'playbook, playbookContents and role cannot be empty at the same '
        'time']
