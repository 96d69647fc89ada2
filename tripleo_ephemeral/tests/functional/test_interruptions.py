"""Signals at chosen moments, crashes and locks: nothing lost, nothing left."""

import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import locking
from tripleo_ephemeral.tests.functional import helpers


def _wait_for(predicate, timeout=120, what='condition'):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError('timed out waiting for %s' % what)


def _runner_pid(heat_dir):
    return launcher_state.LauncherState(str(heat_dir)).load().get('pid')


@pytest.mark.parametrize('sig', [signal.SIGTERM, signal.SIGINT])
def test_signal_while_waiting_for_the_api(cli, heat_dir, port, sig):
    proc = cli.spawn('tripleo', 'launch', 'heat', '--heat-dir',
                     str(heat_dir), '--heat-api-port', str(port))
    pid = _wait_for(lambda: _runner_pid(heat_dir), what='the runner pid')
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert 'Interrupted' in err and 'Traceback' not in err
    helpers.assert_no_heat_left(heat_dir, port, pid)
    # The next command works without clean-up.
    info = cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                    '--heat-api-port', str(port))
    assert info['status'] == 'running'
    cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
            '--kill')


def test_sigint_during_stack_create(cli, work_dir, port):
    wd = helpers.Layout(work_dir)
    proc = cli.spawn('overcloud', 'deploy', '--stack-only', '--work-dir',
                     str(work_dir), '--heat-api-port', str(port))
    lines = []
    for line in proc.stderr:  # progress goes to stderr
        lines.append(line)
        if 'Creating stack' in line:
            break
    time.sleep(1.5)  # inside the create
    pid = _runner_pid(wd.heat_dir)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode != 0, ''.join(lines) + err
    assert 'Interrupted' in err and 'Traceback' not in err
    assert out == ''  # no result
    helpers.assert_no_heat_left(wd.heat_dir, port, pid)
    assert wd.status() == 'DEPLOY_FAILED'
    assert wd.heat_dump.exists()
    # The next deploy works without manual clean-up.
    done = cli.deploy(work_dir, port=port, heat_type=None)
    assert done.result['status'] == 'DEPLOY_SUCCESS'


def test_crashed_runner_and_reused_pid(cli, heat_dir, port):
    info = cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                    '--heat-api-port', str(port))
    # A crash: the runner dies without a dump.
    os.kill(info['pid'], signal.SIGKILL)
    _wait_for(lambda: not psutil.pid_exists(info['pid']) or
              psutil.Process(info['pid']).status() == psutil.STATUS_ZOMBIE,
              what='the runner to die')
    # Its pid now belongs to someone else (as after a reboot).
    bystander = subprocess.Popen([sys.executable, '-c',
                                  'import time; time.sleep(120)'])
    try:
        st = launcher_state.LauncherState(str(heat_dir))
        st.save(pid=bystander.pid, running=True)
        killed = cli.json('tripleo', 'launch', 'heat', '--heat-dir',
                          str(heat_dir), '--kill')
        assert killed['status'] == 'not running'
        assert bystander.poll() is None, 'signalled a process not ours'
        # The next launch keeps the crashed run's database as a dump.
        info = cli.json('tripleo', 'launch', 'heat', '--heat-dir',
                        str(heat_dir), '--heat-api-port', str(port))
        assert info['status'] == 'running'
        assert (heat_dir / 'heat-db-dump.sql.gz').exists()
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill', check=False)


def test_second_command_on_a_locked_dir_fails_at_once(cli, heat_dir, port):
    with locking.DirLock(str(heat_dir), purpose='overcloud deploy'):
        started = time.monotonic()
        proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir',
                       str(heat_dir), '--heat-api-port', str(port),
                       check=False)
        assert time.monotonic() - started < 30
    assert proc.returncode != 0
    assert 'in use by pid %d (overcloud deploy)' % os.getpid() in proc.stderr
    assert _runner_pid(heat_dir) is None


def test_two_heat_dirs_side_by_side(cli, tmp_path):
    dirs = [tmp_path / 'a', tmp_path / 'b']
    try:
        infos = [cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(d),
                          '--heat-api-port', str(readiness.free_port()))
                 for d in dirs]
        assert {i['status'] for i in infos} == {'running'}
        assert infos[0]['api_url'] != infos[1]['api_url']
    finally:
        for d in dirs:
            helpers.stop_heat_in(d)


def test_no_secret_in_argv(cli, heat_dir, port):
    info = cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                    '--heat-api-port', str(port))
    try:
        key = (heat_dir / 'auth_encryption_key').read_text().strip()
        cmdline = ' '.join(psutil.Process(info['pid']).cmdline())
        assert key not in cmdline
        log = (heat_dir / 'log' / 'heat.log').read_text()
        assert key not in log
    finally:
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill')
    assert json.loads((heat_dir / 'launcher-state.json').read_text())[
        'running'] is False
