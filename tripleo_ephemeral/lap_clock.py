"""Where a deploy's time goes: seconds per phase, in one place.

:class:`Phases` is a lap clock the deployment owns: each phase ends with
:meth:`Phases.lap`, which books the time since the last lap (or since the
clock started) to that phase, so the phases add up to the whole of the
command's own run, with no gap and no overlap. A phase that runs twice
(or a lap whose name was already booked) adds up. The deploy result shows
them as ``phase_seconds``; ``startup`` (the ``openstack`` process's own
start: Python, the CLI and plugin imports, argument parsing) is measured
from the process's start time where the system tells it (Linux ``/proc``)
to :func:`started`, which a command calls first thing in its
``take_action``. Run through ``tools/dev.py``, the process began as that
script, which may have built the venv first: it says when it handed over
(:data:`EXEC_ENV`), and the time before is booked as ``venv``.
"""

import os
import time

#: Seconds are shown to the hundredth.
DIGITS = 2
#: "<pid> <boot-clock seconds>": tools/dev.py exec'd into this process then.
EXEC_ENV = 'TRIPLEO_EPHEMERAL_EXEC_AT'


class Phases:
    """Seconds per phase of one run; ``clock`` is the monotonic clock."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._last = clock()
        self.seconds = {}

    def lap(self, name):
        """End phase ``name`` now: book it the time since the last lap."""
        now = self._clock()
        self.add(name, now - self._last)
        self._last = now

    def add(self, name, seconds):
        """Book ``seconds`` to ``name`` (added to what it has)."""
        if seconds is not None:
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def move(self, seconds, source, dest):
        """Book ``seconds`` of ``source``'s time to ``dest`` instead (a
        part the step measured itself: the dump within Heat's stop)."""
        if seconds is None or source not in self.seconds:
            return
        seconds = min(seconds, self.seconds[source])
        self.seconds[source] -= seconds
        self.add(dest, seconds)

    def values(self):
        """``{phase: seconds}`` in the order the phases first ran."""
        return {name: round(value, DIGITS)
                for name, value in self.seconds.items()}


def process_age(pid='self'):
    """Seconds since this process started, or None where the system does
    not say (no ``/proc``): both read on the boot clock."""
    try:
        with open('/proc/%s/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        with open('/proc/uptime') as f:
            uptime = float(f.read().split()[0])
        ticks = os.sysconf('SC_CLK_TCK')
    except (OSError, ValueError, IndexError):
        return None
    # Field 22 of stat (starttime); fields[0] is field 3 (state).
    return max(0.0, uptime - int(fields[19]) / ticks)


def exec_age(environ=None):
    """Seconds since tools/dev.py exec'd into this very process (its pid in
    :data:`EXEC_ENV`; a child that inherited the variable is not it), or
    None."""
    value = (os.environ if environ is None else environ).get(EXEC_ENV, '')
    try:
        pid, at = value.split()
        if int(pid) != os.getpid():
            return None
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - float(at))
    except (ValueError, AttributeError):
        return None


def started(clock=time.monotonic, environ=None):
    """A :class:`Phases` whose ``startup`` holds the process's start, and
    ``venv`` what tools/dev.py spent before it (building the venv)."""
    phases = Phases(clock)
    age, since_exec = process_age(), exec_age(environ)
    if age is not None and since_exec is not None and since_exec <= age:
        phases.add('venv', age - since_exec)
        age = since_exec
    phases.add('startup', age)
    return phases
