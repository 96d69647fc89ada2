"""The interface every Heat launcher implements.

Modelled on mirakuru's executors: ``__init__`` only stores settings,
:meth:`HeatLauncher.prepare` writes the files, :meth:`HeatLauncher.start`
runs pre-checks, launches and waits for readiness under one deadline, and
:meth:`HeatLauncher.stop` may be called any number of times. Used as a
context manager, a launcher always stops and dumps its database on exit.
"""

import abc
import errno
import logging
import os
import secrets
import socket
import time

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_launcher import dumps
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning

LOG = logging.getLogger(__name__)

DEFAULT_API_PORT = 8006
DEFAULT_BIND_HOST = '127.0.0.1'
DEFAULT_STARTUP_TIMEOUT = 180
DEFAULT_STOP_TIMEOUT = 60
#: The runner's exit code when its port is taken (EADDRINUSE).
EXIT_PORT_IN_USE = 98


class HeatLauncher(abc.ABC):
    """Start, wait for, stop, dump and restore one Heat."""

    #: The ``--heat-type`` value this class implements.
    heat_type = None
    #: Whether this launcher starts (and so stops) Heat at all.
    ephemeral = True

    def __init__(self, heat_dir, api_port=DEFAULT_API_PORT, *,
                 bind_host=DEFAULT_BIND_HOST, tuning=None, runner=None,
                 startup_timeout=DEFAULT_STARTUP_TIMEOUT,
                 stop_timeout=DEFAULT_STOP_TIMEOUT, debug=False):
        from tripleo_ephemeral import process
        self.heat_dir = os.path.abspath(os.path.expanduser(heat_dir))
        self.api_port = int(api_port)
        self.bind_host = bind_host
        self.tuning = tuning or launcher_tuning.Tuning()
        self.runner = runner or process.ProcessRunner()
        self.startup_timeout = startup_timeout
        self.stop_timeout = stop_timeout
        self.debug = debug
        self.state = launcher_state.LauncherState(self.heat_dir)
        self.dumps = dumps.DumpStore(self.heat_dir)

    # -- paths -------------------------------------------------------------

    def path(self, *names):
        return os.path.join(self.heat_dir, *names)

    @property
    def config_file(self):
        return self.path('heat.conf')

    @property
    def log_dir(self):
        return self.path('log')

    @property
    def api_url(self):
        return 'http://%s:%d' % (self.bind_host, self.api_port)

    @property
    def endpoint(self):
        """The orchestration endpoint clients use."""
        return self.api_url + '/v1/admin'

    @property
    def clouds_file(self):
        return self.path('clouds.yaml')

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
        return 'see the logs in %s' % self.log_dir

    def _exited_error(self, code, what='Heat'):
        """The error for a Heat that exited with ``code`` while starting."""
        if code == EXIT_PORT_IN_USE:
            return port_in_use_error(self.bind_host, self.api_port)
        return exceptions.ProcessExitedError(
            '%s exited while starting (exit code %s): %s' %
            (what, code, self._failure_hint()))

    def _extra_ready_checks(self, deadline, saved):
        """Types with more parts (engines, database) wait for them here."""

    def _prepare_extra(self):
        """Types write their extra files (pod spec, credentials) here."""

    # -- lifecycle -----------------------------------------------------------

    def is_running(self):
        saved = self.state.load()
        return bool(saved.get('running')) and self._is_alive(saved)

    def prepare(self):
        """Write every file Heat reads into the heat dir; return self."""
        fileutil.ensure_private_dir(self.heat_dir)
        fileutil.ensure_private_dir(self.log_dir)
        write = fileutil.write_atomic
        token_file = self.path('token_file.json')
        paste_file = self.path('api-paste.ini')
        policy_file = self.path('policy.yaml')
        write(self.config_file, config.heat_conf(
            heat_type=self.heat_type, api_url=self.api_url,
            bind_host=self.bind_host, api_port=self.api_port,
            database_url=self.database.url,
            transport_url=self.transport_url,
            log_dir=self._runtime_path(self.log_dir),
            token_file=self._runtime_path(token_file),
            paste_file=self._runtime_path(paste_file),
            policy_file=self._runtime_path(policy_file),
            auth_encryption_key=self._auth_encryption_key(),
            engine_workers=self.tuning.engine_workers,
            executor_thread_pool_size=self.tuning.executor_thread_pool_size,
            runner_options=self.tuning.runner_options(),
            debug=self.debug, overrides=self.tuning.overrides))
        write(token_file, config.token_file(self.api_url))
        write(paste_file, config.api_paste_ini(), mode=0o644)
        write(policy_file, config.policy_yaml(), mode=0o644)
        write(self.clouds_file, config.clouds_yaml(self.api_url))
        write(self.path('heatrc'), config.heatrc(self.api_url, self.heat_dir))
        self._prepare_extra()
        return self

    def _runtime_path(self, path):
        """Where Heat sees ``path`` (containers mount the heat dir)."""
        return path

    def _auth_encryption_key(self):
        """The key Heat encrypts stored secrets with.

        It must stay the same across a dump and a restore, so it is made
        once per heat dir and kept there (0600).
        """
        key_file = self.path('auth_encryption_key')
        try:
            with open(key_file) as f:
                key = f.read().strip()
            if len(key) == 32:
                return key
        except FileNotFoundError:
            pass
        key = secrets.token_hex(16)
        fileutil.write_atomic(key_file, key + '\n')
        return key

    def pre_start_check(self):
        """Fail before touching anything if Heat cannot start here."""
        saved = self.state.load()
        if saved.get('running') and self._is_alive(saved):
            raise exceptions.AlreadyRunningError(
                'Heat (%s) is already running for %s at %s; use it, or stop '
                'it with --kill' % (saved.get('heat_type'), self.heat_dir,
                                    saved.get('api_url')))
        check_port_free(self.bind_host, self.api_port)

    def start(self, restore_db=False):
        """Launch Heat and wait until it answers; return self."""
        self.pre_start_check()
        self.prepare()
        if restore_db:
            self.database.restore(self.dumps)
        else:
            self._start_empty()
        started = time.monotonic()
        saved = self.state.save(
            heat_type=self.heat_type, api_port=self.api_port,
            bind_host=self.bind_host, api_url=self.api_url,
            database=self.database.url, running=True, pid=None,
            pid_create_time=None)
        try:
            saved = self.state.save(**self._launch())
            self.wait_until_ready(saved)
        except BaseException:
            self.kill()
            raise
        LOG.info('Heat (%s) ready at %s in %.1fs', self.heat_type,
                 self.api_url, time.monotonic() - started)
        return self

    def _start_empty(self):
        """Start from an empty database, keeping the old one as a dump.

        A run that crashed never dumped its database: dump it now, so
        starting afresh loses nothing.
        """
        db = self.database
        if not db.has_data():
            return
        if db.newer_than(self.dumps.all()[:1]):
            LOG.info('Keeping the previous database as a dump first')
            db.dump(self.dumps)
        db.remove()

    def wait_until_ready(self, saved=None):
        saved = saved or self.state.load()
        deadline = readiness.Deadline(self.startup_timeout)
        readiness.wait_until(
            lambda: readiness.http_answers(self.api_url + '/'), deadline,
            what='The Heat API at %s' % self.api_url,
            still_alive=lambda: self._check_exited(saved))
        self._extra_ready_checks(deadline, saved)

    def stop(self, dump=True):
        """Stop Heat gracefully and dump its database; safe to repeat.

        Returns the dump's path, or None when nothing was dumped.
        """
        saved = self.state.load()
        if saved.get('running') and self._is_alive(saved):
            LOG.info('Stopping Heat (%s)', self.heat_type)
            self._terminate(saved, self.stop_timeout)
        self.state.clear_process()
        if dump and self.database.has_data():
            started = time.monotonic()
            path = self.database.dump(self.dumps)
            LOG.info('Dumped the Heat database to %s (%d bytes, %.2fs)',
                     path, os.path.getsize(path), time.monotonic() - started)
            # The dump is the artifact; the live database goes with Heat.
            self.database.remove()
            return path
        return None

    def kill(self):
        """Stop Heat at once, without a dump; safe to repeat."""
        saved = self.state.load()
        if saved.get('running') and self._is_alive(saved):
            self._force_kill(saved)
        self.state.clear_process()

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        self.stop(dump=True)

    def session(self):
        """A keystoneauth session for clients of this Heat."""
        from keystoneauth1 import noauth
        from keystoneauth1 import session

        return session.Session(auth=noauth.NoAuth(endpoint=self.endpoint))

    def describe(self):
        """What a command shows the user about this Heat."""
        saved = self.state.load()
        return {
            'heat_type': self.heat_type,
            'api_url': self.endpoint,
            'heat_dir': self.heat_dir,
            'pid': saved.get('pid'),
            'database': self.database.url,
            'clouds_yaml': self.clouds_file,
        }


def check_port_free(host, port):
    """Raise PortInUseError when ``host:port`` cannot be bound."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise port_in_use_error(host, port)
        raise exceptions.LauncherError(
            'Cannot listen on %s:%d: %s' % (host, port, exc.strerror))
    finally:
        sock.close()


def port_in_use_error(host, port):
    return exceptions.PortInUseError(
        'Port %d on %s is already in use; choose another with '
        '--heat-api-port or stop what listens there' % (port, host))
