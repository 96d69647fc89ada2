"""A Heat this process starts and stops: native, container, pod.

Modelled on mirakuru's executors (:mod:`.base`): ``start`` runs the
pre-checks, launches and waits for readiness under one deadline, killing
what it launched on any failure; ``stop`` stops Heat gracefully and keeps
its database as a dump (:mod:`tripleo_ephemeral.heat_db.keeping`), ``kill``
stops it at once, and both read what runs from the launcher state, never
from this process, so they are safe to repeat.

Each type provides its process through the hooks ``_launch``,
``_is_alive``, ``_terminate`` and ``_force_kill`` (and may refine
``_check_exited``, ``_failure_hint``, ``_extra_ready_checks`` and
``_prepare_extra``), which only this class calls. A start ahead (a deploy
checking its inputs meanwhile) is the :class:`.spawning.Spawner`'s
(``launcher.spawner``), through this class's public interface.
"""

import abc
import logging
import time
import uuid

from tripleo_ephemeral.engine_tuning import report as tuning_report
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_db import keeping
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import heat_files
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import spawning
from tripleo_ephemeral.heat_launcher import watchdog
from tripleo_ephemeral import interruption

LOG = logging.getLogger(__name__)

#: Launch attempts when the port chosen for the API was taken meanwhile.
PORT_ATTEMPTS = 3
#: The runner's exit code when its port is taken (EADDRINUSE).
EXIT_PORT_IN_USE = 98


