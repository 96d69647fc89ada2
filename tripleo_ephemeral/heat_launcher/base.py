"""The interface every Heat launcher implements, and what all share.

A launcher gives the commands and the deploy one Heat: its heat dir
(:class:`.heat_files.HeatDir`, ``launcher.files``), its address and a
session for its clients, and the lifecycle modelled on mirakuru's
executors: ``__init__`` only stores settings, :meth:`HeatLauncher.prepare`
writes the files, :meth:`HeatLauncher.start` runs pre-checks, launches and
waits for readiness under one deadline, and :meth:`HeatLauncher.stop` may
be called any number of times. Used as a context manager, a launcher always
stops and dumps its database on exit.

A Heat this process starts and stops (native, container, pod) is an
:class:`~.ephemeral.EphemeralHeatLauncher`; an installed Heat
(:mod:`.installed`) is only reached.
"""

import abc
import logging
import os

from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import heat_files
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral import progress

LOG = logging.getLogger(__name__)

DEFAULT_API_PORT = 8006
DEFAULT_BIND_HOST = '127.0.0.1'
DEFAULT_STARTUP_TIMEOUT = 180
#: Seconds a graceful stop may take before Heat is killed: the runner gives
#: in-flight work ``stop_grace`` seconds (heat.conf) and exits.
DEFAULT_STOP_TIMEOUT = 10


class HeatLauncher(abc.ABC):
    """Start, wait for, stop, dump and restore one Heat."""

    #: The ``--heat-type`` value this class implements.
    heat_type = None
    #: Whether this launcher starts (and so stops) Heat at all.
    ephemeral = False

    def __init__(self, heat_dir, api_port=None, *,
                 bind_host=DEFAULT_BIND_HOST, tuning=None, runner=None,
                 startup_timeout=DEFAULT_STARTUP_TIMEOUT,
                 stop_timeout=DEFAULT_STOP_TIMEOUT,
                 stop_grace=registry.STOP_GRACE, debug=False, say=None):
        """``api_port`` None: the last launch's port if it is free, else
        the default if free, else any free port (an ephemeral Heat's
        ``choose_port``). ``say`` prints a line of progress (default: the
        log)."""
        from tripleo_ephemeral import process
        self.heat_dir = os.path.abspath(os.path.expanduser(heat_dir))
        self.files = heat_files.HeatDir(self.heat_dir)
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
        self._say = progress.channel(say)
        self.dumps = dumps.DumpStore(self.heat_dir)
        #: Seconds the last stop spent dumping the database (None: no
        #: dump), for the deploy's phases.
        self.dump_seconds = None

    def say(self, text):
        """One line of progress for the user (a lost terminal is fine)."""
        self._say(text)

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

    @property
    def shown_endpoint(self):
        """The endpoint as the user is shown it: the place of the API
        secret named, never the secret (``<heat-dir>/api_secret``; clients
        get it from heatrc and clouds.yaml)."""
        secret = self.files.api_secret
        endpoint = self.endpoint
        return endpoint.replace('/' + secret + '/', '/<api_secret>/') \
            if secret else endpoint

    # -- what each type provides --------------------------------------------

    @property
    @abc.abstractmethod
    def database(self):
        """The :class:`database.Database` this Heat uses."""

    @property
    def transport_url(self):
        return 'fake://'

    @abc.abstractmethod
    def prepare(self):
        """Write every file Heat reads into the heat dir; return self."""

    def check_prerequisites(self):
        """Fail if what this kind of Heat needs is missing here (a
        container image); reads nothing of the heat dir, writes nothing,
        so a deploy asks it before writing anything."""

    @abc.abstractmethod
    def pre_start_check(self):
        """Fail before touching anything if Heat cannot start here."""

    @abc.abstractmethod
    def start(self, restore_db=False, tied=False):
        """Launch Heat and wait until it answers; return self."""

    @abc.abstractmethod
    def is_running(self):
        """Whether this Heat runs."""

    @abc.abstractmethod
    def stop(self, dump=True, origin=generations.LAUNCH):
        """Stop Heat gracefully and dump its database; safe to repeat.
        Returns the dump's path, or None."""

    @abc.abstractmethod
    def kill(self):
        """Stop Heat at once, without a dump; safe to repeat."""

    @abc.abstractmethod
    def release(self):
        """Untie Heat from this process: it outlives it (--keep-running)."""

    @abc.abstractmethod
    def describe(self):
        """What a command shows the user about this Heat."""

    def engine_tunings(self):
        """What Heat's runner installed, refused and did not need
        (:func:`tripleo_ephemeral.engine_tuning.report.read`); None: not
        recorded, as for a Heat this process does not run (its tunings
        are its own)."""
        return None

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        self.stop(dump=True)

    def session(self):
        """A keystoneauth session for clients of this Heat."""
        from keystoneauth1 import noauth
        from keystoneauth1 import session

        return session.Session(auth=noauth.NoAuth(endpoint=self.endpoint))
