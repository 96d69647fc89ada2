"""process.ProcessRunner: what it starts does not outlive it."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import process

pytestmark = pytest.mark.starts_process


def _named(marker):
    """Live processes whose command line holds ``marker``."""
    found = []
    for proc in psutil.process_iter(['cmdline', 'status']):
        try:
            if proc.info['status'] != psutil.STATUS_ZOMBIE and \
                    marker in ' '.join(proc.info['cmdline'] or ()):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def _gone(marker, timeout=10):
    end = time.monotonic() + timeout
    while _named(marker) and time.monotonic() < end:
        time.sleep(0.1)
    return not _named(marker)


def _marker():
    """A sleep's length no other process has: it names the test's."""
    return '300.%06d' % random.randrange(10 ** 6)


def test_a_timeout_kills_what_the_program_started():
    marker = _marker()
    with pytest.raises(exceptions.CommandFailedError, match='timed out'):
        process.ProcessRunner().run(
            ['sh', '-c', 'sleep %s & sleep %s' % (marker, marker)],
            timeout=1)
    assert _gone(marker)


@pytest.mark.parametrize('tied', [True, False])
def test_a_tied_program_dies_with_a_killed_command(tied):
    """SIGKILL of the command: a tied program and its children go too."""
    marker = _marker()
    parent = subprocess.Popen([sys.executable, '-c', textwrap.dedent('''
        import sys
        from tripleo_ephemeral import process
        process.ProcessRunner().run(
            ['sh', '-c', 'sleep %s & sleep %s' % (sys.argv[1], sys.argv[1])],
            tied=sys.argv[2] == 'True')
        '''), marker, str(tied)])
    try:
        end = time.monotonic() + 20
        while len(_named(marker)) < 2 and time.monotonic() < end:
            time.sleep(0.1)
        assert _named(marker)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        # Untied, they outlive it (what tied is for).
        assert _gone(marker, timeout=10 if tied else 1) is tied
    finally:
        for pid in _named(marker):
            os.kill(pid, signal.SIGKILL)


def test_a_tied_program_exits_with_its_status():
    runner = process.ProcessRunner()
    done = runner.run(['sh', '-c', 'echo out; echo err >&2; exit 3'],
                      check=False, tied=True)
    assert (done.returncode, done.stdout, done.stderr) == (
        3, b'out\n', b'err\n')
    with pytest.raises(exceptions.CommandFailedError,
                       match='no-such-program exited 1: no-such-program: '
                             'command not found'):
        runner.run(['no-such-program'], tied=True)
