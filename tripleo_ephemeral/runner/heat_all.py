"""tripleo-heat-all: the Heat engine and the Heat API in one process.

Heat 25 removed ``heat-all``; an ephemeral Heat still wants one small process
that it can start, wait for and stop. This runner:

* binds the API socket first, so a port in use fails at once (exit 98);
* optionally runs the database migrations in-process (``--db-sync``);
* starts the engine service in-process (``transport_url = fake://`` is an
  in-memory bus, so the API and the engine must share the process);
* serves the ``heat-api`` paste pipeline on a threaded WSGI server;
* stops in seconds on SIGTERM or SIGINT (exit 0): the API first, then the
  engine's listeners; in-flight resource work gets ``stop_grace`` seconds
  (:func:`tripleo_ephemeral.runner.stop.stop_engine`).

``--mode api`` serves only the API and ``--mode engine --workers N`` runs
only N engines (oslo.service forks them), for a pod with a real message
bus; both keep the same tuning shims.

Its own options live in the ``[ephemeral_heat]`` group of heat.conf.

Its start is most of what a deploy waits for before the create (Heat is
started ahead, while the inputs are read), so two things of this process,
not of Heat's code, make it cheaper:

* the garbage collector is off until the engine has started, the API is
  set up and the last tunings are in (:func:`collector_on`; then it runs
  as stock, or as the ``gc_*`` tunings set it): importing Heat and its
  libraries makes hundreds of thousands of objects and no garbage worth
  the 600 collections (0.4-0.5 s of CPU) they cost;
* eventlet is kept out (:data:`KEPT_OUT`): Heat runs on oslo.service's
  threading backend, and the libraries that import eventlet where they
  find it (oslo.concurrency, futurist, oslo.utils, glanceclient...) only
  check that it has not monkey-patched anything, and use the standard
  library where it cannot be imported; the same modules of Heat and its
  libraries are loaded, and the same resource types registered.

Both took THT 1+1's start from 2.2 s of CPU to 1.6 (paired runs, same
machine).
"""

import gc
import sys

#: Modules this process never imports (see above).
KEPT_OUT = ('eventlet',)

gc.disable()
for _name in KEPT_OUT:
    sys.modules.setdefault(_name, None)

import argparse  # noqa: E402
import logging as std_logging  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socketserver  # noqa: E402
import threading  # noqa: E402
from wsgiref import simple_server  # noqa: E402

from oslo_service import backend  # noqa: E402

backend.init_backend(backend.BackendType.THREADING)

from oslo_config import cfg  # noqa: E402
from oslo_log import log as logging  # noqa: E402

from tripleo_ephemeral.engine_tuning import guard  # noqa: E402
from tripleo_ephemeral import fileutil  # noqa: E402
from tripleo_ephemeral.heat_db import sqlite_schema  # noqa: E402
from tripleo_ephemeral.engine_tuning import report as tuning_report  # noqa: E402,E501
from tripleo_ephemeral.runner import options as runner_options  # noqa: E402
from tripleo_ephemeral.runner import stop as runner_stop  # noqa: E402

EXIT_PORT_IN_USE = 98
EXIT_DB_SYNC_FAILED = 3
#: all: API and engine in one process; api: the API only, RPC to engines
#: over the bus; engine: ``--workers`` engine processes, no API.
MODES = ('all', 'api', 'engine')

CONF = cfg.CONF
LOG = logging.getLogger('tripleo-heat-all')

CONF.register_opts(runner_options.OPTS, group='ephemeral_heat')


