"""A native Heat is ready when its own runner answers, not anything on
its port (another program can take the port before the runner binds it).
Real processes and sockets; no Heat."""

import http.server
import subprocess
import sys
import threading

import psutil
import pytest

from tripleo_ephemeral.heat_launcher import native
from tripleo_ephemeral.heat_launcher import readiness

pytestmark = pytest.mark.starts_process

SERVE = ('import http.server, sys; http.server.HTTPServer(("127.0.0.1", '
         'int(sys.argv[1])), http.server.SimpleHTTPRequestHandler)'
         '.serve_forever()')


@pytest.fixture
def launcher(tmp_path):
    return native.NativeHeatLauncher(str(tmp_path / 'heat'),
                                     readiness.free_port())


def _saved(proc):
    return {'pid': proc.pid,
            'pid_create_time': psutil.Process(proc.pid).create_time()}


@pytest.fixture
def child():
    started = []

    def start(*argv):
        proc = subprocess.Popen([sys.executable, *argv])
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def test_someone_else_on_the_port_is_not_this_heat(launcher, child,
                                                   monkeypatch):
    other = http.server.HTTPServer(('127.0.0.1', launcher.api_port),
                                   http.server.BaseHTTPRequestHandler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        ours = child('-c', 'import time; time.sleep(60)')
        monkeypatch.setattr(native.launcher_state, 'find_process',
                            lambda pid, *a: psutil.Process(pid))
        assert readiness.http_answers(launcher.api_url + '/')
        assert not launcher._answers(_saved(ours))
    finally:
        other.shutdown()
        other.server_close()


def test_this_heat_listening_answers(launcher, child, monkeypatch):
    ours = child('-c', SERVE, str(launcher.api_port))
    monkeypatch.setattr(native.launcher_state, 'find_process',
                        lambda pid, *a: psutil.Process(pid))
    deadline = readiness.Deadline(30)
    readiness.wait_until(lambda: launcher._answers(_saved(ours)), deadline,
                         what='the child server')
