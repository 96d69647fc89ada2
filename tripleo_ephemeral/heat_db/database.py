"""Heat's database: where it lives, how it is dumped and restored.

:class:`SqliteDatabase` (native and container Heat) and
:class:`~tripleo_ephemeral.heat_db.mysql_database.MysqlDatabase` (the pod's
MariaDB), both a :class:`Database`, write their dumps into a
:class:`~tripleo_ephemeral.heat_db.dumps.DumpStore` and restore from
it; a pod's dump restores into SQLite through a scratch MariaDB.
"""

import abc
import logging
import os
import sqlite3
import tempfile
import threading

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import sqlite_dump

LOG = logging.getLogger(__name__)

#: The live SQLite database of a native or container Heat, in the heat dir.
SQLITE_NAME = 'heat.sqlite'
#: The stacks a user made (nested ones are their parts).
ROOT_STACKS = 'SELECT COUNT(*) FROM stack WHERE owner_id IS NULL'


class Database(abc.ABC):
    """A Heat database a launcher can dump and restore."""

    @property
    @abc.abstractmethod
    def url(self):
        """The SQLAlchemy URL Heat connects with."""

    @abc.abstractmethod
    def dump(self, store, consume=False):
        """Write a dump into ``store``; return its path. ``consume``: the
        database is removed right after (:meth:`remove`), so the dump may
        take its files."""

    @abc.abstractmethod
    def restore(self, store, path=None):
        """Replace the database with the dump at ``path`` (or the newest)."""

    @abc.abstractmethod
    def has_data(self):
        """True when there is a database to dump."""

    def newer_than(self, dumps):
        """True when the database may hold changes no dump has."""
        return True

    def stack_count(self):
        """How many root stacks (deleted ones too) the database holds; None
        when it cannot tell."""
        return None

    def remove(self):
        """Drop the database so the next start begins empty."""


def _image(conn, scratch_dir):
    """The bytes of ``conn``'s database as its open transaction sees it.

    ``Connection.serialize`` is Python 3.11's; on 3.10 the backup API
    copies the same snapshot, page by page, into a file in
    ``scratch_dir`` (SQLite documents serialize as exactly what such a
    backup writes), which is read back and removed.
    """
    if hasattr(conn, 'serialize'):
        return conn.serialize()
    fd, path = tempfile.mkstemp(dir=scratch_dir, prefix='.image.',
                                suffix='.tmp')
    os.close(fd)
    try:
        copy = sqlite3.connect(path)
        try:
            conn.backup(copy)
        finally:
            copy.close()
        with open(path, 'rb') as f:
            return f.read()
    finally:
        fileutil.remove(path)


class _Digest:
    """The SHA-256 of the file at ``path``, read on a thread of its own
    (hashlib lets go of the GIL); :meth:`result` is None if it could not
    be read."""

    def __init__(self, path):
        self._path = path
        self._result = None
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name='dump-image-digest')
        self._thread.start()

    def _run(self):
        try:
            self._result = fileutil.sha256(self._path)
        except OSError as exc:
            LOG.warning('Could not read %s to keep it as the dump\'s image '
                        '(%s)', self._path, exc.strerror or exc)

    def result(self):
        self._thread.join()
        return self._result