class _ThreadingWSGIServer(socketserver.ThreadingMixIn,
                           simple_server.WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class _RequestHandler(simple_server.WSGIRequestHandler):
    def log_message(self, fmt, *args):
        LOG.debug('%s - %s', self.address_string(), fmt % args)


def bind_api(host, port):
    """Bind the API socket before anything slow happens."""
    try:
        httpd = simple_server.make_server(
            host, port, lambda env, start: [],
            server_class=_ThreadingWSGIServer,
            handler_class=_RequestHandler)
    except OSError as exc:
        sys.stderr.write('tripleo-heat-all: cannot listen on %s:%s: %s\n'
                         % (host, port, exc.strerror or exc))
        sys.exit(EXIT_PORT_IN_USE)
    return httpd


def _configure(argv):
    from heat.common import config as heat_config
    from heat import version

    logging.register_options(CONF)
    CONF(argv, project='heat', prog='heat-api',
         version=version.version_info.version_string())
    logging.setup(CONF, 'heat-all')
    heat_config.set_config_defaults()


def _start_engine():
    from heat.common import messaging
    from heat.engine import service as engine_service
    from heat.rpc import api as rpc_api

    messaging.setup()
    srv = engine_service.EngineService(CONF.host, rpc_api.ENGINE_TOPIC)
    srv.start()
    return srv


def _own_options(argv):
    """Split this runner's own flags from oslo.config's."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument('--db-sync', action='store_true')
    parser.add_argument('--schema-revisions', metavar='REV[,REV]',
                        type=lambda text: tuple(sorted(text.split(','))),
                        help='SQLite only: the head revisions of this Heat '
                             '(from the cached schema): a database at them '
                             'needs no migration')
    parser.add_argument('--schema-save', metavar='PATH',
                        help='SQLite only: a new database, once migrated, '
                             'is copied there too (for the schema cache)')
    parser.add_argument('--mode', choices=MODES, default='all')
    parser.add_argument('--workers', type=int, default=1)
    return parser.parse_known_args(argv)


def _sqlite_path():
    url = CONF.database.connection or ''
    return url[len('sqlite:///'):] if url.startswith('sqlite:///') else None


def _db_sync(own):
    db_path = _sqlite_path()
    fresh = db_path is not None and not os.path.exists(db_path)
    if db_path is not None and not fresh and own.schema_revisions:
        # A database at this Heat's head (seeded from the schema cache, or
        # restored) has nothing to migrate: skip loading alembic to find
        # that out.
        current = sqlite_schema.revisions(db_path)
        if current and current == own.schema_revisions:
            LOG.info('Database schema is current (%s)', ', '.join(current))
            return
    # Imported only here: alembic alone costs 0.17 s of a 1.7 s start.
    # Alembic nests connections: run it before BEGIN IMMEDIATE is on.
    from heat.db import migration
    from oslo_db.sqlalchemy import engines

    # On an engine of its own: Heat's would be made now, before the
    # tuning shims of the 'engine' stage (the SQLite pool among them), and
    # kept for the whole run.
    engine = engines.create_engine(CONF.database.connection)
    LOG.info('Running database migrations')
    try:
        migration.db_sync(engine=engine)
    except Exception as exc:  # alembic raises many types
        LOG.critical('Database migration failed: %s; a dump from another '
                     'Heat version needs that version to restore it', exc)
        std_logging.shutdown()
        os._exit(EXIT_DB_SYNC_FAILED)
    finally:
        engine.dispose()
    if fresh and own.schema_save:
        # For the launcher, which keeps it in the user's cache: a copy
        # that cannot be written only costs the next start the migrations.
        try:
            with fileutil.atomic_open(own.schema_save, binary=True,
                                      durable=False) as out, \
                    open(db_path, 'rb') as f:
                shutil.copyfileobj(f, out)
            LOG.info('Saved the empty schema to %s', own.schema_save)
        except OSError as exc:
            LOG.warning('The empty schema is not saved to %s: %s',
                        own.schema_save, exc)


def _install_tunings(own, opts, stage):
    """Install the shims of ``stage``; log and record (for ``launch heat
    -f json``) every one installed so far and every one refused."""
    guard.install(opts, stage=stage)
    installed, refused = guard.installed(), guard.refused()
    unneeded = guard.unneeded()
    LOG.info('%s', tuning_report.line(stage, installed, refused, unneeded))
    if CONF.log_dir:
        tuning_report.write(CONF.log_dir, own.mode, installed, refused,
                            unneeded)


def collector_on():
    """The garbage collector on again, as stock, once the start is over,
    after the ``started`` stage's tunings: with ``gc_freeze`` what the
    start made is frozen first, else the first collection walks it all."""
    gc.enable()


def _prepare_engine(own, opts):
    """Database settings, migrations if asked, then the tuning shims."""
    _install_tunings(own, opts, 'database')  # before the first query
    if own.db_sync:
        _db_sync(own)
    _install_tunings(own, opts, 'engine')


def _run_engines(own, opts):
    """Engine mode: ``workers`` engine processes behind oslo.service."""
    from heat.common import messaging
    from heat.engine import service as engine_service
    from heat.rpc import api as rpc_api
    from oslo_service import service

    _prepare_engine(own, opts)
    messaging.setup()
    srv = engine_service.EngineService(CONF.host, rpc_api.ENGINE_TOPIC)
    LOG.info('Starting %d engine worker(s)', own.workers)
    _install_tunings(own, opts, 'started')  # before the fork: never scanned
    collector_on()
    launcher = service.launch(CONF, srv, workers=max(1, own.workers),
                              restart_method='mutate')
    launcher.wait()
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    os.umask(0o077)  # the database and logs hold secrets
    own, argv = _own_options(argv)
    _configure(argv)
    opts = CONF.ephemeral_heat
    if own.mode == 'engine':
        return _run_engines(own, opts)
    httpd = bind_api(opts.bind_host, opts.bind_port)

    stopping = threading.Event()

    def _stop(signum, _frame):
        if stopping.is_set():
            return
        stopping.set()
        LOG.info('Signal %d received, stopping', signum)
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)

    _prepare_engine(own, opts)
    if stopping.is_set():
        return 0

    from heat.common import config as heat_config
    if own.mode == 'all':
        srv = _start_engine()
    else:  # api: the engines are reached over the message bus
        from heat.common import messaging
        messaging.setup()
        srv = None
    httpd.set_app(heat_config.load_paste_app('heat-api'))
    _install_tunings(own, opts, 'started')
    collector_on()
    LOG.info('Heat API listening on http://%s:%s', *httpd.server_address[:2])
    try:
        if not stopping.is_set():
            httpd.serve_forever(poll_interval=0.2)
    finally:
        httpd.server_close()
        if srv is not None:
            LOG.info('Stopping the engine')
            runner_stop.stop_engine(srv, opts.stop_grace)
        from heat.db import api as db_api
        db_api.get_engine().dispose()  # checkpoints SQLite's WAL if idle
        LOG.info('Stopped')
    # The database is consistent (every transaction is atomic), but engine
    # threads may still be at work, and oslo.messaging and oslo.service
    # leave non-daemon threads that would hold the process for seconds.
    std_logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def run():
    """:func:`main`, which ends the process whatever happens: an error
    once the engine started (a bad paste config, say) would otherwise
    leave it waiting on oslo.messaging's threads, and its launcher on its
    start-up timeout."""
    code = 1
    try:
        code = main()
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
    except BaseException as exc:
        LOG.critical('Unhandled error: %s', exc, exc_info=True)
        sys.stderr.write('%s: %s\n' % (type(exc).__name__, exc))
    std_logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 1)


if __name__ == '__main__':
    run()
