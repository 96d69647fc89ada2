"""A signal during ``openstack tripleo ansible install``: venv, pip and what
they started are gone within seconds, and no venv is left that a later run
takes for installed; a SIGKILLed install leaves nothing running either, and
the next run builds again.

pip's index is a local server that accepts connections and never answers,
so pip is held at its first download (venv's ensurepip needs no index).
"""

import os
import signal
import socket
import threading
import time

import psutil
import pytest

from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.ansible import install


@pytest.fixture
def silent_index():
    """``http://127.0.0.1:<port>/simple``: connections accepted, never
    answered."""
    server = socket.socket()
    server.bind(('127.0.0.1', 0))
    server.listen(16)
    held = []

    def accept():
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return
    threading.Thread(target=accept, daemon=True).start()
    yield 'http://127.0.0.1:%d/simple' % server.getsockname()[1]
    server.close()
    for conn in held:
        conn.close()


def _env(index):
    env = {k: v for k, v in os.environ.items() if not k.startswith('PIP_')}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=index,
               PIP_DEFAULT_TIMEOUT='600')
    return env


def _started(running, words, timeout=120):
    """Wait until a process under the command runs ``words``; return the
    command's descendants."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        kids = psutil.Process(running.proc.pid).children(recursive=True)
        if any(words in _cmdline(k) for k in kids):
            return kids
        assert running.proc.poll() is None, running.stderr
        time.sleep(0.1)
    raise AssertionError('no %r under the install:\n%s' % (
        words, running.stderr))


def _cmdline(proc):
    try:
        return ' '.join(proc.cmdline())
    except psutil.Error:
        return ''


def _alive(procs):
    found = []
    for proc in procs:
        try:
            if proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def test_signals_stop_the_install(cli, tmp_path, silent_index):
    dest = tmp_path / 'ansible'
    env = _env(silent_index)
    argv = ('tripleo', 'ansible', 'install', '--dest', str(dest))

    # SIGKILL while venv's ensurepip runs: nothing goes on writing.
    running = cli.running(*argv, env=env)
    kids = _started(running, 'ensurepip')
    running.proc.send_signal(signal.SIGKILL)
    running.proc.wait(30)
    deadline = time.monotonic() + 10
    while _alive(kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _alive(kids) == []
    assert os.path.isdir(dest)  # a partial venv, which is not installed
    assert not install.AnsibleInstall(str(dest)).installed()
    (dest / 'partial-marker').write_text('x')

    # The next run builds the venv again; SIGINT while pip waits.
    running = cli.running(*argv, env=env)
    kids = _started(running, '-m pip install')
    assert not (dest / 'partial-marker').exists()
    running.send(signal.SIGINT)
    rc, _out = running.finish('tripleo ansible install: pip', bound=30)
    assert rc != 0
    assert helpers.one_line_error(_Done(running)) == (
        'Interrupted (SIGINT): the install (pip, and the incomplete %s) was '
        'stopped and cleaned up' % dest)
    assert _alive(kids) == []
    assert not dest.exists()


class _Done:
    """A finished :class:`helpers.Running`, as one_line_error reads it."""

    def __init__(self, running):
        self.returncode = running.proc.returncode
        self.stderr = running.stderr
