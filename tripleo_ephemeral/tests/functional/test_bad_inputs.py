"""Each bad input: one line naming it and the fix, no traceback, no Heat."""

import gzip
import sqlite3

import pytest
import yaml

from tripleo_ephemeral.heat_launcher import database
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.tests.functional import conftest


def _error(proc):
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr
    lines = [line for line in proc.stderr.splitlines()
             if line.strip() and 'Could not load' not in line]
    assert lines, proc.stderr
    return lines[-1]


def _nothing_running(heat_dir):
    saved = launcher_state.LauncherState(str(heat_dir)).load()
    assert not saved.get('running')


@pytest.fixture
def work_dir(tmp_path):
    path = tmp_path / 'work'
    yield path
    conftest.stop_heat_in(path / 'heat-launcher')


def test_missing_templates_dir(cli, work_dir, port, tmp_path):
    missing = tmp_path / 'no-templates'
    proc = cli.run('overcloud', 'deploy', '--stack-only', '--work-dir',
                   str(work_dir), '--heat-api-port', str(port),
                   '--templates', str(missing), check=False)
    assert str(missing) in _error(proc)
    _nothing_running(work_dir / 'heat-launcher')


def test_environment_referring_to_a_missing_file(cli, work_dir, port,
                                                 tmp_path):
    env = tmp_path / 'env.yaml'
    env.write_text(yaml.safe_dump({'resource_registry': {
        'OS::TripleO::Services::Marker': 'does-not-exist.yaml'}}))
    proc = cli.run('overcloud', 'deploy', '--stack-only', '--work-dir',
                   str(work_dir), '--heat-api-port', str(port), '-e',
                   str(env), check=False)
    assert 'does-not-exist.yaml' in _error(proc)
    _nothing_running(work_dir / 'heat-launcher')


def test_malformed_roles_file(cli, work_dir, port, tmp_path):
    roles = tmp_path / 'roles.yaml'
    roles.write_text('- name: Controller\n  CountDefault: [1\n')
    proc = cli.run('overcloud', 'deploy', '--stack-only', '--work-dir',
                   str(work_dir), '--heat-api-port', str(port), '-r',
                   str(roles), check=False)
    assert 'roles.yaml' in _error(proc)


def test_corrupt_dump(cli, heat_dir, port):
    heat_dir.mkdir(mode=0o700)
    (heat_dir / database.DUMP_NAME).write_bytes(b'\x1f\x8b garbage')
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', str(port), '--restore-db', check=False)
    assert 'corrupt' in _error(proc)
    _nothing_running(heat_dir)


def test_dump_from_an_incompatible_schema(cli, heat_dir, port, tmp_path):
    # A Heat database from a newer Heat: alembic does not know its revision.
    heat_dir.mkdir(mode=0o700)
    db = tmp_path / 'future.sqlite'
    conn = sqlite3.connect(str(db))
    conn.execute('CREATE TABLE stack (id VARCHAR(36) PRIMARY KEY)')
    conn.execute('CREATE TABLE alembic_version (version_num VARCHAR(32))')
    conn.execute("INSERT INTO alembic_version VALUES ('ffffffffffff')")
    conn.commit()
    with gzip.open(heat_dir / database.DUMP_NAME, 'wt') as f:
        for line in conn.iterdump():
            f.write(line + '\n')
    conn.close()
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', str(port), '--restore-db', check=False)
    err = _error(proc)
    assert 'Heat exited while starting' in err
    assert 'ffffffffffff' in err or 'revision' in err.lower()
    _nothing_running(heat_dir)


def test_missing_image(cli, heat_dir, port):
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'container',
                   '--heat-dir', str(heat_dir), '--heat-api-port', str(port),
                   '--heat-container-image', 'localhost/no-such-image:1',
                   check=False)
    err = _error(proc)
    assert 'localhost/no-such-image:1' in err and 'image build' in err
    _nothing_running(heat_dir)


def test_podman_missing(cli, heat_dir, port):
    import os
    # Only the venv on PATH: no podman.
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'pod',
                   '--heat-dir', str(heat_dir), '--heat-api-port', str(port),
                   check=False, env={'PATH': os.path.dirname(conftest.BIN +
                                                             '/x')})
    err = _error(proc)
    assert 'podman is not installed' in err and '--heat-type native' in err
    _nothing_running(heat_dir)
