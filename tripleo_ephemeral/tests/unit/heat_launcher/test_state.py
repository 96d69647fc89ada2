import os
import subprocess
import sys

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import state
from tripleo_ephemeral import locking


def test_find_process_checks_identity():
    me = os.getpid()
    created = state.process_identity(me)
    marker = os.path.basename(sys.argv[0])
    assert state.find_process(me, created, None) is not None
    # A reused pid has another start time.
    assert state.find_process(me, created - 100, None) is None
    # A process that is not ours does not name our heat.conf.
    assert state.find_process(me, created, '/no/such/heat.conf') is None
    assert state.find_process(None, None, marker) is None


@pytest.mark.starts_process
def test_find_process_of_exited_pid():
    proc = subprocess.Popen([sys.executable, '-c', 'pass'])
    proc.wait()
    assert state.find_process(proc.pid, None, None) is None


def test_state_survives_and_torn_file_is_ignored(tmp_path):
    st = state.LauncherState(str(tmp_path))
    st.save(heat_type='native', api_port=1234, pid=1)
    st.clear_process()
    assert st.load()['api_port'] == 1234
    assert st.load()['pid'] is None
    with open(st.path, 'w') as f:
        f.write('{"heat_ty')
    assert st.load() == {}


def test_second_lock_names_the_holder(tmp_path):
    with locking.DirLock(str(tmp_path), purpose='deploy overcloud'):
        with pytest.raises(exceptions.LockedError,
                           match='pid %d .deploy overcloud' % os.getpid()):
            locking.DirLock(str(tmp_path)).acquire()
    # Released: it can be taken again.
    with locking.DirLock(str(tmp_path)):
        pass


@pytest.mark.starts_process
def test_lock_is_dropped_when_holder_dies(tmp_path):
    code = ('import sys, os; from tripleo_ephemeral import locking; '
            'locking.DirLock(sys.argv[1]).acquire(); os._exit(0)')
    subprocess.run([sys.executable, '-c', code, str(tmp_path)], check=True)
    with locking.DirLock(str(tmp_path)):
        pass


def test_a_lock_held_by_a_watchdog_is_waited_for(tmp_path, monkeypatch):
    import threading

    monkeypatch.setattr(locking, 'WATCHDOG_PATIENCE', 10)
    watchdog = locking.DirLock(str(tmp_path), purpose=locking.WATCHDOG)
    watchdog.acquire()
    threading.Timer(0.5, watchdog.release).start()
    with locking.DirLock(str(tmp_path), purpose='overcloud deploy'):
        pass  # got it once the watchdog was done
    other = locking.DirLock(str(tmp_path), purpose='overcloud deploy')
    other.acquire()
    with pytest.raises(exceptions.LockedError, match='overcloud deploy'):
        locking.DirLock(str(tmp_path)).acquire()
    other.release()
