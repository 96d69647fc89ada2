"""``tripleo launch heat`` and ``--kill``: signals and stops end in seconds.

The lead's reproduction of issue 16: a ResourceGroup of 200 nested stacks
being created when Heat is told to stop. Heat's own stop would wait for the
whole create; the runner gives in-flight work ``stop_grace`` and exits.
"""

import os
import signal
import time

import pytest

from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.tests.functional import helpers

GROUP = os.path.join(os.path.dirname(helpers.TEMPLATES), '..', '..', '..',
                     'tools', 'bench', 'templates', 'group.yaml')


def _launch(cli, heat_dir, *args):
    return cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                    *args)


@pytest.fixture
def busy_heat(cli, heat_dir):
    """A launched Heat creating 200 nested stacks (tools/bench)."""
    if not os.path.exists(GROUP):
        pytest.skip('tools/bench is not here')
    info = _launch(cli, heat_dir)
    cli.run('stack', 'create', '-t', GROUP, '--parameter', 'count=200',
            'group', env={'OS_CLOUD': 'heat'})
    time.sleep(8)  # the lead's moment: a hundred or more in progress
    return info


def test_kill_with_hundreds_in_progress(cli, heat_dir, busy_heat):
    """--kill stops a busy Heat in seconds; a Ctrl-C during that stop does
    not cut it short (it says so, and the dump is still written)."""
    started = time.monotonic()
    run = cli.running('tripleo', 'launch', 'heat', '--heat-dir',
                      str(heat_dir), '--kill')
    run.wait_for(r'^Stopping Heat \(native, pid %d\)' % busy_heat['pid'])
    run.send(signal.SIGINT)
    rc, _out = run.finish('launch heat --kill, 200 nested stacks in '
                          'progress, SIGINT during the stop')
    print('launch heat --kill took %.2fs in all' % (
        time.monotonic() - started))
    assert rc != 0 and 'Traceback' not in run.stderr
    assert 'already stopping Heat' in run.stderr
    assert 'Dumped the Heat database' in run.stderr
    assert 'Heat stopped in' in run.stderr
    helpers.assert_no_heat_left(heat_dir, pid=busy_heat['pid'])
    assert (heat_dir / 'heat-db-dump.sql.gz').exists()


@pytest.mark.parametrize('sig', [signal.SIGTERM, signal.SIGHUP])
def test_signal_while_launching(cli, heat_dir, sig):
    run = cli.running('tripleo', 'launch', 'heat', '--heat-dir',
                      str(heat_dir))
    end = time.monotonic() + 60
    while not launcher_state.LauncherState(str(heat_dir)).load().get('pid'):
        assert time.monotonic() < end and run.proc.poll() is None
        time.sleep(0.05)
    run.send(sig)
    rc, _out = run.finish('launch heat, %s while waiting for the API' %
                          signal.Signals(sig).name)
    assert rc != 0 and 'Interrupted' in run.stderr
    assert 'Traceback' not in run.stderr
    helpers.assert_no_heat_left(heat_dir)
    assert helpers.processes_naming(heat_dir) == []


def test_launched_heat_outlives_its_command(cli, heat_dir):
    """Not tied: no watchdog, and it runs on after the command."""
    info = _launch(cli, heat_dir)
    saved = launcher_state.LauncherState(str(heat_dir)).load()
    assert saved['owner_pid'] is None and not saved.get('watchdog_pid')
    assert helpers.processes_naming(heat_dir) == [info['pid']]
    cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
            '--kill')
