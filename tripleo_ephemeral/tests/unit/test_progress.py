"""One progress channel: to the terminal while there is one, else the log."""

import errno
import io
import logging
import types

from tripleo_ephemeral.tripleoclient_adoption import adopt
from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral import interruption
from tripleo_ephemeral import progress


class LostTerminal(io.StringIO):
    """A stderr whose terminal hung up (SIGHUP: EIO) or pipe closed."""

    def __init__(self, error=errno.EIO):
        super().__init__()
        self.error = error
        self.tries = 0

    def write(self, text):
        self.tries += 1
        raise OSError(self.error, 'lost')


def test_lines_go_to_the_stream():
    out = io.StringIO()
    say = progress.channel(out)
    say('one')
    say.say('two')
    assert out.getvalue() == 'one\ntwo\n'
    assert progress.channel(say) is say


def test_a_lost_terminal_falls_back_to_the_log_and_stays_there(caplog):
    out = LostTerminal(errno.EPIPE)
    say = progress.channel(out)
    with caplog.at_level(logging.INFO):
        say('one')
        say('two')
    assert say.lost and out.tries == 1
    assert [r.getMessage() for r in caplog.records] == ['one', 'two']


def test_a_closed_stream_and_a_broken_function_never_raise(caplog):
    closed = io.StringIO()
    closed.close()

    def broken(text):
        raise BrokenPipeError(errno.EPIPE, 'gone')
    with caplog.at_level(logging.INFO):
        progress.channel(closed)('a')
        progress.channel(broken)('b')
        progress.channel(None)('c')
    assert [r.getMessage() for r in caplog.records] == ['a', 'b', 'c']


def test_every_layer_writes_through_it(caplog):
    lost = LostTerminal()
    run = deployment.Deployment.__new__(deployment.Deployment)
    run._say = progress.channel(lost)
    adoption = adopt.Adoption('oc', '/tmp/wd-not-made', out=lost)
    ctl = interruption.Controller(progress.channel(lost))
    with caplog.at_level(logging.INFO):
        run.say('deploy')
        adoption.say('adopt')  # raised on a lost terminal before
        ctl.say('signal')
        progress.channel(lost)('command')
    said = [r.getMessage() for r in caplog.records]
    assert said == ['deploy', 'adopt', 'signal', 'command']


def test_a_layer_remembers_its_lost_terminal(caplog):
    """A deploy, an adoption and a launcher wrap their stream once: after
    the first failed write the log gets every later line at once."""
    for make in (
            lambda out: deployment.Deployment(
                types.SimpleNamespace(stack='oc', workdir=None), out=out),
            lambda out: adopt.Adoption('oc', '/tmp/wd-not-made', out=out)):
        lost = LostTerminal()
        layer = make(lost)
        with caplog.at_level(logging.INFO):
            for line in ('one', 'two', 'three'):
                layer.say(line)
        assert lost.tries == 1
