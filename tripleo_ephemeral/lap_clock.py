"""Where a deploy's time goes: seconds per phase, in one place.

:class:`Phases` is a lap clock the deployment owns: each phase ends with
:meth:`Phases.lap`, which books the time since the last lap (or since the
clock started) to that phase, so the phases add up to the whole of the
command's own run, with no gap and no overlap. A phase that runs twice
(or a lap whose name was already booked) adds up. The deploy result shows
them as ``phase_seconds``; ``startup`` (the ``openstack`` process's own
start: Python, the CLI and plugin imports, argument parsing) is measured
from the process's start time where the system tells it (Linux ``/proc``).
"""

import os
import time

#: Seconds are shown to the hundredth.
DIGITS = 2


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


def started(clock=time.monotonic):
    """A :class:`Phases` whose ``startup`` holds the process's start."""
    phases = Phases(clock)
    phases.add('startup', process_age())
    return phases
