"""The Heat pod's MariaDB, a :class:`~.database.Database` administered
through ``podman exec``; it restores a pod's MySQL dump and, once Heat's
schema is there, a SQLite one (:meth:`MysqlDatabase.load`).
"""

import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import database as database_mod

LOG = logging.getLogger(__name__)


class MysqlDatabase(database_mod.Database):
    """MariaDB in a container of the Heat pod, reached on 127.0.0.1.

    Administration runs as the container's root over its unix socket
    (``podman exec``), SQL always on stdin; Heat's password lives only in
    the 0600 client file the URL names (PyMySQL's ``read_default_file``).
    A restore is staged before the pod runs and loaded by :meth:`load`
    once MariaDB answers.
    """

    NAME = 'heat'
    USER = 'heat'

    def __init__(self, podman, container, port, client_file, scratch_dir):
        self.podman = podman
        self.container = container
        self.port = port
        self.client_file = client_file
        self.scratch_dir = scratch_dir
        self.pending = None

    @property
    def url(self):
        return ('mysql+pymysql://%s@127.0.0.1:%d/%s?read_default_file=%s'
                '&charset=utf8mb4' % (self.USER, self.port, self.NAME,
                                      self.client_file))

    def _sql(self, sql, database=None, check=True):
        argv = ['mariadb', '--batch', '--skip-column-names']
        if database:
            argv.append(database)
        return self.podman.exec(self.container, argv, input=sql.encode(),
                                check=check)

    def ping(self):
        """True once the server answers on its socket."""
        result = self.podman.exec(self.container,
                                  ['mariadb-admin', '--silent', 'ping'],
                                  check=False)
        return result.returncode == 0

    def create(self, password):
        """Create the database and Heat's user (idempotent)."""
        statements = ['CREATE DATABASE IF NOT EXISTS `%s` CHARACTER SET '
                      'utf8mb4;' % self.NAME]
        for host in ('127.0.0.1', 'localhost'):
            statements += [
                "CREATE USER IF NOT EXISTS '%s'@'%s' IDENTIFIED BY '%s';" %
                (self.USER, host, password),
                "ALTER USER '%s'@'%s' IDENTIFIED BY '%s';" %
                (self.USER, host, password),
                "GRANT ALL ON `%s`.* TO '%s'@'%s';" %
                (self.NAME, self.USER, host)]
        try:
            self._sql('\n'.join(statements))
        except exceptions.CommandFailedError as exc:
            raise exceptions.DatabaseError(
                'Cannot create the Heat database in %s: %s' %
                (self.container, exc))

    def execute_script(self, sql):
        """Run ``sql`` (a dump, say) in Heat's database, on stdin."""
        self._sql(sql, database=self.NAME)

    def has_data(self):
        try:
            result = self._sql(
                "SELECT COUNT(*) FROM information_schema.tables WHERE "
                "table_schema = '%s' AND table_name = 'stack';" % self.NAME,
                check=False)
        except exceptions.CommandFailedError:
            return False
        return result.returncode == 0 and result.stdout.strip() == b'1'

    def stack_count(self):
        try:
            result = self._sql(database_mod.ROOT_STACKS + ';',
                               database=self.NAME, check=False)
            return int(result.stdout.strip()) if result.returncode == 0 \
                else None
        except (exceptions.CommandFailedError, ValueError):
            return None

    def dump(self, store, consume=False):
        if not self.has_data():
            raise exceptions.DatabaseError(
                'No Heat database in %s to dump' % self.container)
        raw = os.path.join(self.scratch_dir, '.heat-db-dump.sql.raw')
        try:
            fd = os.open(raw, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, 'wb') as out:
                self.podman.exec(self.container, [
                    'mariadb-dump', '--single-transaction', '--quick',
                    '--skip-lock-tables', '--skip-dump-date', self.NAME],
                    stdout=out)
            with open(raw, 'rb') as src, store.writer() as out:
                for chunk in iter(lambda: src.read(1 << 20), b''):
                    out.write_bytes(chunk)
                # The completion mark read_verified() checks for.
                out.write('\nCOMMIT;\n')
        except (OSError, exceptions.CommandFailedError) as exc:
            raise exceptions.DatabaseError(
                'Could not dump the Heat database (%s); the previous dump '
                '%s is kept' % (exc, store.latest))
        finally:
            fileutil.remove(raw)
        return store.latest

    def restore(self, store, path=None):
        """Verify the dump now; :meth:`load` puts it in the new server."""
        from tripleo_ephemeral.heat_db import crossdb

        path = path or store.newest()
        sql = store.read_verified(path)
        self.pending = (path, crossdb.dump_dialect(sql), sql)
        return path

    def load(self, schema_ready):
        """Load a staged restore; return True when one was loaded.

        A MySQL dump loads before ``db_sync`` (``schema_ready`` False); a
        SQLite one needs the schema and loads after it.
        """
        from tripleo_ephemeral.heat_db import crossdb

        if self.pending is None:
            return False
        path, dialect, sql = self.pending
        if dialect == crossdb.MYSQL and not schema_ready:
            try:
                self.execute_script(sql)
            except exceptions.CommandFailedError as exc:
                raise exceptions.CorruptDumpError(
                    'Database dump %s could not be loaded: %s' % (path, exc))
        elif dialect == crossdb.SQLITE and schema_ready:
            with crossdb.sqlite_scratch(sql, self.scratch_dir) as source:
                crossdb.copy_rows(source, self.url)
        else:
            return False
        self.pending = None
        LOG.info('Restored the database from %s (%s dump)', path, dialect)
        return True
