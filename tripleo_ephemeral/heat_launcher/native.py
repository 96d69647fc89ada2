"""Native Heat: the project's heat-all runner as a local process."""

import logging
import os
import sys
import time

import psutil

from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import ephemeral
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_launcher import logtail
from tripleo_ephemeral.heat_launcher import podman as podman_cli
from tripleo_ephemeral.heat_launcher import scratch_mariadb
from tripleo_ephemeral.heat_db import sqlite_schema
from tripleo_ephemeral.heat_launcher import state as launcher_state

LOG = logging.getLogger(__name__)

#: The runner's copy of a new database once migrated (a dot file: left
#: out of archives and backups).
SCHEMA_SAVE = '.heat-schema-new.sqlite'


class NativeHeatLauncher(ephemeral.EphemeralHeatLauncher):
    """One ``tripleo-heat-all`` process, SQLite in the heat dir."""

    heat_type = 'native'
    spawns_early = True

    def __init__(self, heat_dir, api_port=None, *,
                 images=None, pull=True, podman=None, **kwargs):
        super().__init__(heat_dir, api_port, **kwargs)
        # Only a pod's (MySQL) dump needs podman: a scratch MariaDB reads it.
        self._database = database.SqliteDatabase(
            self.files.path(database.SQLITE_NAME), runner=self.runner,
            mysql_reader=scratch_mariadb.ScratchMariadb(
                podman or podman_cli.Podman(self.runner),
                images or podman_cli.ContainerImages(), self.heat_dir,
                pull=pull))
        self._child = None

    @property
    def database(self):
        return self._database

    @property
    def runner_log(self):
        return self.files.path('log', 'heat-all.out')

    @property
    def schema_save(self):
        """Where the runner copies a new database once migrated, for the
        schema cache (:mod:`~tripleo_ephemeral.heat_db.sqlite_schema`)."""
        return self.files.path(SCHEMA_SAVE)

    def runner_argv(self):
        """The runner's command line; a new database is the cached empty
        schema (seeded here, so that this command names a cache that
        fails its check), else migrated and saved for the cache."""
        argv = [sys.executable, '-m', 'tripleo_ephemeral.runner.heat_all',
                '--config-file', self.files.config_file, '--db-sync']
        fileutil.remove(self.schema_save)
        cache = sqlite_schema.SchemaCache()
        loaded = cache.load()
        if loaded is not None:
            if not os.path.exists(self._database.path):
                cache.seed(self._database.path)
            argv += ['--schema-revisions', ','.join(loaded[0])]
        elif cache.path is not None:
            argv += ['--schema-save', self.schema_save]
        return argv

    def _extra_ready_checks(self, deadline, saved):
        super()._extra_ready_checks(deadline, saved)
        if os.path.exists(self.schema_save):
            sqlite_schema.SchemaCache().store(self.schema_save)
            fileutil.remove(self.schema_save)

    def _launch(self):
        self._child = self.runner.spawn(self.runner_argv(),
                                        log_path=self.runner_log)
        pid = self._child.pid
        try:
            create_time = launcher_state.process_identity(pid)
        except psutil.NoSuchProcess:
            create_time = None
        return {'pid': pid, 'pid_create_time': create_time}

    def _process(self, saved):
        if self._child is not None:
            self._child.poll()  # reap it if it died, so it is not a zombie
        return launcher_state.find_process(
            saved.get('pid'), saved.get('pid_create_time'),
            self.files.config_file)

    def _is_alive(self, saved):
        return self._process(saved) is not None

    def _check_exited(self, saved):
        if self._is_alive(saved):
            return
        code = self._child.poll() if self._child is not None else None
        raise self._exited_error(code)

    def _answers(self, saved):
        # Another program can take the port between the check and the
        # runner's bind (the runner then exits): until this runner
        # listens there, an answer is someone else's.
        proc = self._process(saved)
        if proc is None or not _listens(proc, self.api_port):
            return False
        return super()._answers(saved)

    def _failure_hint(self):
        last = logtail.last_error(self.runner_log,
                                  self.files.path('log', 'heat.log'))
        return '%s; full log in %s' % (last, self.files.log_dir)

    def _terminate(self, saved, timeout):
        proc = self._process(saved)
        if proc is None:
            return
        proc.terminate()
        try:
            self._wait(proc, timeout)
        except psutil.TimeoutExpired:
            self.say('Heat (pid %d) did not stop within %ds; killing it' % (
                proc.pid, timeout))
            proc.kill()
            self._wait(proc, 10)

    def _force_kill(self, saved):
        proc = self._process(saved)
        if proc is not None:
            proc.kill()
            self._wait(proc, 10)

    def _wait(self, proc, timeout):
        """Wait until ``proc`` has exited: reaped if it is our child, else
        gone or a zombie (its parent, init, reaps it when it will)."""
        if self._child is not None and self._child.pid == proc.pid:
            try:
                self._child.wait(timeout)
            except Exception as exc:  # subprocess.TimeoutExpired
                raise psutil.TimeoutExpired(timeout, proc.pid) from exc
            return
        deadline = time.monotonic() + timeout
        while _running(proc):
            if time.monotonic() > deadline:
                raise psutil.TimeoutExpired(timeout, proc.pid)
            time.sleep(0.05)


def _listens(proc, port):
    """Whether ``proc`` listens on TCP ``port``."""
    try:
        return any(c.status == psutil.CONN_LISTEN and c.laddr.port == port
                   for c in proc.net_connections(kind='tcp'))
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def _running(proc):
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
