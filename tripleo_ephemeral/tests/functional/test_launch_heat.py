"""`openstack tripleo launch heat` against the real runner."""

import os
import socket
import stat

import psutil

from tripleo_ephemeral.tests.functional import helpers


def test_launch_create_kill_restore(cli, heat_dir, port, demo_templates):
    info = cli.json('tripleo', 'launch', 'heat', '--heat-type', 'native',
                    '--heat-dir', str(heat_dir), '--heat-api-port', str(port))
    assert info['status'] == 'running'
    secret = (heat_dir / 'api_secret').read_text().strip()
    assert len(secret) >= 32
    # The endpoint is shown without its secret (heatrc, clouds.yaml).
    assert info['api_url'] == 'http://127.0.0.1:%d/<api_secret>/v1/admin' % (
        port)
    endpoint = info['api_url'].replace('<api_secret>', secret)
    pid = info['pid']
    assert psutil.pid_exists(pid)
    # The runner recorded the engine tunings it installed and refused.
    tunings = info['engine_tunings']
    assert 'fast_create' in tunings['installed'], tunings
    assert 'gc_freeze' in tunings['installed'], tunings  # stage started
    assert tunings['refused'] == {}

    # The API listens on loopback only.
    listening = [c.laddr for c in psutil.Process(pid).net_connections('inet')
                 if c.status == psutil.CONN_LISTEN]
    assert listening and all(a.ip == '127.0.0.1' for a in listening)

    # Secrets are private.
    assert stat.S_IMODE(os.stat(heat_dir).st_mode) == 0o700
    for name in ('heat.conf', 'token_file.json', 'clouds.yaml', 'heatrc',
                 'auth_encryption_key', 'api_secret'):
        assert stat.S_IMODE(os.stat(heat_dir / name).st_mode) == 0o600, name

    heat = {'OS_CLOUD': 'heat'}
    cli.run('stack', 'create', '-t', str(demo_templates / 'demo.yaml'),
            '--parameter', 'count=3', 'demo', '--wait', env=heat)
    created = cli.json('stack', 'show', 'demo', env=heat)
    assert created['stack_status'] == 'CREATE_COMPLETE'
    before = cli.json('stack', 'output', 'show', 'demo', 'values', env=heat)
    # The seed's way in works for the owner: heatrc's OS_AUTH_TYPE=none
    # with OS_ENDPOINT.
    rc = dict(line[len('export '):].split('=', 1) for line in (
        heat_dir / 'heatrc').read_text().splitlines()
        if line.startswith('export '))
    assert rc['OS_ENDPOINT'] == endpoint
    assert [s['Stack Name'] for s in cli.json('stack', 'list', env=rc)] == [
        'demo']
    # Anyone else (another uid, without the secret) gets 401.
    assert helpers.as_other_user(
        'GET', 'http://127.0.0.1:%d/v1/admin/stacks/demo' % port) == 401
    assert helpers.as_other_user(
        'DELETE', 'http://127.0.0.1:%d/v1/admin/stacks/demo' % port) == 401
    assert helpers.as_other_user('GET', 'http://127.0.0.1:%d/' % port) == 401
    assert helpers.as_other_user(
        'GET', endpoint + '/stacks', read=heat_dir / 'api_secret'
    ) == 'unreadable'

    killed = cli.json('tripleo', 'launch', 'heat', '--heat-dir',
                      str(heat_dir), '--kill')
    assert killed['status'] == 'stopped'
    assert killed['dump'].endswith('heat-db-dump.sql.gz')
    assert stat.S_IMODE(os.stat(killed['dump']).st_mode) == 0o600
    # The image a restore of this dump writes instead of loading the SQL.
    image = heat_dir / '.heat-db-image.sqlite'
    assert stat.S_IMODE(image.stat().st_mode) == 0o600
    assert not psutil.pid_exists(pid) or \
        psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert (heat_dir / 'log' / 'heat.log').stat().st_size > 0

    # Killing again says nothing is running.
    again = cli.json('tripleo', 'launch', 'heat', '--heat-dir',
                     str(heat_dir), '--kill')
    assert again['status'] == 'not running'

    # Type and port come from the state the launch left behind.
    log_before = len((heat_dir / 'log' / 'heat.log').read_text())
    restored = cli.json('tripleo', 'launch', 'heat', '--heat-dir',
                        str(heat_dir), '--restore-db')
    # Same port; a new secret for every launch.
    assert restored['api_url'] == info['api_url']
    assert (heat_dir / 'api_secret').read_text().strip() != secret
    stacks = cli.json('stack', 'list', env=heat)
    assert [(s['Stack Name'], s['Stack Status']) for s in stacks] == [
        ('demo', 'CREATE_COMPLETE')]
    after = cli.json('stack', 'output', 'show', 'demo', 'values', env=heat)
    assert after['output_value'] == before['output_value']
    # The restored schema is this Heat's: no migration ran to find that out.
    log = (heat_dir / 'log' / 'heat.log').read_text()[log_before:]
    assert 'Database schema is current' in log
    assert 'Running database migrations' not in log

    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--kill')
    assert len(list(heat_dir.glob('heat-db-dump*.sql.gz'))) == 2


def test_port_in_use_is_one_line_error(cli, heat_dir, port):
    with socket.socket() as s:
        s.bind(('127.0.0.1', port))
        s.listen()
        proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir',
                       str(heat_dir), '--heat-api-port', str(port),
                       check=False)
    assert proc.returncode != 0
    assert 'Port %d' % port in proc.stderr
    assert 'Traceback' not in proc.stderr


def test_restore_without_dump_is_an_error(cli, heat_dir, port):
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', str(port), '--restore-db', check=False)
    assert proc.returncode != 0
    assert 'No database dump' in proc.stderr
    assert 'Traceback' not in proc.stderr


def test_bad_port_is_rejected_while_parsing(cli, heat_dir):
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', 'eighty', check=False)
    assert proc.returncode != 0
    assert 'eighty is not a port number' in proc.stderr
