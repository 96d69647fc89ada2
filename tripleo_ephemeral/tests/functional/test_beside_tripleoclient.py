"""The real openstack command, with python-tripleoclient's entry points
registered in its environment, warns once and still runs the command."""

import os

from tripleo_ephemeral.tests import fake_tripleoclient


def test_openstack_warns_once_beside_tripleoclient(cli, tmp_path):
    site = fake_tripleoclient.install(str(tmp_path / 'site'))
    env = {'PYTHONPATH': os.pathsep.join(
        p for p in (site, cli.env.get('PYTHONPATH')) if p)}
    proc = cli.run('tripleo', 'saved', 'dump', 'list', '--work-dir',
                   str(tmp_path / 'wd'), '-f', 'json', env=env)
    assert proc.stdout.strip() == '[]'
    assert proc.stderr.count('python-tripleoclient is installed') == 1, \
        proc.stderr
    assert 'run ~/tripleo-ephemeral-venv/bin/openstack' in proc.stderr


def test_no_warning_alone(cli, tmp_path):
    proc = cli.run('tripleo', 'saved', 'dump', 'list', '--work-dir',
                   str(tmp_path / 'wd'), '-f', 'json')
    assert 'python-tripleoclient' not in proc.stderr
