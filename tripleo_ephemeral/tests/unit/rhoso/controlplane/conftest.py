"""A small work dir with a control plane, read as an export reads it."""

import pytest

from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import source
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


@pytest.fixture
def networks(deployment):
    return netconfig.networks(deployment, plan.choices('18.0-fr6', **CHOICES))
