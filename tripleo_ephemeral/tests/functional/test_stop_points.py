"""Real signals at every point of a deploy: each stop ends within 15 s.

Every test starts ``overcloud deploy`` (native Heat, the bundled templates),
waits for the point, sends real signals and asserts the command ended
within :data:`helpers.STOP_BOUND` seconds of the first one, said what it
stopped, and left nothing running. Moments too short to hit (saving the
outputs, rendering, the dump) are held open with the test pause
(tests/pause_hook.py) and signalled there. The measured times
are printed (``pytest -s``) and appended to ``$TRIPLEO_EPHEMERAL_STOP_TIMES``.
"""

import os
import signal
import time

import pytest

from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import pause_hook

WIDE_ENV = os.path.join(helpers.TEMPLATES, 'wide-env.yaml')


def _deploy(cli, work_dir, *args, pause=None, env=None):
    env = dict(env or {})
    if pause:
        env.update(pause_hook.env(pause + '=60', cli.env))
    return cli.running('overcloud', 'deploy', '--stack-only', '--work-dir',
                       str(work_dir), *args, env=env or None)


def _wait_for_log(path, text, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if text in path.read_text():
                return
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    raise AssertionError('%s never said %r' % (path, text))


def _assert_stopped_in_order(run, rc, out, wd):
    assert rc != 0 and out == '', run.stderr
    assert 'Traceback' not in run.stderr
    assert 'Interrupted (' in run.stderr.splitlines()[-1], run.stderr
    helpers.assert_no_heat_left(wd.heat_dir)
    assert helpers.processes_naming(wd.path) == []


@pytest.mark.parametrize('point, sig, wait', [
    ('launching', signal.SIGINT, r'^Launching Heat'),
    ('stack create, early', signal.SIGINT, r'^Creating stack'),
    ('stack create, middle', signal.SIGTERM, r'CREATE_COMPLETE  state'),
    ('stack create, SIGHUP', signal.SIGHUP, r'^Creating stack'),
])
def test_signal_during_the_deploy(cli, work_dir, point, sig, wait):
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir)
    run.wait_for(wait)
    run.send(sig)
    rc, out = run.finish(point)
    _assert_stopped_in_order(run, rc, out, wd)
    assert 'SIGINT received' in run.stderr or sig != signal.SIGINT
    if point != 'launching':
        assert 'Stopping Heat (native, pid' in run.stderr
        assert wd.status() == 'DEPLOY_FAILED'
        assert wd.heat_dump.exists()
        assert [a.endswith('-failed.tar.gz') for a in wd.archives.all()] == [
            True]


def test_signal_during_db_sync(cli, work_dir, tmp_path):
    # An empty cache has no schema cache: the migrations really run.
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir, env={'XDG_CACHE_HOME': str(
        tmp_path / 'empty-cache')})
    _wait_for_log(wd.heat_dir / 'log' / 'heat.log',
                  'Running database migrations')
    run.send(signal.SIGTERM)
    rc, out = run.finish('db_sync')
    _assert_stopped_in_order(run, rc, out, wd)
    assert 'Heat ready' not in run.stderr


def test_signal_while_waiting_for_the_api(cli, work_dir):
    # Heat's processes run; the command is held at its readiness wait so
    # the signal surely comes before "Heat ready" (a race otherwise).
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir, pause='waiting for the Heat API')
    run.wait_for(r'^Pausing')
    run.send(signal.SIGTERM)
    rc, out = run.finish('waiting for the API')
    _assert_stopped_in_order(run, rc, out, wd)
    assert 'received while waiting for the Heat API' in run.stderr
    assert 'Heat ready' not in run.stderr


@pytest.mark.parametrize('point, pause', [
    ('outputs', 'saving the stack outputs'),
    ('config-download', 'rendering config-download'),
])
def test_signal_after_the_create(cli, work_dir, point, pause):
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir, pause=pause)
    run.wait_for(r'^Pausing')
    run.send(signal.SIGINT)
    rc, out = run.finish(point)
    _assert_stopped_in_order(run, rc, out, wd)
    assert 'received while %s' % pause in run.stderr
    assert wd.heat_dump.exists()


