"""Fixtures shared by the unit tests, and the fast tier's guard.

A unit test that starts a process (a subprocess, through
:mod:`tripleo_ephemeral.process` or not, a fork, an exec, a
multiprocessing child) is marked ``@pytest.mark.starts_process``; the
others are the fast tier (``python3 tools/dev.py test --fast`` runs them:
``-m 'not starts_process'``). The guard below keeps it so: in a test
without the mark, starting a process raises :class:`ProcessStarted` and
fails the test, even where the code under test catches it.
"""

import multiprocessing.util
import os
import subprocess

import pytest

#: The marker of the unit tests that start a process.
STARTS_PROCESS = 'starts_process'
#: The marker of the unit tests that read all of THT's real templates
#: (seconds each): the fast tier leaves them out too.
REAL_TEMPLATES = 'real_templates'
#: Every way a process starts here: subprocess (run, check_output,
#: os.popen, asyncio's and tripleo_ephemeral.process's all end in
#: Popen._execute_child), a fork, a spawn, an exec, multiprocessing's
#: spawn and forkserver.
GUARDED = ((subprocess.Popen, '_execute_child'), (os, 'fork'),
           (os, 'forkpty'), (os, 'posix_spawn'), (os, 'posix_spawnp'),
           (os, 'system'), (os, 'execv'), (os, 'execve'),
           (multiprocessing.util, 'spawnv_passfds'))
_STARTED = pytest.StashKey()

# Heat's croniter runs ``file`` on the Python binary when it is first
# imported (platform.architecture): once, here, before any test's guard.
try:
    import croniter  # noqa: F401
except ImportError:  # pragma: no cover - Heat brings it
    pass


class ProcessStarted(BaseException):
    """A unit test without the starts_process mark started a process (a
    BaseException: the code under test does not catch it as an error of
    its own)."""


def pytest_configure(config):
    config.addinivalue_line('markers', (
        '%(mark)s: the test starts a process (subprocess, fork, exec); the '
        'fast tier (-m "not %(mark)s") leaves it out') % {
            'mark': STARTS_PROCESS})
    config.addinivalue_line('markers', (
        '%s: the test reads every real template of tripleo-heat-templates '
        '(seconds); the fast tier leaves it out') % REAL_TEMPLATES)


def _refusal(item, name):
    def refuse(*args, **kwargs):
        item.stash.setdefault(_STARTED, []).append(name)
        raise ProcessStarted(
            '%s started a process (%s) without @pytest.mark.%s: mark it '
            '(it leaves the fast tier) or give it a fake runner (fakes.py)'
            % (item.nodeid, name, STARTS_PROCESS))
    return refuse


def _guarded(item):
    """Run a phase of ``item`` with every way to start a process refused,
    unless it is marked."""
    if item.get_closest_marker(STARTS_PROCESS) is not None:
        yield
        return
    saved = [(owner, name, getattr(owner, name)) for owner, name in GUARDED
             if hasattr(owner, name)]
    for owner, name, _ in saved:
        setattr(owner, name, _refusal(item, '%s.%s' % (
            getattr(owner, '__name__', owner), name)))
    try:
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _guarded(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _guarded(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield from _guarded(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    started = item.stash.get(_STARTED, None)
    item.stash[_STARTED] = []
    if started and report.passed:
        # The code under test swallowed the refusal: the test still fails.
        report.outcome = 'failed'
        report.longrepr = '%s started a process (%s) without ' \
            '@pytest.mark.%s' % (item.nodeid, ', '.join(started),
                                 STARTS_PROCESS)


@pytest.fixture
def heat_db(tmp_path):
    """Heat's database functions on a private SQLite file whose
    transactions all begin with BEGIN IMMEDIATE, as the runner's do."""
    import sqlalchemy
    from heat.db import api as db_api
    from heat.db import models
    from oslo_db.sqlalchemy import enginefacade

    factory = enginefacade._TransactionFactory()
    factory.configure(connection='sqlite:///%s' % (tmp_path / 'h.sqlite'),
                      thread_checkin=False)
    reset = db_api.context_manager.patch_factory(factory)
    engine = factory.get_writer_engine()

    @sqlalchemy.event.listens_for(engine, 'connect')
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None
        dbapi_conn.execute('PRAGMA busy_timeout = 60000')

    # On the class, as the runner's: those run before oslo.db's own BEGIN.
    def _begin(conn):
        if conn.engine is engine and 'in_transaction' not in conn.info:
            conn.exec_driver_sql('BEGIN IMMEDIATE')
            conn.info['in_transaction'] = True

    sqlalchemy.event.listen(sqlalchemy.engine.Engine, 'begin', _begin)
    models.BASE.metadata.create_all(engine)
    yield engine
    sqlalchemy.event.remove(sqlalchemy.engine.Engine, 'begin', _begin)
    reset()
    engine.dispose()


@pytest.fixture
def install_shim():
    """Install engine tuning shims for one test; take them away after.

    ``install_shim(name, **values)`` installs through the guard, so a
    target that no longer matches its fingerprint fails the test; pass
    ``check=False`` to install over a fake put in a target's place.
    """
    from tripleo_ephemeral.engine_tuning import guard

    names = []

    def install(name, check=True, **values):
        patches = guard.install_shim(name, check=check, **values)
        assert patches is not None, '%s stayed off (see the log)' % name
        names.append(name)
        return patches

    yield install
    guard.uninstall(names)
