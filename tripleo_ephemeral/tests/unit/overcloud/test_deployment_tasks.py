"""The deployment apply script, run here the way a host runs it."""

import json
import os
import stat
import subprocess
import sys

import pytest

from tripleo_ephemeral.overcloud import deployment_tasks

pytestmark = pytest.mark.starts_process


def apply(tmp_path, deployment):
    proc = subprocess.run(
        [sys.executable, '-c', deployment_tasks.APPLY_SCRIPT,
         str(tmp_path / 'stored'), str(tmp_path / 'hiera')],
        input=json.dumps(deployment), capture_output=True, text=True)
    return proc


def test_hiera_writes_datafiles_once(tmp_path):
    deployment = {'deployment_name': 'RoleDeployment', 'id': 'abc',
                  'group': 'hiera', 'config': {'datafiles': {
                      'service_configs': {'a': 1}, 'extraconfig': {}}}}
    proc = apply(tmp_path, deployment)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ['changed']
    data = json.loads((tmp_path / 'hiera' / 'service_configs.json')
                      .read_text())
    assert data == {'a': 1}
    stored = tmp_path / 'stored' / 'RoleDeployment-abc.json'
    assert stat.S_IMODE(os.stat(stored).st_mode) == 0o600
    assert apply(tmp_path, deployment).stdout.split() == ['unchanged']


def test_script_runs_with_inputs(tmp_path):
    out = tmp_path / 'out'
    deployment = {'deployment_name': 'Boot', 'id': '1', 'group': 'script',
                  'config': '#!/bin/sh\necho "$greeting" > %s\n' % out,
                  'inputs': [{'name': 'greeting', 'value': 'hello'},
                             {'name': 'flag', 'value': False}]}
    proc = apply(tmp_path, deployment)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == 'hello\n'
    # Scripts run on every deploy.
    assert apply(tmp_path, deployment).stdout.split() == ['changed']


def test_failing_script(tmp_path):
    deployment = {'deployment_name': 'Boot', 'id': '1', 'group': 'script',
                  'config': '#!/bin/sh\necho broken >&2\nexit 3\n'}
    proc = apply(tmp_path, deployment)
    assert proc.returncode == 1
    assert 'broken' in proc.stderr
    assert 'exited with status 3' in proc.stderr