def test_hundreds_of_resources_in_progress(cli, work_dir):
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir, '-e', WIDE_ENV)
    run.wait_for(r' [1-9][0-9]{2,} in progress', timeout=300)
    run.send(signal.SIGINT)
    rc, out = run.finish('stack create, hundreds in progress')
    _assert_stopped_in_order(run, rc, out, wd)
    assert wd.heat_dump.exists()


def test_second_signal_stops_at_once(cli, work_dir):
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir)
    run.wait_for(r'CREATE_COMPLETE  state')
    # The first signal's orderly stop takes about half a second now (Heat
    # stops in 0.3 s): the second must come well before it ends.
    run.send(signal.SIGINT, signal.SIGINT, gap=0.05)
    rc, out = run.finish('stack create, second signal')
    assert rc != 0 and 'Traceback' not in run.stderr
    assert 'Stopped at once (SIGINT twice)' in run.stderr
    assert 'Killing Heat' in run.stderr
    helpers.assert_no_heat_left(wd.heat_dir)
    assert helpers.processes_naming(wd.path) == []
    assert not wd.heat_dump.exists()  # nothing dumped
    assert wd.archives.all() == []
    # The next launch keeps the killed Heat's database as a dump first.
    launch = cli.run('tripleo', 'launch', 'heat', '--work-dir',
                     str(work_dir))
    assert 'did not stop cleanly: kept it as the dump' in launch.stderr
    cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
            '--kill')


def test_second_signal_during_the_dump_keeps_the_last_good_one(cli,
                                                               work_dir):
    wd = helpers.Layout(work_dir)
    for action in ((), ('--kill',)):  # a good dump to keep
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
                *action)
    good = wd.heat_dump.read_bytes()
    run = _deploy(cli, work_dir, pause='dumping the Heat database')
    run.wait_for(r'^Pausing')
    run.send(signal.SIGINT)
    run.wait_for(r'already stopping Heat')
    run.send(signal.SIGINT)
    rc, out = run.finish('dump, second signal')
    assert rc != 0 and 'Stopped at once' in run.stderr
    assert wd.heat_dump.read_bytes() == good
    assert [n for n in os.listdir(wd.heat_dir) if n.endswith('.tmp')] == []
    helpers.assert_no_heat_left(wd.heat_dir)
    assert helpers.processes_naming(wd.path) == []


def test_lost_terminal_watchdog_and_next_deploy(cli, work_dir):
    """SIGKILL mid-create: the watchdog stops Heat with a dump; the next
    deploy says what happened and works; with --keep-running its Heat
    outlives it (untied: no watchdog stops it)."""
    wd = helpers.Layout(work_dir)
    run = _deploy(cli, work_dir)
    run.wait_for(r'^Creating stack')
    run.send(signal.SIGKILL)
    run.proc.wait(30)
    helpers.wait_until_gone(wd.path)
    print('STOP lost terminal, watchdog: %.2fs (load %.2f)' % (
        time.monotonic() - run.signalled, os.getloadavg()[0]))
    helpers.assert_no_heat_left(wd.heat_dir)
    assert wd.heat_dump.exists()
    done = cli.deploy(work_dir, '--keep-running', heat_type=None)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    assert 'did not finish' in done.progress
    assert 'its watchdog stopped it' in done.progress
    saved = launcher_state.LauncherState(str(wd.heat_dir)).load()
    assert saved['running'] and saved['owner_pid'] is None
    time.sleep(2)  # a watchdog would have acted by now
    assert helpers.processes_naming(wd.path) == [saved['pid']]
    cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
            '--kill')
    helpers.assert_no_heat_left(wd.heat_dir, pid=saved['pid'])
