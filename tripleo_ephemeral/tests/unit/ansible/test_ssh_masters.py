"""Closing the ssh ControlPersist masters of an Ansible run."""

import os
import subprocess

import psutil
import pytest

from tripleo_ephemeral.ansible import ssh_masters
from tripleo_ephemeral.tests.unit import fakes


def test_ssh_masters_are_closed(tmp_path):
    control = tmp_path / 'cp'
    control.mkdir()
    (control / 'abc123').write_text('')
    runner = fakes.FakeRunner()
    ssh_masters.close_ssh_masters(str(control), runner)
    assert runner.calls == [['ssh', '-o', 'ControlPath=%s' % (
        control / 'abc123'), '-O', 'exit', 'tripleo-ephemeral']]
    assert not control.exists()
    ssh_masters.close_ssh_masters(str(control), runner)  # gone: fine


def _dead_pid():
    """A pid no process has: the kernel hands out pids below pid_max."""
    with open('/proc/sys/kernel/pid_max') as f:
        return int(f.read())


def test_the_directories_of_commands_gone_are_swept(tmp_path):
    """A command killed during Ansible leaves its masters' directory: the
    next run closes its masters and removes it; a live command's, a name
    of another pattern and a file are left alone."""
    gone = tmp_path / ('te-ssh-%d-abc' % _dead_pid())
    gone.mkdir()
    (gone / 'sock1').write_text('')
    live = tmp_path / ('te-ssh-%d-def' % os.getpid())
    live.mkdir()
    other = tmp_path / 'te-ssh-xyz'
    other.mkdir()
    (tmp_path / ('te-ssh-%d-ghi' % _dead_pid())).write_text('')
    runner = fakes.FakeRunner()
    removed = ssh_masters.sweep_stale(runner, parent=str(tmp_path))
    assert removed == [str(gone)]
    assert not gone.exists() and live.exists() and other.exists()
    assert runner.calls == [['ssh', '-o', 'ControlPath=%s' % (
        gone / 'sock1'), '-O', 'exit', 'tripleo-ephemeral']]


def test_a_pid_used_again_does_not_keep_a_directory(tmp_path):
    """This process started before the directory was made? It is its
    owner. Made (by its time stamp) before this process started: a
    killed command's, whose pid was used again."""
    old = tmp_path / ('te-ssh-%d-abc' % os.getpid())
    old.mkdir()
    started = psutil.Process().create_time()
    os.utime(old, (started - 3600, started - 3600))
    assert ssh_masters.sweep_stale(fakes.FakeRunner(),
                                   parent=str(tmp_path)) == [str(old)]


def test_a_run_directory_names_its_command(tmp_path):
    path = ssh_masters.control_dir()
    try:
        assert os.path.basename(path).startswith(
            'te-ssh-%d-' % os.getpid())
        assert os.stat(path).st_mode & 0o777 == 0o700
        assert len(os.path.join(path, 'x' * 40)) < 100  # a socket's path
    finally:
        os.rmdir(path)


@pytest.mark.starts_process
def test_the_playbook_a_killed_command_left_is_stopped(tmp_path):
    """The ansible-playbook of a command killed outright runs on: the next
    run stops it (by its ANSIBLE_SSH_CONTROL_PATH_DIR), and no other."""
    gone = tmp_path / ('te-ssh-%d-abc' % _dead_pid())
    gone.mkdir()
    orphan = subprocess.Popen(['sleep', '600'], env=dict(
        os.environ, ANSIBLE_SSH_CONTROL_PATH_DIR=str(gone)))
    other = subprocess.Popen(['sleep', '600'], env=dict(
        os.environ, ANSIBLE_SSH_CONTROL_PATH_DIR=str(tmp_path / 'x')))
    try:
        ssh_masters.sweep_stale(fakes.FakeRunner(), parent=str(tmp_path))
        orphan.wait(timeout=30)  # ended (its 600 s are not over)
        assert other.poll() is None
    finally:
        for proc in (orphan, other):
            proc.kill()
            proc.wait()
