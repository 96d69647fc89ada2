"""The scratch MariaDB a SQLite restore reads a pod's dump with."""

import os
import stat

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.heat_launcher import scratch_mariadb
from tripleo_ephemeral.tests.unit import fakes

DUMP = '-- MariaDB dump\nCREATE TABLE `stack` (id int);\nCOMMIT;\n'
RUNNING = (['podman', 'container', 'inspect'], 0, b'running 0')


def _scratch(tmp_path, runner):
    return scratch_mariadb.ScratchMariadb(
        podman.Podman(runner), podman.ContainerImages(fakes.IMAGE),
        str(tmp_path))


def test_password_only_on_stdin_and_in_a_private_file(tmp_path):
    runner = fakes.FakeRunner(answers=[RUNNING])
    scratch = _scratch(tmp_path, runner)
    with scratch.loaded(DUMP) as url:
        client = url.split('read_default_file=')[1].split('&')[0]
        assert stat.S_IMODE(os.stat(client).st_mode) == 0o600
        password = open(client).read().split('password = ')[1].split()[0]
    assert len(password) == 32
    assert not any(password in ' '.join(argv) for argv in runner.calls)
    assert any(password.encode() in (data or b'') for data in runner.inputs)
    assert DUMP.encode() in runner.inputs
    run = runner.find('podman', 'run', '-d', '--name', scratch.name)[0]
    assert '--net' in run and fakes.IMAGE in run
    assert '--bind-address=127.0.0.1' in run[-1]
    # Removed afterwards, with its client file.
    assert runner.calls[-1] == ['podman', 'rm', '--ignore', '-f',
                                scratch.name]
    assert not os.path.exists(client)


def test_removed_when_the_dump_does_not_load(tmp_path):
    runner = fakes.FakeRunner(check_exit=True)
    scratch = _scratch(tmp_path, runner)
    runner.answers = [RUNNING, (['podman', 'exec', '-i', scratch.name,
                                 'mariadb', '--batch', '--skip-column-names',
                                 'heat'], 1, b'')]
    with pytest.raises(exceptions.CorruptDumpError):
        with scratch.loaded(DUMP):
            pass
    assert runner.calls[-1] == ['podman', 'rm', '--ignore', '-f',
                                scratch.name]


def test_exited_mariadb_fails_at_once(tmp_path):
    runner = fakes.FakeRunner()
    scratch = _scratch(tmp_path, runner)
    runner.answers = [
        (['podman', 'container', 'inspect'], 0, b'exited 1'),
        (['podman', 'exec', scratch.name, 'mariadb-admin'], 1, b'')]
    with pytest.raises(exceptions.ProcessExitedError, match=scratch.name):
        with scratch.loaded(DUMP):
            pass
    assert runner.calls[-1][:2] == ['podman', 'rm']
