"""The workers' addresses, reserved before the network plan, and the
subnets as the control plane reads them: no address in two parts,
refusals in one line."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import netplan
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import inputs as inputs_mod
from tripleo_ephemeral.tests.unit.rhoso.controlplane import conftest

WORKERS = {'worker-0': 'enp6s0', 'worker-1': 'enp6s0'}


def by_name(networks, workers):
    return {s.name: s for s in addressing.splits(networks, workers)}


def test_workers_reserved_before_the_plan(deployment):
    networks, workers = conftest.planned(
        deployment, inputs_mod.inputs(workers=WORKERS))
    splits = by_name(networks, workers)
    internal = splits['internalapi']
    assert {n: str(ip) for n, ip in internal.workers.items()} == {
        'worker-0': '172.17.0.253', 'worker-1': '172.17.0.254'}
    assert [(str(r.range), r.why) for r in internal.plan.reserved] == [
        ('172.17.0.253-172.17.0.254', 'OpenShift workers (carved)')]
    assert addressing.text(internal.loadbalancers) == \
        '172.17.0.193-172.17.0.202'
    assert addressing.text(internal.pods) == '172.17.0.163-172.17.0.192'
    assert [str(r) for r in internal.plan.parts[netplan.DATAPLANE]] == [
        '172.17.0.203-172.17.0.252']
    # no VLAN, no worker address; no pods on external
    assert splits['ctlplane'].workers == {}
    assert splits['external'].pods is None
    assert not splits['external'].attached


def test_given_worker_range(deployment):
    given = inputs_mod.inputs(
        workers=WORKERS,
        worker_ranges={'internalapi': '172.17.0.160-172.17.0.161'})
    wants = {'internalapi': {netplan.PODS: netplan.Want(
        (netplan.Range.parse('172.17.0.100-172.17.0.129'),), 0,
        '--pods-range')}}
    networks, workers = conftest.planned(
        deployment, given, plan.NetworkChoices(None, {}, wants))
    internal = by_name(networks, workers)['internalapi']
    assert sorted(map(str, internal.workers.values())) == [
        '172.17.0.160', '172.17.0.161']
    assert addressing.text(internal.pods) == '172.17.0.100-172.17.0.129'
    assert internal.plan.reserved[0].why == \
        'OpenShift workers (--ocp-worker-range)'


def test_carved_workers_avoid_the_operators_ranges(deployment):
    reserve = {'internalapi': [netplan.Reservation(
        netplan.Range.parse('172.17.0.240-172.17.0.254'), '--reserve',
        False)]}
    networks, workers = conftest.planned(
        deployment, inputs_mod.inputs(workers=WORKERS),
        plan.NetworkChoices(None, reserve, {}))
    assert sorted(map(str, workers['internalapi'].values())) == [
        '172.17.0.238', '172.17.0.239']


@pytest.mark.parametrize('given, message', [
    (dict(worker_ranges={'tenant': '172.19.0.240'}),
     '--ocp-worker-range tenant=172.19.0.240 holds 1 addresses for 2 '
     'workers: give one address per --ocp-worker'),
    (dict(worker_ranges={'tenant': '172.19.0.10-172.19.0.11'}),
     '--ocp-worker-range tenant=172.19.0.10-172.19.0.11 holds 172.19.0.10, '
     'TripleO\'s (host overcloud-controller-0): give addresses without it'),
    (dict(worker_ranges={'tenant': '172.18.0.1-172.18.0.2'}),
     '--ocp-worker-range tenant=172.18.0.1-172.18.0.2: outside tenant\'s '
     'subnet 172.19.0.0/24; give addresses inside it'),
    (dict(worker_ranges={'external': '10.0.0.200-10.0.0.201'}),
     '--ocp-worker-range external: the workers get addresses on the VLANs '
     'of ctlplane, internalapi, storage, tenant only: remove the option'),
    (dict(worker_ranges={'nope': '10.0.0.1-10.0.0.2'}),
     '--ocp-worker-range nope: the export has no network nope'),
])
def test_impossible_worker_ranges_one_line(deployment, given, message):
    with pytest.raises(exceptions.RhosoExportError) as e:
        conftest.planned(deployment, inputs_mod.inputs(workers=WORKERS,
                                                       **given))
    assert str(e.value).startswith(message)
    assert '\n' not in str(e.value)


def test_an_overlap_with_the_workers_is_the_plans_refusal(deployment):
    wants = {'internalapi': {netplan.LOADBALANCERS: netplan.Want(
        (netplan.Range.parse('172.17.0.250-172.17.0.254'),), 0,
        '--loadbalancer-range')}}
    with pytest.raises(exceptions.RhosoExportError) as e:
        conftest.planned(deployment, inputs_mod.inputs(
            workers=WORKERS, worker_ranges={
                'internalapi': '172.17.0.253-172.17.0.254'}),
            plan.NetworkChoices(None, {}, wants))
    assert 'overlaps 172.17.0.253-172.17.0.254 (reserved: OpenShift ' \
        'workers (--ocp-worker-range))' in str(e.value)
