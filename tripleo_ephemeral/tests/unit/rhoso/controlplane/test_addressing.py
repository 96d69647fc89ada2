"""Each subnet split between TripleO, the workers, the pods, the load
balancers and the data plane: no address in two parts, refusals in one
line."""

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
            for ip in addressing._addresses(*part):
                add(ip, label)
    for first, last in split.dataplane + split.left:
        for ip in addressing._addresses(first, last):
            add(ip, 'dataplane/left')
    return owner


def test_carved_from_the_top_every_address_once(deployment, networks):
    splits = by_name(addressing.split(deployment, networks,
                                      inputs_mod.inputs(workers=WORKERS)))
    internal = splits['internalapi']
    assert {str(ip): who for ip, who in internal.tripleo.items()} == {
        '172.17.0.5': 'VIP', '172.17.0.10': 'overcloud-controller-0',
        '172.17.0.20': 'overcloud-novacompute-0',
        '172.17.0.21': 'overcloud-novacompute-1',
        '172.17.0.30': 'overcloud-networker-0'}
    assert {n: str(ip) for n, ip in internal.workers.items()} == {
        'worker-0': '172.17.0.253', 'worker-1': '172.17.0.254'}
    assert addressing.text(internal.loadbalancers) == \
        '172.17.0.243-172.17.0.252'
    assert addressing.text(internal.pods) == '172.17.0.213-172.17.0.242'
    for split in splits.values():
        owner = every_address(split)
        low, high = addressing.hosts_of(split.subnet.cidr)
        assert len(owner) == int(high) - int(low) + 1
    # external: no pods, load balancers or workers; ctlplane: no VLAN, no
    # worker addresses.
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
    (dict(pod_ranges={'internalapi': '172.17.0.200-172.17.0.250'},
          lb_ranges={'internalapi': '172.17.0.245-172.17.0.254'}),
     '--pods-range internalapi=172.17.0.200-172.17.0.250 overlaps load '
     'balancers at 172.17.0.245: give a range without it'),
    (dict(pod_ranges={'internalapi': '172.17.0.1-172.17.0.9'}),
     '--pods-range internalapi=172.17.0.1-172.17.0.9 overlaps TripleO (VIP) '
     'at 172.17.0.5: give a range without it'),
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
        'Network internalapi (172.17.0.0/26) has no 30 free addresses in a '
        'row for the pods (48 free in all, TripleO uses 4): give a smaller '
        'range with --pods-range internalapi=FIRST-LAST')


def test_netconfig_keeps_out_of_the_control_planes_parts(deployment,
                                                         networks):
    splits = addressing.split(deployment, networks,
                              inputs_mod.inputs(workers=WORKERS))
    document = addressing.carve_netconfig(netconfig.document(networks),
                                          splits)
    internal = next(n for n in document['spec']['networks']
                    if n['name'] == 'internalapi')['subnets'][0]
    assert internal['allocationRanges'][-1] == {
        'start': '172.17.0.31', 'end': '172.17.0.212'}
