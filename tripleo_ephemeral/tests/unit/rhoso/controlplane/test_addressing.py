"""Each subnet as the control plane uses it: the network plan's parts and
the workers' addresses, no address in two, refusals in one line."""

import ipaddress

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import inputs as inputs_mod

WORKERS = {'worker-0': 'enp6s0', 'worker-1': 'enp6s0'}


def by_name(splits):
    return {s.name: s for s in splits}


def every_address(split):
    """{address: part} over every part; fails on an address in two."""
    owner = {}

    def add(ip, part):
        assert ip not in owner, (ip, owner.get(ip), part)
        owner[ip] = part

    for ip in split.tripleo:
        add(ip, 'tripleo')
    for ip in split.workers.values():
        add(ip, 'worker')
    for label, part in (('pods', split.pods),
                        ('loadbalancers', split.loadbalancers)):
        if part:
            for ip in addressing.addresses(*part):
                add(ip, label)
    for label, ranges in (('dataplane', split.dataplane),
                          ('left', split.left)):
        for first, last in ranges:
            for ip in addressing.addresses(first, last):
                add(ip, label)
    return owner


def test_planned_top_down_every_address_once(deployment, networks):
    splits = by_name(addressing.split(deployment, networks,
                                      inputs_mod.inputs(workers=WORKERS)))
    internal = splits['internalapi']
    assert {str(ip): who for ip, who in internal.tripleo.items()} == {
        '172.17.0.5': 'VIP', '172.17.0.10': 'overcloud-controller-0',
        '172.17.0.20': 'overcloud-novacompute-0',
        '172.17.0.21': 'overcloud-novacompute-1',
        '172.17.0.30': 'overcloud-networker-0'}
    # workers first (reserved), then the plan: data plane, load
    # balancers, pods
    assert {n: str(ip) for n, ip in internal.workers.items()} == {
        'worker-0': '172.17.0.253', 'worker-1': '172.17.0.254'}
    assert [addressing.text(r) for r in internal.dataplane] == [
        '172.17.0.203-172.17.0.252']
    assert addressing.text(internal.loadbalancers) == \
        '172.17.0.193-172.17.0.202'
    assert addressing.text(internal.pods) == '172.17.0.163-172.17.0.192'
    for split in splits.values():
        owner = every_address(split)
        low, high = addressing.hosts_of(split.subnet.cidr)
        assert len(owner) == int(high) - int(low) + 1
    assert splits['external'].pods is None
    assert splits['ctlplane'].workers == {}
    assert splits['ctlplane'].pods is not None


def test_given_ranges_are_kept(deployment, networks):
    given = inputs_mod.inputs(
        workers=WORKERS,
        pod_ranges={'internalapi': '172.17.0.100-172.17.0.149'},
        lb_ranges={'internalapi': '172.17.0.150-172.17.0.159'},
        worker_ranges={'internalapi': '172.17.0.160-172.17.0.161'})
    internal = by_name(addressing.split(deployment, networks, given))[
        'internalapi']
    assert addressing.text(internal.pods) == '172.17.0.100-172.17.0.149'
    assert addressing.text(internal.loadbalancers) == \
        '172.17.0.150-172.17.0.159'
    assert sorted(map(str, internal.workers.values())) == [
        '172.17.0.160', '172.17.0.161']
    assert internal.given == {'pods', 'loadbalancers', 'workers'}
    every_address(internal)


@pytest.mark.parametrize('given, message', [
    (dict(pod_ranges={'internalapi': '172.17.0.190-172.17.0.200'},
          lb_ranges={'internalapi': '172.17.0.195-172.17.0.199'}),
     'network internalapi subnet internal_api_subnet (172.17.0.0/24): the '
     'pods range 172.17.0.190-172.17.0.200 (--pods-range) overlaps '
     '172.17.0.195-172.17.0.199 (the loadbalancers part); give other '
     'addresses with --pods-range internalapi=<first>-<last>'),
    (dict(pod_ranges={'internalapi': '172.17.0.1-172.17.0.9'}),
     'network internalapi subnet internal_api_subnet (172.17.0.0/24): the '
     'pods range 172.17.0.1-172.17.0.9 (--pods-range) overlaps 172.17.0.5 '
     '(TripleO\'s VIP)'),
    (dict(pod_ranges={'internalapi': '172.18.0.1-172.18.0.9'}),
     '--pods-range internalapi=172.18.0.1-172.18.0.9: outside internalapi\'s '
     'subnet 172.17.0.0/24'),
    (dict(lb_ranges={'external': '10.0.0.200-10.0.0.209'}),
     '--loadbalancer-range external: no control-plane pod attaches to '
     'external'),
    (dict(pod_ranges={'nope': '10.0.0.1-10.0.0.2'}),
     '--pods-range nope: the export has no network nope'),
    (dict(workers=WORKERS, worker_ranges={'tenant': '172.19.0.240'}),
     '--ocp-worker-range tenant=172.19.0.240 holds 1 addresses for 2 '
     'workers'),
    (dict(workers=WORKERS,
          worker_ranges={'tenant': '172.19.0.10-172.19.0.11'}),
     '--ocp-worker-range tenant=172.19.0.10-172.19.0.11 holds 172.19.0.10, '
     'TripleO\'s (overcloud-controller-0)'),
])
def test_impossible_ranges_one_line(deployment, networks, given, message):
    with pytest.raises(exceptions.RhosoExportError) as e:
        addressing.split(deployment, networks, inputs_mod.inputs(**given))
    assert str(e.value).startswith(message)
    assert '\n' not in str(e.value)


def test_too_small_a_subnet(deployment, networks):
    internal = next(n for n in networks if n.name == 'internalapi')
    internal.subnets[0] = netconfig.Subnet(
        'internal_api_subnet', ipaddress.ip_network('172.17.0.0/26'),
        pools=[(ipaddress.ip_address('172.17.0.4'),
                ipaddress.ip_address('172.17.0.62'))])
    with pytest.raises(exceptions.RhosoExportError) as e:
        addressing.split(deployment, networks, inputs_mod.inputs())
    assert str(e.value).startswith(
        'network internalapi subnet internal_api_subnet (172.17.0.0/26): no '
        '50 free addresses in one block for the dataplane part (largest free '
        'block: 32, after TripleO\'s 4 addresses and 0 reservations)')


def test_netconfig_gets_the_data_planes_part(deployment, networks):
    splits = addressing.split(deployment, networks,
                              inputs_mod.inputs(workers=WORKERS))
    document = addressing.carve_netconfig(netconfig.document(networks),
                                          splits)
    internal = next(n for n in document['spec']['networks']
                    if n['name'] == 'internalapi')['subnets'][0]
    assert internal['allocationRanges'] == [
        {'start': '172.17.0.203', 'end': '172.17.0.252'}]
