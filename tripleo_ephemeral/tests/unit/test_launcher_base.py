"""The HeatLauncher template methods, with a fake type and no processes."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.tests.unit import fakes


@pytest.fixture
def launcher(tmp_path, monkeypatch):
    monkeypatch.setattr(readiness, 'check_port_free', lambda h, p: None)
    return fakes.FakeLauncher(str(tmp_path / 'heat'), startup_timeout=1)


def test_start_stop_are_idempotent(launcher, monkeypatch):
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    with launcher:
        assert launcher.is_running()
        assert launcher.state.load()['pid'] == 4242
    assert launcher.calls == ['launch', 'terminate']
    launcher.stop()
    launcher.kill()
    assert launcher.calls == ['launch', 'terminate']
    assert launcher.state.load()['running'] is False


def test_second_start_is_refused(launcher, monkeypatch):
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    launcher.start()
    with pytest.raises(exceptions.AlreadyRunningError, match='--kill'):
        launcher.start()
    launcher.stop()


def test_timeout_kills_what_was_started(launcher, monkeypatch):
    monkeypatch.setattr(readiness, 'http_answers', lambda url: False)
    with pytest.raises(exceptions.StartupTimeoutError):
        launcher.start()
    assert launcher.calls == ['launch', 'kill']
    assert not launcher.is_running()


def test_exit_during_start_fails_fast(launcher, monkeypatch):
    def answers(url):
        launcher.alive = False  # it died
        return False
    monkeypatch.setattr(readiness, 'http_answers', answers)
    launcher.startup_timeout = 60
    with pytest.raises(exceptions.ProcessExitedError):
        launcher.start()


def test_files_are_private(launcher):
    import os
    import stat
    launcher.prepare()
    assert stat.S_IMODE(os.stat(launcher.heat_dir).st_mode) == 0o700
    for name in ('heat.conf', 'token_file.json', 'clouds.yaml', 'heatrc',
                 'auth_encryption_key'):
        assert stat.S_IMODE(os.stat(launcher.path(name)).st_mode) == 0o600
    key = open(launcher.path('auth_encryption_key')).read()
    launcher.prepare()
    assert open(launcher.path('auth_encryption_key')).read() == key


def test_port_in_use(tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(exceptions.PortInUseError, match=str(port)):
            readiness.check_port_free('127.0.0.1', port)
