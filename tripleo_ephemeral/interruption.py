"""SIGINT, SIGTERM and SIGHUP: an orderly stop first, a forced one next.

A command installs a :class:`Controller` for its run (``with
Controller(say).installed():``). The first signal raises
:class:`Interrupted` (a KeyboardInterrupt) where the main thread is, after
saying what is being interrupted; the ``finally`` blocks on the way out
then stop Heat, dump its database and write the status, each saying what
it stops. While such a stop is already under way (:func:`shielded`) the
first signal only says so: the stop goes on.

The second signal forces the stop: the actions registered with
:func:`on_force` (kill Heat, kill Ansible) run at once, then
:class:`ForcedStop` is raised. Nothing is dumped after that; every dump is
written to a temporary file and renamed, so the last good one stays whole.
Further signals are ignored.

Library code asks :func:`forced` to skip slow clean-up and uses
:func:`shielded` and :func:`on_force`; without an installed controller
they do nothing. :func:`add_activity_hook` is the seam the functional
tests use to hold a command at a chosen activity (tests/pause_hook.py).
"""

import contextlib
import logging
import signal
import threading

from tripleo_ephemeral import progress

LOG = logging.getLogger(__name__)

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: Called with the name of every activity as it starts (none by default).
_activity_hooks = []


class Interrupted(KeyboardInterrupt):
    """The first signal: stop in order."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


class ForcedStop(Interrupted):
    """The second signal: stopped at once, nothing dumped."""


def signal_name(signum):
    try:
        return signal.Signals(signum).name
    except ValueError:
        return 'signal %d' % signum


class Controller:
    """The signal handling of one command run."""

    def __init__(self, say=None):
        self._say = progress.channel(say, level=logging.WARNING)
        self.signum = None
        self.forced = False
        self._raised = False
        self._shields = []
        self._activities = []
        self._force_actions = []

    def say(self, text):
        # A lost terminal must not stop the clean-up: the log gets it.
        self._say(text)

    @property
    def requested(self):
        return self.signum is not None

    def _handle(self, signum, _frame):
        name = signal_name(signum)
        if self.forced:
            return
        if self.signum is None:
            self.signum = signum
            if self._shields:
                self.say('%s: already %s; interrupt again to stop at once '
                         'without a dump' % (name, self._shields[-1]))
                return
            doing = (' while %s' % self._activities[-1]
                     if self._activities else '')
            self.say('%s received%s: stopping in order (interrupt again to '
                     'stop at once without a dump)' % (name, doing))
            self._raised = True
            raise Interrupted(signum)
        self.forced = True
        self.say('%s again: stopping at once, without a dump' % name)
        for what, action in reversed(self._force_actions):
            self.say('Killing %s' % what)
            try:
                action()
            except Exception as exc:  # keep killing the others
                self.say('Could not kill %s: %s' % (what, exc))
        raise ForcedStop(signum)

    @contextlib.contextmanager
    def installed(self):
        """Handle the signals in this block (main thread only)."""
        global _current
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {sig: signal.signal(sig, self._handle) for sig in SIGNALS}
        outer, _current = _current, self
        try:
            yield self
        finally:
            _current = outer
            for sig, handler in previous.items():
                signal.signal(sig, handler)


_current = None


def current():
    """The installed controller, or None."""
    return _current


@contextlib.contextmanager
def shielded(what):
    """A stop under way (``what``: "stopping Heat"): a first signal only
    says so, and is raised once the block is done; a second one still
    forces the stop."""
    ctl = _current
    if ctl is None:
        yield
        return
    ctl._shields.append(what)
    try:
        yield
    finally:
        ctl._shields.pop()
    if ctl.requested and not ctl._raised and not ctl._shields:
        # The signal came during the stop: end the command now.
        ctl._raised = True
        raise Interrupted(ctl.signum)


@contextlib.contextmanager
def activity(what):
    """Name what the command is doing, for the first signal's message."""
    ctl = _current
    if ctl is None:
        yield
        return
    ctl._activities.append(what)
    try:
        for hook in list(_activity_hooks):
            hook(what)
        yield
    finally:
        ctl._activities.pop()


def add_activity_hook(hook):
    """Call ``hook(what)`` as every activity starts (a test's seam)."""
    if hook not in _activity_hooks:
        _activity_hooks.append(hook)


def remove_activity_hook(hook):
    if hook in _activity_hooks:
        _activity_hooks.remove(hook)


@contextlib.contextmanager
def on_force(what, action):
    """Run ``action()`` at once if a second signal forces the stop in
    this block (``what`` names it on the terminal)."""
    ctl = _current
    if ctl is None:
        yield
        return
    entry = (what, action)
    ctl._force_actions.append(entry)
    try:
        yield
    finally:
        ctl._force_actions.remove(entry)


def requested():
    """True once a first signal came (a stop is wanted)."""
    return _current is not None and _current.requested


def forced():
    """True once a second signal forced the stop: skip slow clean-up."""
    return _current is not None and _current.forced


def say(text):
    """Say ``text`` through the installed controller (else log it)."""
    if _current is not None:
        _current.say(text)
    else:
        progress.channel()(text)
