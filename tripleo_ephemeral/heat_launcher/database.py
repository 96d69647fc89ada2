"""Heat's database: where it lives, and its dumps.

A dump is SQL text, gzip-compressed while it streams, written beside the
newest good dump and renamed over it only once complete. Older dumps are
rotated (``heat-db-dump.1.sql.gz`` ...), never overwritten by a partial one.
"""

import abc
import contextlib
import gzip
import logging
import os
import sqlite3
import zlib

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

DUMP_NAME = 'heat-db-dump.sql.gz'
#: How many dumps to keep, the newest included.
DUMP_KEEP = 5
#: A table every Heat schema has; a dump without it is not Heat's.
_MARKER_TABLE = 'stack'


class DumpStore:
    """The dumps of one heat dir: naming, rotation and verification."""

    def __init__(self, heat_dir, keep=DUMP_KEEP):
        self.heat_dir = heat_dir
        self.keep = keep

    @property
    def latest(self):
        return os.path.join(self.heat_dir, DUMP_NAME)

    def rotated(self, n):
        base = DUMP_NAME[:-len('.sql.gz')]
        return os.path.join(self.heat_dir, '%s.%d.sql.gz' % (base, n))

    def all(self):
        """Existing dumps, newest first."""
        paths = [self.latest] + [self.rotated(n) for n in range(1, self.keep)]
        return [p for p in paths if os.path.exists(p)]

    @contextlib.contextmanager
    def writer(self):
        """Yield a text stream; on success it becomes the newest dump."""
        with fileutil.atomic_open(self.latest + '.new', binary=True) as raw:
            with gzip.GzipFile(fileobj=raw, mode='wb', compresslevel=1,
                               mtime=0) as gz:
                text = _TextSink(gz)
                yield text
        self._rotate()
        os.replace(self.latest + '.new', self.latest)

    def _rotate(self):
        for n in range(self.keep - 1, 0, -1):
            older = self.latest if n == 1 else self.rotated(n - 1)
            if os.path.exists(older):
                os.replace(older, self.rotated(n))

    def newest(self):
        """The newest dump, or DumpNotFoundError naming where it looked."""
        if not os.path.exists(self.latest):
            raise exceptions.DumpNotFoundError(
                'No database dump %s to restore; launch without '
                '--restore-db to start with an empty database' % self.latest)
        return self.latest

    def read_verified(self, path):
        """Return the dump's SQL text after checking it is whole and Heat's.

        gzip's CRC catches truncation and bit rot; the SQL must hold the
        ``stack`` table and end in COMMIT.
        """
        try:
            with gzip.open(path, 'rt', encoding='utf-8') as f:
                sql = f.read()
        except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
            raise exceptions.CorruptDumpError(
                'Database dump %s is corrupt (%s); restore an older one '
                '(%s) or launch without --restore-db' %
                (path, exc, ', '.join(self.all()[1:]) or 'none kept'))
        stripped = sql.rstrip()
        if ('CREATE TABLE %s ' % _MARKER_TABLE not in sql and
                'CREATE TABLE "%s"' % _MARKER_TABLE not in sql and
                'CREATE TABLE `%s`' % _MARKER_TABLE not in sql):
            raise exceptions.CorruptDumpError(
                'Database dump %s holds no Heat schema (no "stack" table); '
                'it is not a Heat database dump' % path)
        if not stripped.endswith('COMMIT;'):
            raise exceptions.CorruptDumpError(
                'Database dump %s is incomplete (it does not end in '
                'COMMIT); restore an older dump' % path)
        return sql


class _TextSink:
    def __init__(self, binary):
        self._binary = binary

    def write(self, text):
        self._binary.write(text.encode('utf-8'))


class Database(abc.ABC):
    """A Heat database a launcher can dump and restore."""

    @property
    @abc.abstractmethod
    def url(self):
        """The SQLAlchemy URL Heat connects with."""

    @abc.abstractmethod
    def dump(self, store):
        """Write a dump into ``store``; return its path."""

    @abc.abstractmethod
    def restore(self, store, path=None):
        """Replace the database with the dump at ``path`` (or the newest)."""

    @abc.abstractmethod
    def has_data(self):
        """True when there is a database to dump."""

    def newer_than(self, dumps):
        """True when the database may hold changes no dump has."""
        return True

    def remove(self):
        """Drop the database so the next start begins empty."""


class SqliteDatabase(Database):
    """Heat's embedded default: one SQLite file in the heat dir."""

    def __init__(self, path):
        self.path = path

    @property
    def url(self):
        return 'sqlite:///%s' % self.path

    def has_data(self):
        return os.path.exists(self.path) and os.path.getsize(self.path) > 0

    def dump(self, store):
        if not self.has_data():
            raise exceptions.DatabaseError(
                'No database %s to dump' % self.path)
        try:
            conn = sqlite3.connect('file:%s?mode=ro' % self.path, uri=True)
        except sqlite3.Error as exc:
            raise exceptions.DatabaseError(
                'Cannot open %s: %s' % (self.path, exc))
        try:
            with store.writer() as out:
                for line in conn.iterdump():
                    out.write(line)
                    out.write('\n')
        except OSError as exc:
            raise exceptions.DatabaseError(
                'Could not write the database dump in %s (%s); the previous '
                'dump %s is kept' % (store.heat_dir, exc.strerror or exc,
                                     store.latest))
        finally:
            conn.close()
        return store.latest

    def restore(self, store, path=None):
        path = path or store.newest()
        sql = store.read_verified(path)
        tmp = self.path + '.restore'
        for leftover in (tmp, tmp + '-journal'):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
        try:
            conn = sqlite3.connect(tmp)
            try:
                conn.executescript(sql)
            finally:
                conn.close()
            os.chmod(tmp, 0o600)
        except (sqlite3.Error, OSError) as exc:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise exceptions.CorruptDumpError(
                'Database dump %s could not be loaded (%s); the current '
                'database is untouched' % (path, exc))
        for stale in (self.path + '-wal', self.path + '-shm',
                      self.path + '-journal'):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(stale)
        os.replace(tmp, self.path)
        LOG.info('Restored the database from %s', path)
        return path

    def newer_than(self, dumps):
        files = [self.path, self.path + '-wal']
        mtime = max(os.path.getmtime(f) for f in files if os.path.exists(f))
        return not dumps or mtime > os.path.getmtime(dumps[0])

    def remove(self):
        for name in (self.path, self.path + '-wal', self.path + '-shm',
                     self.path + '-journal'):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name)
