"""Starting Heat ahead: its processes start up while the caller works (a
deploy's input checks), and the launcher's ``start`` then only waits.

An ephemeral launcher's :class:`Spawner` (``launcher.spawner``) does it
through the launcher's public interface (``pre_start_check``,
``renew_secrets``, ``prepare``, ``launch``, ``wait_until_ready``,
``kill``); the launcher's ``start`` asks it first. A spawn is undone by
killing what it started, with no dump, and removing its (empty) database:
as if it never ran.
"""

import contextlib

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import interruption


class Spawner:
    """Start the Heat of ``launcher`` ahead, wait for it, or undo it."""

    def __init__(self, launcher):
        self.launcher = launcher
        #: the state of the Heat :meth:`spawn` started, until it is waited
        #: for or undone
        self.saved = None

    def spawn(self, tied=False):
        """Start Heat's processes without waiting for its API; return
        False, starting nothing, where starting could change what a failed
        check must leave as it was: a database left by a crash (its
        recovery dumps it), a Heat still running (its stop dumps it), or
        no Heat of ours to start (``spawns_early``)."""
        launcher = self.launcher
        if not launcher.spawns_early or \
                launcher.database.has_data() or \
                launcher.state.load().get('running'):
            return False
        launcher.pre_start_check()
        launcher.renew_secrets()
        launcher.prepare()
        try:
            self.saved = launcher.launch(tied)
        except BaseException:
            with interruption.shielded('stopping Heat'):
                self.unspawn()
            raise
        return True

    def unspawn(self):
        """Kill what :meth:`spawn` started, without a dump, and remove its
        database."""
        self.saved = None
        self.launcher.kill()
        self.launcher.database.remove()

    @contextlib.contextmanager
    def undone_on_failure(self):
        """Undo, when the block fails or a signal stops it, a spawn that
        nothing has waited for yet: a signal between the spawn and
        ``start`` must not leave Heat running, or its state saying so."""
        try:
            yield
        except BaseException:
            if self.saved is not None:
                with interruption.shielded('stopping Heat'):
                    self.unspawn()
            raise

    def wait(self):
        """``start``'s wait for the spawned Heat; False if its port was
        taken meanwhile (undone: ``start`` launches again)."""
        launcher = self.launcher
        saved, self.saved = self.saved, None
        try:
            with interruption.activity('waiting for the Heat API'):
                launcher.wait_until_ready(saved)
        except exceptions.PortInUseError:
            self.unspawn()
            if launcher.port_given:
                raise
            return False
        except BaseException:
            with interruption.shielded('stopping Heat'):
                launcher.kill()
            raise
        return True