class SqliteDatabase(Database):
    """Heat's embedded default: one SQLite file in the heat dir.

    It restores SQLite dumps directly, and a pod's MySQL dump through
    ``mysql_reader`` (a :class:`scratch_mariadb.ScratchMariadb`): its rows
    are copied into an empty schema that ``runner`` makes.
    """

    def __init__(self, path, mysql_reader=None, runner=None):
        self.path = path
        self.mysql_reader = mysql_reader
        self.runner = runner

    @property
    def url(self):
        return 'sqlite:///%s' % self.path

    def has_data(self):
        return os.path.exists(self.path) and os.path.getsize(self.path) > 0

    def stack_count(self):
        if not self.has_data():
            return 0
        try:
            conn = sqlite3.connect('file:%s?mode=ro' % self.path, uri=True)
            try:
                return conn.execute(ROOT_STACKS).fetchone()[0]
            finally:
                conn.close()
        except sqlite3.Error:
            return None

    def dump(self, store, consume=False):
        """Dump into ``store``, keeping the database's image beside the
        dump (:meth:`~.dumps.DumpStore.save_image`): with ``consume``, its
        very file, renamed once the dump is written and hashed meanwhile,
        instead of a copy (THT 3+500's is 1 GB)."""
        if not self.has_data():
            raise exceptions.DatabaseError(
                'No database %s to dump' % self.path)
        whole = consume and self._self_contained()
        try:
            conn = sqlite3.connect('file:%s?mode=ro' % self.path, uri=True)
        except sqlite3.Error as exc:
            raise exceptions.DatabaseError(
                'Cannot open %s: %s' % (self.path, exc))
        digest = _Digest(self.path) if whole else None
        try:
            conn.execute('BEGIN')   # one snapshot for the SQL and the image
            image = None if whole else _image(conn,
                                              os.path.dirname(self.path))
            with store.writer() as out:
                for statement in sqlite_dump.statements(conn):
                    out.write_bytes(statement)
                    out.write_bytes(b'\n')
        except OSError as exc:
            raise exceptions.DatabaseError(
                'Could not write the database dump in %s (%s); the previous '
                'dump %s is kept' % (store.heat_dir, exc.strerror or exc,
                                     store.latest))
        finally:
            conn.close()
        if whole:
            store.adopt_image(self.path, digest.result(), out.hexdigest())
        else:
            store.save_image(image, out.hexdigest())
        return store.latest

    def _self_contained(self):
        """Fold the write-ahead log (Heat's journal) into the file, so that
        the file alone is the database; False if that cannot be done."""
        try:
            conn = sqlite3.connect(self.path)
            try:
                mode = conn.execute('PRAGMA journal_mode = DELETE').fetchone()
            finally:
                conn.close()
        except sqlite3.Error as exc:
            LOG.debug('Not moving %s into the dump\'s image: %s', self.path,
                      exc)
            return False
        return mode is not None and str(mode[0]).lower() == 'delete' and \
            not os.path.exists(self.path + '-wal')

    def restore(self, store, path=None):
        from tripleo_ephemeral.heat_db import crossdb

        path = path or store.newest()
        image = store.image_for(path)
        sql = None if image else store.read_verified(path)
        tmp = self.path + '.restore'
        for leftover in (tmp, tmp + '-journal'):
            fileutil.remove(leftover)
        try:
            if image:
                self._write_image(image, tmp)
            elif crossdb.dump_dialect(sql) == crossdb.MYSQL:
                self._load_mysql_dump(sql, path, tmp)
            else:
                self._load_sqlite_dump(sql, tmp)
            os.chmod(tmp, 0o600)
        except (sqlite3.Error, OSError) as exc:
            fileutil.remove(tmp)
            raise exceptions.CorruptDumpError(
                'Database dump %s could not be loaded (%s); the current '
                'database is untouched' % (path, exc))
        except exceptions.TripleoEphemeralError as exc:
            fileutil.remove(tmp)
            raise type(exc)('%s; the current database %s is untouched' %
                            (exc, self.path)) from exc
        for stale in (self.path + '-wal', self.path + '-shm',
                      self.path + '-journal'):
            fileutil.remove(stale)
        os.replace(tmp, self.path)
        LOG.info('Restored the database from %s%s', path,
                 ' (its saved image)' if image else '')
        return path

    @staticmethod
    def _write_image(image, tmp):
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, 'wb') as f:
            f.write(image)

    @staticmethod
    def _load_sqlite_dump(sql, tmp):
        conn = sqlite3.connect(tmp)
        try:
            # A scratch file renamed into place only when whole: no
            # journal or fsync needed while loading it.
            conn.execute('PRAGMA journal_mode = OFF')
            conn.execute('PRAGMA synchronous = OFF')
            conn.executescript(sql)
        finally:
            conn.close()

    def _load_mysql_dump(self, sql, path, tmp):
        """A pod's dump: through a scratch MariaDB into an empty schema."""
        from tripleo_ephemeral.heat_db import crossdb
        from tripleo_ephemeral.heat_db import sqlite_schema

        if self.mysql_reader is None or self.runner is None:
            raise exceptions.DatabaseError(
                'Database dump %s comes from MySQL (a pod) and nothing here '
                'can read it; restore it with --heat-type pod' % path)
        sqlite_schema.create(tmp, self.runner)
        with self.mysql_reader.loaded(sql, source=path) as source_url:
            copied = crossdb.copy_rows(source_url, 'sqlite:///%s' % tmp)
        LOG.info('Copied %d rows of the MySQL dump %s into SQLite',
                 copied, path)

    def newer_than(self, dumps):
        files = [self.path, self.path + '-wal']
        mtime = max(os.path.getmtime(f) for f in files if os.path.exists(f))
        return not dumps or mtime > os.path.getmtime(dumps[0])

    def remove(self):
        for name in (self.path, self.path + '-wal', self.path + '-shm',
                     self.path + '-journal'):
            fileutil.remove(name)
