"""How a launcher ends its Heat: a graceful stop with a dump, a kill, or
letting it outlive the command that launched it.

:class:`Stopping` is a mixin of :class:`.base.HeatLauncher`, whose start
kills what it launched on any failure; each type provides the ``_is_alive``,
``_terminate`` and ``_force_kill`` used here. All three are safe to repeat:
they read what runs from the launcher state, never from this process.
"""

import os
import time

from tripleo_ephemeral import interruption
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import watchdog


class Stopping:
    """Stop (with a dump), kill or release the Heat of a launcher."""

    def release(self):
        """Untie Heat from this process: it outlives it (--keep-running)."""
        saved = self.state.load()
        watchdog.stop(saved)
        self.state.save(owner_pid=None, watchdog_pid=None)

    def _what(self, saved):
        """"Heat (native, pid 123)": what a stop names on the terminal."""
        where = ('pid %s' % saved['pid'] if saved.get('pid') else
                 saved.get('pod') or saved.get('container') or self.heat_dir)
        return 'Heat (%s, %s)' % (self.heat_type, where)

    def stop(self, dump=True, origin=generations.LAUNCH):
        """Stop Heat gracefully and dump its database; safe to repeat.

        ``origin`` says what the dump comes from (:mod:`.generations`).
        Returns the dump's path, or None when nothing was dumped. After a
        forced stop (a second signal) it only kills: no dump. A database
        with no stack is not dumped over a dump that has one.
        """
        if interruption.forced():
            self.kill()
            return None
        with interruption.shielded('stopping Heat'):
            return self._stop(dump, origin)

    def _worth_dumping(self):
        """(whether to dump, the number of stacks)."""
        if not self.database.has_data():
            return False, 0
        stacks = self.database.stack_count()
        if stacks == 0 and self.dumps.all():
            self.say('The Heat database holds no stack: not dumped, the '
                     'newest dump %s stays the newest' % self.dumps.latest)
            return False, stacks
        return True, stacks

    def _stop(self, dump, origin):
        saved = self.state.load()
        if origin == generations.LAUNCH and saved.get('dump_origin'):
            # A deploy left it running (--keep-running): its outcome.
            origin = saved['dump_origin']
        if saved.get('running') and self._is_alive(saved):
            self.say('Stopping %s' % self._what(saved))
            started = time.monotonic()
            self._terminate(saved, self.stop_timeout)
            self.say('Heat stopped in %.1fs' % (time.monotonic() - started))
        watchdog.stop(saved)
        self.state.clear_process()
        worth, stacks = self._worth_dumping() if dump else (False, None)
        if worth:
            started = time.monotonic()
            with interruption.activity('dumping the Heat database'):
                path = self.database.dump(self.dumps)
                self.dumps.record_origin(path, origin, stacks)
            self.say('Dumped the Heat database to %s (%d bytes, %.1fs)' % (
                path, os.path.getsize(path), time.monotonic() - started))
            # The dump is the artifact; the live database goes with Heat.
            self.database.remove()
            return path
        if dump:
            self.database.remove()
        return None

    def kill(self):
        """Stop Heat at once, without a dump; safe to repeat."""
        saved = self.state.load()
        if saved.get('running') and self._is_alive(saved):
            self._force_kill(saved)
        watchdog.stop(saved)
        self.state.clear_process()
