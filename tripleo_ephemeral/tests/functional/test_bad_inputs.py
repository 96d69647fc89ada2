"""Each bad input: one line naming it and the fix, no traceback, no Heat."""

import gzip

import yaml

from tripleo_ephemeral.heat_launcher import dumps
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import heat_sqlite

_error = helpers.one_line_error


def _nothing_running(heat_dir):
    helpers.assert_no_heat_left(heat_dir)


def test_missing_templates_dir(cli, work_dir, port, tmp_path):
    missing = tmp_path / 'no-templates'
    done = cli.deploy(work_dir, '--templates', str(missing), port=port,
                      check=False)
    assert str(missing) in _error(done.proc)
    _nothing_running(helpers.Layout(work_dir).heat_dir)


def test_environment_referring_to_a_missing_file(cli, work_dir, port,
                                                 tmp_path):
    env = tmp_path / 'env.yaml'
    env.write_text(yaml.safe_dump({'resource_registry': {
        'OS::TripleO::Services::Marker': 'does-not-exist.yaml'}}))
    done = cli.deploy(work_dir, '-e', str(env), port=port, check=False)
    assert 'does-not-exist.yaml' in _error(done.proc)
    _nothing_running(helpers.Layout(work_dir).heat_dir)


def test_malformed_roles_file(cli, work_dir, port, tmp_path):
    roles = tmp_path / 'roles.yaml'
    roles.write_text('- name: Controller\n  CountDefault: [1\n')
    done = cli.deploy(work_dir, '-r', str(roles), port=port, check=False)
    assert 'roles.yaml' in _error(done.proc)


def test_corrupt_dump(cli, heat_dir, port):
    heat_dir.mkdir(mode=0o700)
    (heat_dir / dumps.DUMP_NAME).write_bytes(b'\x1f\x8b garbage')
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', str(port), '--restore-db', check=False)
    assert 'corrupt' in _error(proc)
    _nothing_running(heat_dir)


def test_dump_from_an_incompatible_schema(cli, heat_dir, port, tmp_path):
    # A Heat database from a newer Heat: alembic does not know its revision.
    heat_dir.mkdir(mode=0o700)
    db = heat_sqlite.stack_db(tmp_path / 'future.sqlite', rows=(),
                              alembic_revision='ffffffffffff')
    with gzip.open(heat_dir / dumps.DUMP_NAME, 'wt') as f:
        f.write(heat_sqlite.dump_text(db))
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
    # Only the venv on PATH: no podman.
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'pod',
                   '--heat-dir', str(heat_dir), '--heat-api-port', str(port),
                   check=False, env={'PATH': helpers.BIN})
    err = _error(proc)
    assert 'podman is not installed' in err and '--heat-type native' in err
    _nothing_running(heat_dir)
