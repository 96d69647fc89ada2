"""Every THT parameter the report names as a setting's source is the one
THT 18.0.0 renders into that hiera key."""

import glob
import os
import re

import pytest

from tripleo_ephemeral.rhoso.controlplane import apis
from tripleo_ephemeral.rhoso.controlplane import cinder
from tripleo_ephemeral.rhoso.controlplane import glance
from tripleo_ephemeral.rhoso.controlplane import keystone
from tripleo_ephemeral.rhoso.controlplane import neutron
from tripleo_ephemeral.rhoso.controlplane import nova

PAIRS = sorted({(key, parameter) for table in (
    keystone.OPTIONS, neutron.OPTIONS, glance.API_OPTIONS, nova.SCHEDULER,
    nova.COMPUTE, apis.HEAT) for _, _, key, parameter in table
    if parameter} | {
    (key, parameter) for options in glance.BACKEND_OPTIONS.values()
    for _, key, parameter in options if key and parameter} | {
    (prefix + key, parameter) for prefix, table in (
        (cinder.RBD, cinder.RBD_OPTIONS), (cinder.NFS, cinder.NFS_OPTIONS))
    for _, key, parameter in table if parameter})


@pytest.fixture(scope='module')
def templates(tht_dir):
    lines = []
    for path in glob.glob(os.path.join(tht_dir, 'deployment', '**', '*.yaml'),
                          recursive=True):
        with open(path) as f:
            lines.append(f.read().splitlines())
    return lines


@pytest.mark.parametrize('key, parameter', PAIRS)
def test_the_parameter_sets_the_key(templates, key, parameter):
    """The parameter is on the key's line, the three before it or the five
    after it (a ``get_param`` below it, an ``if`` above it)."""
    sets = re.compile(r'\b%s:' % re.escape(key))
    named = re.compile(r'\b%s\b' % re.escape(parameter))
    assert any(named.search(' '.join(lines[max(0, i - 3):i + 6]))
               for lines in templates for i, line in enumerate(lines)
               if sets.search(line)), (key, parameter)
