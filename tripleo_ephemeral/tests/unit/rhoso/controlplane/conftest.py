"""A small work dir with a control plane, read and planned as an export
reads and plans it."""

import pytest

from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import network_plan
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.tests import rhoso_controlplane_workdir
from tripleo_ephemeral import workdir

CHOICES = dict(networkers=['Networker'], skipped=['Controller'])


@pytest.fixture
def wd(tmp_path):
    rhoso_controlplane_workdir.write(str(tmp_path / 'wd'))
    return workdir.WorkDir(str(tmp_path / 'wd'))


@pytest.fixture
def deployment(wd):
    return source.read(wd)


def planned(deployment, inputs, network=None):
    """``(networks, workers)`` as the export plans them: the workers'
    addresses reserved, then the network plan (``network``: the plan's
    :class:`~tripleo_ephemeral.rhoso.plan.NetworkChoices`)."""
    choices = plan.choices('18.0-fr6', network=network, **CHOICES)
    networks = netconfig.networks(deployment, choices)
    workers, reservations = addressing.workers(networks, inputs,
                                               choices.network)
    network_plan.plan(networks, addressing.with_workers(choices,
                                                        reservations))
    return networks, workers
