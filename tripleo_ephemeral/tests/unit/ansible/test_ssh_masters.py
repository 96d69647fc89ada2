"""Closing the ssh ControlPersist masters of an Ansible run."""

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
