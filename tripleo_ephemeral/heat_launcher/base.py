"""The interface every Heat launcher implements.

Modelled on mirakuru's executors: ``__init__`` only stores settings,
:meth:`HeatLauncher.prepare` writes the files, :meth:`HeatLauncher.start`
runs pre-checks, launches and waits for readiness under one deadline, and
:meth:`HeatLauncher.stop` may be called any number of times. Used as a
context manager, a launcher always stops and dumps its database on exit.

A launcher delegates its stop, kill and release to a
:class:`.stopping.Stopper` (``launcher.stopper``), a start ahead (a deploy
checking its inputs meanwhile) to a :class:`.spawning.Spawner`
(``launcher.spawner``), and finds the files of its heat dir through a
:class:`.heat_files.HeatDir` (``launcher.files``).
"""

import abc
import logging
import os
import time
import uuid

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.engine_tuning import report as tuning_report
from tripleo_ephemeral import interruption
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import heat_files
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import spawning
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.heat_launcher import stopping
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral.heat_launcher import watchdog
from tripleo_ephemeral import progress

LOG = logging.getLogger(__name__)

DEFAULT_API_PORT = 8006
DEFAULT_BIND_HOST = '127.0.0.1'
DEFAULT_STARTUP_TIMEOUT = 180
#: Seconds a graceful stop may take before Heat is killed: the runner gives
#: in-flight work ``stop_grace`` seconds (heat.conf) and exits.
DEFAULT_STOP_TIMEOUT = 10
#: Launch attempts when the port chosen for the API was taken meanwhile.
PORT_ATTEMPTS = 3
#: The runner's exit code when its port is taken (EADDRINUSE).
EXIT_PORT_IN_USE = 98


class HeatLauncher(abc.ABC):
    """Start, wait for, stop, dump and restore one Heat."""

    #: The ``--heat-type`` value this class implements.
    heat_type = None
    #: Whether this launcher starts (and so stops) Heat at all.
    ephemeral = True
    #: Whether :meth:`spawn` may start Heat ahead (its database is a file
    #: of the heat dir that :meth:`unspawn` removes).
    spawns_early = False

    def __init__(self, heat_dir, api_port=None, *,
                 bind_host=DEFAULT_BIND_HOST, tuning=None, runner=None,
                 startup_timeout=DEFAULT_STARTUP_TIMEOUT,
                 stop_timeout=DEFAULT_STOP_TIMEOUT,
                 stop_grace=registry.STOP_GRACE, debug=False, say=None):
        """``api_port`` None: the last launch's port if it is free, else
        the default if free, else any free port (:meth:`choose_port`).
        ``say`` prints a line of progress (default: the log)."""
        from tripleo_ephemeral import process
        self.heat_dir = os.path.abspath(os.path.expanduser(heat_dir))
        self.files = heat_files.HeatDir(self.heat_dir)
        self.stopper = stopping.Stopper(self)
        self.state = launcher_state.LauncherState(self.heat_dir)
        self.port_given = api_port is not None
        self.api_port = int(api_port if self.port_given else
                            self.state.load().get('api_port') or
                            DEFAULT_API_PORT)
        self.bind_host = bind_host
        self.tuning = tuning or launcher_tuning.Tuning()
        self.runner = runner or process.ProcessRunner()
        self.startup_timeout = startup_timeout
        self.stop_timeout = stop_timeout
        self.stop_grace = stop_grace
        self.debug = debug
        self.spawner = spawning.Spawner(self)
        self._say = progress.channel(say)
        self.dumps = dumps.DumpStore(self.heat_dir)

    def say(self, text):
        """One line of progress for the user (a lost terminal is fine)."""
        self._say(text)

    # -- stopping (:class:`.stopping.Stopper`) --------------------------------

    def stop(self, dump=True, origin=generations.LAUNCH):
        """Stop Heat gracefully and dump its database; safe to repeat.
        Returns the dump's path, or None (:meth:`.Stopper.stop`)."""
        return self.stopper.stop(dump=dump, origin=origin)

    def kill(self):
        """Stop Heat at once, without a dump; safe to repeat."""
        self.stopper.kill()

    def release(self):
        """Untie Heat from this process: it outlives it (--keep-running)."""
        self.stopper.release()

    # -- address -----------------------------------------------------------

    @property
    def api_url(self):
        return 'http://%s:%d' % (self.bind_host, self.api_port)

    @property
    def owner_url(self):
        """The API's root with this launch's secret: what only the owner
        reaches (:mod:`tripleo_ephemeral.runner.api_owner`)."""
        secret = self.files.api_secret
        return self.api_url + ('/' + secret if secret else '')

    @property
    def endpoint(self):
        """The orchestration endpoint clients use."""
        return self.owner_url + '/v1/admin'

    # -- what each type provides --------------------------------------------

    @property
    @abc.abstractmethod
    def database(self):
        """The :class:`database.Database` this Heat uses."""

    @property
    def transport_url(self):
        return 'fake://'

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

    def _renew_secrets(self):
        """New secrets for each launch: the API's (types add theirs)."""
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

    def check_prerequisites(self):
        """Fail if what this kind of Heat needs is missing here (a
        container image); reads nothing of the heat dir, writes nothing,
        so a deploy asks it before writing anything."""

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
        self._renew_secrets()
        self.prepare()
        if restore_db:
            self.database.restore(self.dumps, self.dumps.resolve(restore_db))
        else:
            self.stopper.recover()
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
        saved = self._spawn_once(tied)
        with interruption.activity('waiting for the Heat API'):
            self.wait_until_ready(saved)

    def _spawn_once(self, tied):
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

    # -- an early start (:class:`.spawning.Spawner`) ---------------------

    def spawn(self, tied=False):
        """Start Heat's processes without waiting for its API, so that it
        starts up while the caller works; :meth:`start` then waits for it,
        :meth:`unspawn` undoes it. False: nothing started
        (:meth:`.Spawner.spawn`)."""
        return self.spawner.spawn(tied)

    def unspawn(self):
        """Kill what :meth:`spawn` started, without a dump; remove its
        database."""
        self.spawner.unspawn()

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

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        self.stop(dump=True)

    def session(self):
        """A keystoneauth session for clients of this Heat."""
        from keystoneauth1 import noauth
        from keystoneauth1 import session

        return session.Session(auth=noauth.NoAuth(endpoint=self.endpoint))

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

    def describe(self):
        """What a command shows the user about this Heat."""
        saved = self.state.load()
        return {
            'heat_type': self.heat_type,
            'api_url': self.endpoint,
            'heat_dir': self.heat_dir,
            'pid': saved.get('pid'),
            'database': self.database.url,
            'clouds_yaml': self.files.clouds_file,
            # What the runner installed and refused (None: not recorded).
            'engine_tunings': self.engine_tunings(),
        }
