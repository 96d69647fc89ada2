"""The watchdog of a tied Heat: it acts only for a dead owner of the launch
it was started for."""

import argparse
import subprocess
import sys

import pytest

from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.heat_launcher import watchdog
from tripleo_ephemeral.heat_launcher import watchdog_process as heat_watchdog
from tripleo_ephemeral import locking
from tripleo_ephemeral.tests.unit import fakes


@pytest.fixture
def dead_pid():
    proc = subprocess.Popen([sys.executable, '-c', 'pass'])
    proc.wait()
    return proc.pid


def _args(heat_dir, owner, launch_id='L1'):
    return argparse.Namespace(heat_dir=str(heat_dir), owner=owner,
                              launch_id=launch_id)


def _state(heat_dir, **values):
    heat_dir.mkdir(exist_ok=True)
    st = launcher_state.LauncherState(str(heat_dir))
    st.save(**dict(dict(running=True, launch_id='L1', heat_type='fake'),
                   **values))
    return st


@pytest.mark.starts_process
def test_acts_only_for_its_launch(tmp_path, dead_pid):
    clock = fakes.FakeClock()
    _state(tmp_path, owner_pid=dead_pid)
    assert heat_watchdog.watch(_args(tmp_path, dead_pid), clock,
                               clock.sleep)['owner_pid'] == dead_pid
    # Another launch, a release or a normal stop: nothing to do.
    for values in ({'launch_id': 'L2'}, {'owner_pid': None},
                   {'running': False}):
        _state(tmp_path, **dict({'owner_pid': dead_pid}, **values))
        assert heat_watchdog.watch(_args(tmp_path, dead_pid), clock,
                                   clock.sleep) is None


def test_waits_while_the_owner_lives(tmp_path, monkeypatch):
    import os
    clock = fakes.FakeClock()
    st = _state(tmp_path, owner_pid=os.getpid())

    def sleep(seconds):
        clock.sleep(seconds)
        if clock.now > 20:
            st.save(running=False)  # stopped normally
    assert heat_watchdog.watch(_args(tmp_path, os.getpid()), clock,
                               sleep) is None
    assert clock.now > 20


@pytest.mark.starts_process
def test_stops_an_abandoned_heat(tmp_path, dead_pid, monkeypatch):
    monkeypatch.setattr(readiness, 'check_port_free', lambda h, p: None)
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    launcher = fakes.FakeLauncher(str(tmp_path))
    launcher.start(tied=True)
    launcher.state.save(owner_pid=dead_pid)
    saved = launcher.state.load()
    monkeypatch.setattr(heat_launcher, 'get_launcher',
                        lambda *a, **kw: launcher)
    assert heat_watchdog.stop_abandoned(
        _args(tmp_path, dead_pid, saved['launch_id'])) == 0
    assert launcher.calls[-1] == 'terminate'
    note = launcher.state.load()['abandoned']
    assert note['owner_pid'] == dead_pid and not launcher.is_running()


@pytest.mark.starts_process
def test_a_command_holding_the_lock_takes_over(tmp_path, dead_pid):
    _state(tmp_path, owner_pid=dead_pid)
    with locking.DirLock(str(tmp_path), purpose='overcloud deploy'):
        assert heat_watchdog.stop_abandoned(_args(tmp_path, dead_pid)) == 0
    assert 'abandoned' not in launcher_state.LauncherState(
        str(tmp_path)).load()


@pytest.mark.starts_process
def test_owner_gone(dead_pid):
    import os
    assert watchdog.owner_gone({'owner_pid': dead_pid})
    assert not watchdog.owner_gone({'owner_pid': os.getpid()})
    assert not watchdog.owner_gone({'owner_pid': None})
