"""How a launcher ends its Heat: a graceful stop with a dump, a kill, or
letting it outlive the command that launched it; and, before a fresh start,
the dump a crashed run never made.

:class:`Stopper` is what :class:`.base.HeatLauncher` delegates its
``stop``, ``kill`` and ``release`` to (its start kills what it launched on
any failure); each launcher type provides the ``_is_alive``,
``_terminate`` and ``_force_kill`` used here. All three are safe to
repeat: they read what runs from the launcher state, never from this
process.
"""

import os
import time

from tripleo_ephemeral import interruption
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import watchdog


class Stopper:
    """Stop (with a dump), kill or release the Heat of ``launcher``."""

    def __init__(self, launcher):
        self.launcher = launcher
        #: Seconds the last stop spent dumping the database (None: no
        #: dump), for the deploy's phases.
        self.dump_seconds = None

    def release(self):
        """Untie Heat from this process: it outlives it (--keep-running)."""
        state = self.launcher.state
        watchdog.stop(state.load())
        state.save(owner_pid=None, watchdog_pid=None)

    def _what(self, saved):
        """"Heat (native, pid 123)": what a stop names on the terminal."""
        launcher = self.launcher
        where = ('pid %s' % saved['pid'] if saved.get('pid') else
                 saved.get('pod') or saved.get('container') or
                 launcher.heat_dir)
        return 'Heat (%s, %s)' % (launcher.heat_type, where)

    def stop(self, dump=True, origin=generations.LAUNCH):
        """Stop Heat gracefully and dump its database; safe to repeat.

        ``origin`` says what the dump comes from
        (:mod:`tripleo_ephemeral.heat_db.generations`). Returns the dump's
        path, or None when nothing was dumped. After a forced stop (a second
        signal) it only kills: no dump. A database with no stack is not
        dumped over a dump that has one.
        """
        if interruption.forced():
            self.launcher.kill()  # a type's kill also removes its pod
            return None
        with interruption.shielded('stopping Heat'):
            return self._stop(dump, origin)

    def _worth_dumping(self):
        """(whether to dump, the number of stacks)."""
        launcher = self.launcher
        if not launcher.database.has_data():
            return False, 0
        stacks = launcher.database.stack_count()
        if stacks == 0 and launcher.dumps.all():
            launcher.say('The Heat database holds no stack: not dumped, the '
                         'newest dump %s stays the newest' %
                         launcher.dumps.latest)
            return False, stacks
        return True, stacks

    def _stop(self, dump, origin):
        launcher = self.launcher
        self.dump_seconds = None
        saved = launcher.state.load()
        if origin == generations.LAUNCH and saved.get('dump_origin'):
            # A deploy left it running (--keep-running): its outcome.
            origin = saved['dump_origin']
        if saved.get('running') and launcher._is_alive(saved):
            launcher.say('Stopping %s' % self._what(saved))
            started = time.monotonic()
            launcher._terminate(saved, launcher.stop_timeout)
            launcher.say('Heat stopped in %.1fs' % (
                time.monotonic() - started))
        watchdog.stop(saved)
        launcher.state.clear_process()
        worth, stacks = self._worth_dumping() if dump else (False, None)
        if worth:
            started = time.monotonic()
            with interruption.activity('dumping the Heat database'):
                path = launcher.database.dump(launcher.dumps)
                launcher.dumps.record_origin(path, origin, stacks)
            self.dump_seconds = time.monotonic() - started
            launcher.say(
                'Dumped the Heat database to %s (%d bytes, %.1fs)' % (
                    path, os.path.getsize(path), self.dump_seconds))
            # The dump is the artifact; the live database goes with Heat.
            launcher.database.remove()
            return path
        if dump:
            launcher.database.remove()
        return None

    def recover(self):
        """Before a start from an empty database: keep the old one as a
        dump, as the stop a crashed run never made would have (an empty
        one only if there is no dump yet), then remove it."""
        launcher = self.launcher
        db, store = launcher.database, launcher.dumps
        if not db.has_data():
            return
        kept = store.all()
        if db.newer_than(kept[:1]) and (db.stack_count() != 0 or not kept):
            path = db.dump(store)
            store.record_origin(path, generations.RECOVERED, db.stack_count())
            launcher.say('Found the database of a Heat that did not stop '
                         'cleanly: kept it as the dump %s' % path)
        db.remove()

    def kill(self):
        """Stop Heat at once, without a dump; safe to repeat."""
        launcher = self.launcher
        saved = launcher.state.load()
        if saved.get('running') and launcher._is_alive(saved):
            launcher._force_kill(saved)
        watchdog.stop(saved)
        launcher.state.clear_process()