class EphemeralHeatLauncher(base.HeatLauncher):
    """A Heat of this process's own: started, waited for, stopped with a
    dump of its database."""

    ephemeral = True
    #: Whether the :class:`.spawning.Spawner` may start Heat ahead (its
    #: database is a file of the heat dir that an unspawn removes).
    spawns_early = False

    def __init__(self, heat_dir, api_port=None, **kwargs):
        super().__init__(heat_dir, api_port, **kwargs)
        self.spawner = spawning.Spawner(self)

    # -- what each type provides --------------------------------------------

    @abc.abstractmethod
    def _launch(self):
        """Start Heat; return the state to remember (e.g. pid)."""

    @abc.abstractmethod
    def _is_alive(self, saved):
        """True while the Heat described by ``saved`` state runs."""

    @abc.abstractmethod
    def _terminate(self, saved, timeout):
        """Stop it gracefully, forcing it after ``timeout`` seconds."""

    @abc.abstractmethod
    def _force_kill(self, saved):
        """Stop it now, without waiting for it to finish its work."""

    def _check_exited(self, saved):
        """Raise ProcessExitedError if Heat died while starting."""
        if not self._is_alive(saved):
            raise exceptions.ProcessExitedError(
                'Heat exited while starting: %s' % self._failure_hint())

    def _failure_hint(self):
        return 'see the logs in %s' % self.files.log_dir

    def _exited_error(self, code, what='Heat'):
        """The error for a Heat that exited with ``code`` while starting."""
        if code == EXIT_PORT_IN_USE:
            return readiness.port_in_use_error(self.bind_host, self.api_port)
        return exceptions.ProcessExitedError(
            '%s exited while starting (exit code %s): %s' %
            (what, code, self._failure_hint()))

    def _extra_ready_checks(self, deadline, saved):
        """Types with more parts (engines, database) wait for them here."""

    def _prepare_extra(self):
        """Types write their extra files (pod spec, credentials) here."""

    def renew_secrets(self):
        """New secrets for a launch: the API's (types add theirs)."""
        heat_files.new_api_secret(self)

    # -- lifecycle -----------------------------------------------------------

    def is_running(self):
        saved = self.state.load()
        return bool(saved.get('running')) and self._is_alive(saved)

    def prepare(self):
        """Write every file Heat reads into the heat dir; return self."""
        fileutil.ensure_private_dir(self.heat_dir)
        fileutil.ensure_private_dir(self.files.log_dir)
        heat_files.write(self)
        self._prepare_extra()
        return self

    def pre_start_check(self):
        """Fail before touching anything if Heat cannot start here.

        A Heat whose owner (the deploy that launched it) is gone is stopped
        first, with a dump, saying so; the API port is chosen.
        """
        saved = self.state.load()
        if saved.get('running') and self._is_alive(saved):
            if not watchdog.owner_gone(saved):
                raise exceptions.AlreadyRunningError(
                    'Heat (%s) is already running for %s at %s' % (
                        saved.get('heat_type'), self.heat_dir,
                        saved.get('api_url')), heat_dir=self.heat_dir)
            self.say('Found Heat (%s) still running for %s, launched by a '
                     'command that is gone (pid %s): stopping it' % (
                         saved.get('heat_type'), self.heat_dir,
                         saved.get('owner_pid')))
            self.stop(dump=True, origin=generations.DEPLOY_INTERRUPTED)
        watchdog.report_abandoned(self.state, self.say)
        self.choose_port()

    def choose_port(self):
        """Keep the API port if it is free; else pick a free one, unless
        it was given (--heat-api-port): then fail naming it."""
        try:
            readiness.check_port_free(self.bind_host, self.api_port)
        except exceptions.PortInUseError:
            if self.port_given:
                raise
            taken, self.api_port = self.api_port, readiness.free_port(
                self.bind_host)
            self.say('Port %d is in use; Heat listens on port %d instead '
                     '(choose one with --heat-api-port)' % (
                         taken, self.api_port))
        return self.api_port

    def start(self, restore_db=False, tied=False):
        """Launch Heat and wait until it answers; return self.

        ``restore_db``: which dump to start from (True: the newest; see
        :meth:`tripleo_ephemeral.heat_db.dumps.DumpStore.resolve`), else an
        empty database.

        ``tied``: Heat belongs to this process; if it dies without stopping
        Heat, a watchdog stops it (:mod:`.watchdog`).
        """
        if self.spawner.saved is not None and self.spawner.wait():
            self._say_tunings_off()
            return self
        if restore_db:
            # A dump named wrong fails before anything in the heat dir
            # changes (resolved again below: stopping a stale Heat dumps).
            self.dumps.resolve(restore_db)
        self.pre_start_check()
        self.renew_secrets()
        self.prepare()
        if restore_db:
            self.database.restore(self.dumps, self.dumps.resolve(restore_db))
        else:
            keeping.recover(self.database, self.dumps, self.say)
        started = time.monotonic()
        for attempt in range(1, PORT_ATTEMPTS + 1):
            try:
                self._launch_once(tied)
                break
            except exceptions.PortInUseError:
                self.kill()
                if self.port_given or attempt == PORT_ATTEMPTS:
                    raise
                taken, self.api_port = self.api_port, readiness.free_port(
                    self.bind_host)
                self.say('Port %d was taken meanwhile; trying port %d' % (
                    taken, self.api_port))
                self.prepare()
            except BaseException:
                with interruption.shielded('stopping Heat'):
                    self.kill()
                raise
        LOG.info('Heat (%s) ready at %s in %.1fs', self.heat_type,
                 self.api_url, time.monotonic() - started)
        self._say_tunings_off()
        return self

    def _launch_once(self, tied):
        saved = self.launch(tied)
        with interruption.activity('waiting for the Heat API'):
            self.wait_until_ready(saved)

    def launch(self, tied=False):
        """Start Heat's processes as prepared, without waiting for them;
        return their state. :meth:`start` (after its checks and
        :meth:`prepare`) and the spawner call it."""
        owner = watchdog.owner_fields() if tied else {'owner_pid': None}
        tuning_report.clear(self.files.log_dir)
        saved = self.state.save(
            heat_type=self.heat_type, api_port=self.api_port,
            bind_host=self.bind_host, api_url=self.api_url,
            database=self.database.url, running=True, pid=None,
            pid_create_time=None, launch_id=uuid.uuid4().hex, **owner)
        saved = self.state.save(**self._launch())
        if tied:
            saved = self.state.save(**self._start_watchdog(saved))
        return saved

    def _start_watchdog(self, saved):
        """Start the watchdog of a tied Heat; return its state fields."""
        return watchdog.spawn(self.runner, self.heat_dir, self.files.log_dir,
                              saved['launch_id'])

    def wait_until_ready(self, saved=None):
        saved = saved or self.state.load()
        deadline = readiness.Deadline(self.startup_timeout)
        readiness.wait_until(
            lambda: self._answers(saved), deadline,
            what='The Heat API at %s' % self.api_url,
            still_alive=lambda: self._check_exited(saved))
        self._extra_ready_checks(deadline, saved)

    def _answers(self, saved):
        """Whether this Heat's API answers (not just anything there)."""
        return readiness.http_answers(self.owner_url + '/')

    # -- the end --------------------------------------------------------------

    def stop(self, dump=True, origin=generations.LAUNCH):
        """Stop Heat gracefully and dump its database; safe to repeat.

        ``origin`` says what the dump comes from
        (:mod:`tripleo_ephemeral.heat_db.generations`). Returns the dump's
        path, or None when nothing was dumped
        (:func:`~tripleo_ephemeral.heat_db.keeping.keep`). After a forced
        stop (a second signal) it only kills: no dump.
        """
        if interruption.forced():
            self.kill()  # a type's kill also removes its pod
            return None
        with interruption.shielded('stopping Heat'):
            self.dump_seconds = None
            saved = self.state.load()
            if origin == generations.LAUNCH and saved.get('dump_origin'):
                # A deploy left it running (--keep-running): its outcome.
                origin = saved['dump_origin']
            if saved.get('running') and self._is_alive(saved):
                self.say('Stopping %s' % self._process_name(saved))
                started = time.monotonic()
                self._terminate(saved, self.stop_timeout)
                self.say('Heat stopped in %.1fs' % (
                    time.monotonic() - started))
            watchdog.stop(saved)
            self.state.clear_process()
            if not dump:
                return None
            path, self.dump_seconds = keeping.keep(
                self.database, self.dumps, origin, self.say)
            return path

    def _process_name(self, saved):
        """"Heat (native, pid 123)": what a stop names on the terminal."""
        where = ('pid %s' % saved['pid'] if saved.get('pid') else
                 saved.get('pod') or saved.get('container') or self.heat_dir)
        return 'Heat (%s, %s)' % (self.heat_type, where)

    def kill(self):
        """Stop Heat at once, without a dump; safe to repeat."""
        saved = self.state.load()
        if saved.get('running') and self._is_alive(saved):
            self._force_kill(saved)
        watchdog.stop(saved)
        self.state.clear_process()

    def release(self):
        """Untie Heat from this process: it outlives it (--keep-running)."""
        watchdog.stop(self.state.load())
        self.state.save(owner_pid=None, watchdog_pid=None)

    def describe(self):
        """What a command shows the user about this Heat."""
        saved = self.state.load()
        return {
            'heat_type': self.heat_type,
            'api_url': self.shown_endpoint,
            'heat_dir': self.heat_dir,
            'pid': saved.get('pid'),
            'database': self.database.url,
            'clouds_yaml': self.files.clouds_file,
            # What the runner installed and refused (None: not recorded).
            'engine_tunings': self.engine_tunings(),
        }

    def engine_tunings(self):
        """What the runner installed, refused and did not need
        (:func:`tripleo_ephemeral.engine_tuning.report.read`; None: not
        recorded)."""
        return tuning_report.read(self.files.log_dir)

    def _say_tunings_off(self):
        """One line for each tuning the runner refused (or failed to
        install): heat.log alone would keep it from the operator."""
        refused = (self.engine_tunings() or {}).get('refused') or {}
        for name, why in sorted(refused.items()):
            self.say('WARNING: engine tuning %s is off: %s; Heat runs its '
                     'own code there' % (name, why))
