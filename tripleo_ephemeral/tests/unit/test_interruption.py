"""The signal controller's rules, driven by calling its handler."""

import signal

import pytest

from tripleo_ephemeral import interruption
from tripleo_ephemeral import progress
from tripleo_ephemeral.tests import pause_hook


@pytest.fixture
def ctl():
    said = []
    controller = interruption.Controller(said.append)
    controller.said = said
    with controller.installed():
        yield controller


def test_first_signal_interrupts_naming_the_activity(ctl):
    with pytest.raises(interruption.Interrupted) as exc:
        with interruption.activity('creating stack oc'):
            ctl._handle(signal.SIGTERM, None)
    assert exc.value.signum == signal.SIGTERM
    assert not isinstance(exc.value, interruption.ForcedStop)
    assert ctl.said == ['SIGTERM received while creating stack oc: stopping '
                        'in order (interrupt again to stop at once without '
                        'a dump)']
    assert interruption.requested() and not interruption.forced()


def test_signal_during_a_stop_waits_for_its_end(ctl):
    done = []
    with pytest.raises(interruption.Interrupted):
        with interruption.shielded('stopping Heat'):
            ctl._handle(signal.SIGINT, None)  # noted, not raised
            done.append('stopped')
    assert done == ['stopped']
    assert 'already stopping Heat' in ctl.said[0]


def test_second_signal_runs_force_actions_and_forces(ctl):
    killed = []
    with interruption.on_force('Heat', lambda: killed.append('heat')), \
            interruption.on_force('Ansible', lambda: 1 / 0):
        with pytest.raises(interruption.Interrupted):
            ctl._handle(signal.SIGINT, None)
        with pytest.raises(interruption.ForcedStop):
            ctl._handle(signal.SIGINT, None)
    assert killed == ['heat']  # a failing action does not stop the others
    assert interruption.forced()
    assert 'Killing Ansible' in ctl.said and 'Killing Heat' in ctl.said
    assert any(s.startswith('Could not kill Ansible') for s in ctl.said)
    ctl._handle(signal.SIGINT, None)  # later ones are ignored


def test_handlers_installed_and_restored():
    before = signal.getsignal(signal.SIGHUP)
    ctl = interruption.Controller(lambda text: None)
    with ctl.installed():
        for sig in interruption.SIGNALS:
            assert signal.getsignal(sig) == ctl._handle
        assert interruption.current() is ctl
    assert signal.getsignal(signal.SIGHUP) == before
    assert interruption.current() is None


def test_without_a_controller_nothing_happens():
    with interruption.shielded('x'), interruption.activity('y'), \
            interruption.on_force('z', lambda: None):
        assert not interruption.requested() and not interruption.forced()


def test_a_lost_terminal_does_not_break_the_handler(ctl):
    def broken(text):
        raise OSError(5, 'Input/output error')
    ctl._say = progress.channel(broken)
    with pytest.raises(interruption.Interrupted):
        ctl._handle(signal.SIGHUP, None)


def test_test_pause(monkeypatch, ctl):
    slept = []
    monkeypatch.setattr(pause_hook.time, 'sleep', slept.append)
    monkeypatch.setenv(pause_hook.PAUSE_ENV, 'the outputs=2.5')
    monkeypatch.setattr(interruption, '_activity_hooks', [])
    pause_hook.install()  # the hook is the tests', not the library's
    with interruption.activity('saving the outputs'):
        pass
    with interruption.activity('rendering'):
        pass
    assert slept == [2.5]
