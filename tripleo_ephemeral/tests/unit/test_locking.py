"""The work dir and heat dir locks (:mod:`tripleo_ephemeral.locking`):
real flock, real processes killed with SIGKILL."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from tripleo_ephemeral import locking

#: A holder that takes the lock, writes a temporary file as atomic_open
#: does, says so, and waits to be killed.
HOLDER = textwrap.dedent('''
    import sys, time
    from tripleo_ephemeral import fileutil, locking
    directory = sys.argv[1]
    with locking.DirLock(directory, purpose='holder'):
        with fileutil.atomic_open(directory + '/sub/file.yaml') as f:
            f.write('half')
            print('holding', flush=True)
            time.sleep(60)
''')


def _held_then_killed(directory):
    os.makedirs(os.path.join(directory, 'sub'))
    proc = subprocess.Popen([sys.executable, '-c', HOLDER, directory],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == 'holding\n'
        assert locking.holder(directory)['purpose'] == 'holder'
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    return proc.pid


def test_the_holder_is_seen_without_taking_the_lock(tmp_path):
    directory = str(tmp_path)
    assert locking.holder(directory) == {}
    with locking.DirLock(directory, purpose='deploy'):
        found = locking.holder(directory)
        assert (found['pid'], found['purpose']) == (os.getpid(), 'deploy')
    assert locking.holder(directory) == {}


@pytest.mark.starts_process
def test_a_killed_holders_temporary_files_go_with_the_next_lock(tmp_path):
    directory = str(tmp_path / 'work')
    pid = _held_then_killed(directory)
    left = os.listdir(os.path.join(directory, 'sub'))
    assert len(left) == 1 and left[0].startswith('.file.yaml.') and \
        left[0].endswith('.tmp')
    # Nobody holds it now (the kernel dropped the lock), though the file
    # still names the killed holder.
    assert locking.holder(directory) == {}
    # A directory with a lock of its own is its holder's to sweep.
    other = os.path.join(directory, 'heat')
    os.makedirs(other)
    open(os.path.join(other, locking.LOCK_NAME), 'w').close()
    open(os.path.join(other, '.dump.gz.abcd1234.tmp'), 'w').close()
    # The operator's own dot files stay.
    open(os.path.join(directory, '.notes.tmp'), 'w').close()
    with locking.DirLock(directory):
        assert os.listdir(os.path.join(directory, 'sub')) == []
    assert sorted(os.listdir(other)) == ['.dump.gz.abcd1234.tmp',
                                         locking.LOCK_NAME]
    assert os.path.exists(os.path.join(directory, '.notes.tmp'))
    assert pid != os.getpid()
