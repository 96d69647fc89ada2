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


def _snapshot(work_dir):
    """Every file of the work dir (but the lock) with its bytes' digest
    and mtime: what "nothing written" compares."""
    import hashlib
    import os

    found = {}
    for root, dirs, files in os.walk(str(work_dir)):
        for name in files + [d for d in dirs
                             if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            if name == '.tripleo-ephemeral.lock':
                continue
            with open(path, 'rb') as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            found[os.path.relpath(path, str(work_dir))] = (
                digest, os.stat(path).st_mtime_ns)
        found.update({os.path.relpath(os.path.join(root, d), str(work_dir)):
                      'dir' for d in dirs})
    return found


def test_bad_input_changes_nothing(cli, work_dir, tmp_path):
    """Each bad input: a one-line error before Heat naming it and the fix;
    the work dir of the last good deploy is left exactly as it was (its
    status, templates copy, generated files and archives)."""
    typo = tmp_path / 'typo.yaml'
    typo.write_text(yaml.safe_dump({'parameter_defaults': {
        'HeartbeatIntervall': 3}}))
    good = cli.deploy(work_dir, '-e', str(typo))
    assert good.result['status'] == 'DEPLOY_SUCCESS'
    assert ('%s sets HeartbeatIntervall, which no template of this '
            'deployment declares' % typo) in good.progress
    before = _snapshot(work_dir)
    wd = helpers.Layout(work_dir)

    def bad(name, content):
        path = tmp_path / name
        path.write_text(content if isinstance(content, str)
                        else yaml.safe_dump(content))
        return str(path)

    host = {'hostname': 'overcloud-controller-0', 'ctlplane_ip':
            '192.0.2.10'}
    key_pub = bad('key.pub', 'ssh-ed25519 AAAA test\n')
    cases = [
        (['--deployed-servers', bad('list.yaml', [host])],
         'must map role names to lists of hosts'),
        (['--deployed-servers', bad('space.yaml', {'Controller': [
            dict(host, hostname='bad host')]})],
         "hostname 'bad host' of role Controller is not a valid DNS label"),
        (['--timeout', '0'], '--timeout: 0 is not a whole number above 0'),
        (['--timeout', '-5'], '--timeout: -5 is not a whole number above'),
        (['-r', bad('roles.yaml', [{'name': 'Controller'},
                                   {'name': 'Controller'}])],
         'role Controller is defined twice'),
        (['--strict'], 'sets HeartbeatIntervall, which no template'),
        (['--overcloud-ssh-key', str(tmp_path / 'no-key')],
         'cannot be read (No such file or directory): check '
         '--overcloud-ssh-key'),
        (['--overcloud-ssh-key', key_pub], 'is not a private key'),
        (['--limit', 'overcloud-controller-9'],
         '--limit overcloud-controller-9 names no host of the inventory'),
    ]
    for args, message in cases:
        stack_only = not any(a.startswith(('--overcloud-ssh', '--limit'))
                             for a in args)
        done = cli.deploy(work_dir, '-e', str(typo), *args, check=False,
                          stack_only=stack_only)
        err = _error(done.proc)
        assert message in err, (args, done.proc.stderr)
        assert 'Launching Heat' not in done.progress, args
        assert _snapshot(work_dir) == before, args
    assert wd.status() == 'DEPLOY_SUCCESS'
    assert len(wd.archives()) == 1
    _nothing_running(wd.heat_dir)


def test_bad_input_in_a_new_work_dir_creates_nothing(cli, tmp_path):
    work_dir = tmp_path / 'new'
    done = cli.deploy(work_dir, '-r', str(tmp_path / 'missing.yaml'),
                      check=False)
    assert 'missing.yaml' in _error(done.proc)
    assert not work_dir.exists()
