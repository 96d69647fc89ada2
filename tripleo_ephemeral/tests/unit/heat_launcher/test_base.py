"""The HeatLauncher template methods, with a fake type and no processes."""

import os

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
    # The library names the heat dir; the command adds the flag (--kill).
    with pytest.raises(exceptions.AlreadyRunningError,
                       match='already running for'):
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
        mode = os.stat(launcher.files.path(name)).st_mode
        assert stat.S_IMODE(mode) == 0o600
    key = open(launcher.files.path('auth_encryption_key')).read()
    launcher.prepare()
    assert open(launcher.files.path('auth_encryption_key')).read() == key


def test_port_in_use(tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(exceptions.PortInUseError, match=str(port)):
            readiness.check_port_free('127.0.0.1', port)


def _busy_port():
    import socket
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    sock.listen()
    return sock


def test_port_chosen_when_the_last_one_is_taken(tmp_path):
    with _busy_port() as sock:
        taken = sock.getsockname()[1]
        said = []
        (tmp_path / 'heat').mkdir()
        launcher = fakes.FakeLauncher(str(tmp_path / 'heat'),
                                      say=said.append)
        launcher.state.save(api_port=taken)
        launcher = fakes.FakeLauncher(str(tmp_path / 'heat'),
                                      say=said.append)
        assert launcher.api_port == taken and not launcher.port_given
        chosen = launcher.choose_port()
        assert chosen != taken and launcher.api_url.endswith(':%d' % chosen)
        assert said == ['Port %d is in use; Heat listens on port %d instead '
                        '(choose one with --heat-api-port)' % (taken, chosen)]
        given = fakes.FakeLauncher(str(tmp_path / 'heat'), api_port=taken)
        with pytest.raises(exceptions.PortInUseError):
            given.choose_port()


def test_port_taken_meanwhile_is_retried(launcher, monkeypatch):
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    ports = []

    def ready(saved=None):
        ports.append(launcher.api_port)
        if len(ports) == 1:
            raise exceptions.PortInUseError('taken')
    monkeypatch.setattr(launcher, 'wait_until_ready', ready)
    launcher.start()
    assert len(set(ports)) == 2
    assert launcher.calls == ['launch', 'kill', 'launch']
    assert launcher.state.load()['api_port'] == ports[1]
    launcher.stop()


def test_tied_heat_of_a_gone_owner_is_stopped_first(launcher, monkeypatch):
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    said = []
    launcher._say = said.append
    launcher.start(tied=True)
    assert launcher.calls == ['launch', 'watchdog']
    assert launcher.state.load()['owner_pid'] == os.getpid()
    with pytest.raises(exceptions.AlreadyRunningError):
        launcher.pre_start_check()  # its owner (this process) is alive
    launcher.state.save(owner_pid=1 << 22)  # an owner that is gone
    launcher.start()
    assert launcher.calls == ['launch', 'watchdog', 'terminate', 'launch']
    assert any('launched by a command that is gone' in s for s in said)
    launcher.stop()


def test_release_unties(launcher, monkeypatch):
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    launcher.start(tied=True)
    launcher.release()
    assert launcher.state.load()['owner_pid'] is None
    launcher.stop()


def test_watchdog_note_is_said_once(launcher):
    said = []
    launcher._say = said.append
    launcher.prepare()
    launcher.state.save(abandoned={'owner_pid': 77, 'dump': '/d.sql.gz'})
    launcher.pre_start_check()
    launcher.pre_start_check()
    assert said == ['The command that launched the last Heat here (pid 77) '
                    'ended without stopping it; its watchdog stopped it and '
                    'dumped its database to /d.sql.gz']


def test_forced_stop_kills_without_a_dump(launcher, monkeypatch):
    from tripleo_ephemeral import interruption

    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    launcher.start()
    ctl = interruption.Controller(lambda text: None)
    with ctl.installed():
        ctl.forced = True
        assert launcher.stop(dump=True) is None
    assert launcher.calls == ['launch', 'kill']


def test_a_dump_named_wrong_fails_before_the_heat_dir_changes(launcher):
    with pytest.raises(exceptions.DumpNotFoundError):
        launcher.start(restore_db='20990101T000000Z')
    assert not os.path.exists(launcher.files.config_file)


def test_a_refused_tuning_is_one_line_when_heat_is_ready(launcher,
                                                         monkeypatch):
    """heat.log alone knew; the command's stderr says it too."""
    from tripleo_ephemeral.engine_tuning import report

    said = []
    launcher._say = said.append

    def answers(url):
        # The runner records its tunings before its API answers.
        report.write(launcher.files.log_dir, 'all', ['fast_create'],
                     {'prompt_executor_stop': 'futurist._thread differs'},
                     {'thread_safe_ast_parse': 'not needed on Python 3.12.1'})
        return True

    monkeypatch.setattr(readiness, 'http_answers', answers)
    launcher.start()
    assert said == ['WARNING: engine tuning prompt_executor_stop is off: '
                    'futurist._thread differs; Heat runs its own code there']
    launcher.stop()
    assert launcher.engine_tunings()['not_needed'] == {
        'thread_safe_ast_parse': 'not needed on Python 3.12.1'}
