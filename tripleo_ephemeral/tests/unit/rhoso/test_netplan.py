"""The network plan: TripleO's addresses, reservations and the three
parts RHOSO takes, never overlapping."""

import ipaddress

import pytest

from tripleo_ephemeral.rhoso import netplan

CIDR = ipaddress.ip_network('172.17.0.0/24')
TRIPLEO = {'172.17.0.5': 'VIP internal_api',
           '172.17.0.10': 'overcloud-controller-0',
           '172.17.0.20': 'overcloud-novacompute-0'}


def _ranges(plan):
    return {part: [str(r) for r in ranges]
            for part, ranges in plan.parts.items()}


def _want(text, source='option'):
    return netplan.Want(tuple(netplan.Range.parse(t)
                              for t in text.split(',')), 0, source)


def test_defaults_are_carved_from_the_top_down():
    plan = netplan.plan_subnet('internalapi', 'subnet1', CIDR, TRIPLEO)
    assert _ranges(plan) == {
        'dataplane': ['172.17.0.205-172.17.0.254'],
        'loadbalancers': ['172.17.0.195-172.17.0.204'],
        'pods': ['172.17.0.165-172.17.0.194']}
    assert [str(r) for r in plan.left()] == [
        '172.17.0.1-172.17.0.4', '172.17.0.6-172.17.0.9',
        '172.17.0.11-172.17.0.19', '172.17.0.21-172.17.0.164']
    assert plan.left_count() == 4 + 4 + 9 + 144
    assert plan.given == {}


def test_external_networks_get_only_the_dataplane_part():
    wants = netplan.wants_for('external')
    assert (wants['pods'].size, wants['loadbalancers'].size,
            wants['dataplane'].size) == (0, 0, 50)


def test_reservations_and_given_parts_are_kept_out():
    reserved = netplan.Reservation(
        netplan.Range.parse('172.17.0.240-172.17.0.254'), 'OpenShift '
        'workers', False)
    wants = netplan.wants_for('internalapi', {
        'pods': _want('172.17.0.30-172.17.0.59', '--pods-range')})
    plan = netplan.plan_subnet('internalapi', 'subnet1', CIDR, TRIPLEO,
                               [reserved], wants)
    assert _ranges(plan) == {
        'dataplane': ['172.17.0.190-172.17.0.239'],
        'loadbalancers': ['172.17.0.180-172.17.0.189'],
        'pods': ['172.17.0.30-172.17.0.59']}
    assert plan.given == {'pods': '--pods-range'}


@pytest.mark.parametrize('reservations, wants, message', [
    ([], {'dataplane': _want('172.17.0.1-172.17.0.10')},
     'the dataplane range 172.17.0.1-172.17.0.10 (option) overlaps '
     '172.17.0.5 (TripleO\'s VIP internal_api); give other addresses with '
     '--dataplane-range internalapi=<first>-<last>'),
    ([netplan.Reservation(netplan.Range.parse('172.17.0.20'), 'workers',
                          False)], {},
     'the reservation 172.17.0.20 (workers) holds 172.17.0.20 (TripleO\'s '
     'overcloud-novacompute-0): TripleO still uses it; correct --reserve'),
    ([netplan.Reservation(netplan.Range.parse('172.17.0.100-172.17.0.120'),
                          'workers', False)],
     {'pods': _want('172.17.0.110-172.17.0.130')},
     'overlaps 172.17.0.100-172.17.0.120 (reserved: workers)'),
    ([], {'pods': _want('172.17.0.100-172.17.0.130'),
          'loadbalancers': _want('172.17.0.130')},
     'the pods range 172.17.0.100-172.17.0.130 (option) overlaps '
     '172.17.0.130 (the loadbalancers part)'),
    ([], {'dataplane': netplan.Want(None, 500, 'option')},
     'no 500 free addresses in one block for the dataplane part (largest '
     'free block: 234'),
    ([], {'pods': _want('172.17.0.250-172.17.0.255')},
     'the pods range 172.17.0.250-172.17.0.255 is not inside its usable '
     'addresses (172.17.0.1-172.17.0.254)'),
])
def test_what_does_not_fit_is_refused_in_one_line(reservations, wants,
                                                  message):
    with pytest.raises(netplan.PlanError) as caught:
        netplan.plan_subnet('internalapi', 'subnet1', CIDR, TRIPLEO,
                            reservations,
                            netplan.wants_for('internalapi', wants))
    assert message in str(caught.value)
    assert '\n' not in str(caught.value)


def test_an_exclusion_may_hold_tripleo_addresses():
    excluded = netplan.Reservation(netplan.Range.parse('172.17.0.5'),
                                   'excludeAddresses', True)
    plan = netplan.plan_subnet('internalapi', 'subnet1', CIDR, TRIPLEO,
                               [excluded])
    assert plan.reserved == [excluded]


def test_ipv6():
    cidr = ipaddress.ip_network('fd00:fd00:fd00:2000::/64')
    plan = netplan.plan_subnet('internalapi', 'subnet1', cidr,
                               {'fd00:fd00:fd00:2000::10': 'host'})
    assert str(plan.parts['dataplane'][0]) == (
        'fd00:fd00:fd00:2000:ffff:ffff:ffff:ffce-'
        'fd00:fd00:fd00:2000:ffff:ffff:ffff:ffff')


@pytest.mark.parametrize('text', ['172.17.0.9-172.17.0.1', 'x',
                                  '172.17.0.1-fd00::1'])
def test_ranges_are_parsed_strictly(text):
    with pytest.raises(ValueError):
        netplan.Range.parse(text)
