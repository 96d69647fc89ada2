"""The dumps of a heat dir: written safely, rotated, verified.

A dump is SQL text, gzip-compressed while it streams, written beside the
newest good dump and renamed over it only once complete. Older dumps are
rotated (``heat-db-dump.1.sql.gz`` ...), never overwritten by a partial one.

A SQLite database's newest dump also gets its binary image beside it, which
a restore of that dump copies instead of loading the SQL. The SQL stays the
artifact: portable, readable, and the way back whenever the image is not
exactly the database that dump was made from.
"""

import contextlib
import gzip
import hashlib
import json
import logging
import os
import queue
import threading
import zlib

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

DUMP_NAME = 'heat-db-dump.sql.gz'
#: How many dumps to keep, the newest included.
DUMP_KEEP = 5
#: The binary image of the database the newest dump was made from, and
#: the index tying the two together. Dot files: left out of install
#: archives and backups, which carry the dump.
IMAGE_NAME = '.heat-db-image.sqlite'
IMAGE_INDEX = '.heat-db-image.json'
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
            with _GzipPipe(raw) as out:
                yield out
        self._rotate()
        self.drop_image()
        os.replace(self.latest + '.new', self.latest)

    def _rotate(self):
        for n in range(self.keep - 1, 0, -1):
            older = self.latest if n == 1 else self.rotated(n - 1)
            if os.path.exists(older):
                os.replace(older, self.rotated(n))

    def save_image(self, image):
        """Keep ``image``: the database the newest dump was made from.

        A restore of that dump writes it out instead of loading the SQL
        (3-4 ms instead of 27 for the 200-member benchmark database).
        It is only a cache: not fsynced, and used only while the index
        written after it matches both the dump's digest and its own.
        """
        index = {'dump_sha256': fileutil.sha256(self.latest),
                 'image_sha256': hashlib.sha256(image).hexdigest()}
        try:
            for name, data in ((IMAGE_NAME, image),
                               (IMAGE_INDEX, json.dumps(index).encode())):
                with fileutil.atomic_open(self._path(name), binary=True,
                                          durable=False) as f:
                    f.write(data)
        except OSError as exc:
            LOG.warning('Could not keep the database image beside the dump '
                        '(%s); restoring will load the SQL dump instead',
                        exc.strerror or exc)
            self.drop_image()

    def image_for(self, path):
        """The image saved with the dump at ``path``, or None."""
        try:
            with open(self._path(IMAGE_INDEX), 'rb') as f:
                index = json.load(f)
            if index['dump_sha256'] != fileutil.sha256(path):
                return None
            with open(self._path(IMAGE_NAME), 'rb') as f:
                image = f.read()
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if hashlib.sha256(image).hexdigest() != index.get('image_sha256'):
            LOG.warning('The database image beside %s is damaged; loading '
                        'the SQL dump instead', path)
            return None
        return image

    def drop_image(self):
        # The index first: never an index naming a half-removed image.
        for name in (IMAGE_INDEX, IMAGE_NAME):
            fileutil.remove(self._path(name))

    def _path(self, name):
        return os.path.join(self.heat_dir, name)

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
        stripped = sql[-64:].rstrip()  # no copy of a dump of megabytes
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


class _GzipPipe:
    """Text in, gzip out: compressed on a second thread while it is read.

    zlib lets go of the GIL while it compresses, so the reading (in SQLite,
    also GIL-free) and the compressing overlap: with the multi-row SQL, the
    200-member benchmark dump takes 22 ms instead of 28. Text goes over in
    256 KiB pieces through a short queue, so memory stays bounded whatever
    the database.
    An error of the writing thread (a full disk) is raised to the caller
    at its next write or at the end.
    """

    SIZE = 256 * 1024
    DEPTH = 4

    def __init__(self, raw):
        self._gz = gzip.GzipFile(fileobj=raw, mode='wb', compresslevel=1,
                                 mtime=0)
        self._parts, self._size = [], 0
        self._queue = queue.Queue(self.DEPTH)
        self._error = None
        self._thread = threading.Thread(target=self._compress,
                                        name='dump-gzip', daemon=True)
        self._thread.start()

    def _compress(self):
        while True:
            data = self._queue.get()
            if data is None:
                return
            if self._error is None:
                try:
                    self._gz.write(data)
                except BaseException as exc:  # raised again by the caller
                    self._error = exc

    def write(self, text):
        self._parts.append(text)
        self._size += len(text)
        if self._size >= self.SIZE:
            self._send()

    def write_bytes(self, data):
        """Already encoded text, passed on as it is."""
        self._send()
        self._queue.put(data)

    def _send(self):
        if self._error is not None:
            raise self._error
        if self._parts:
            self._queue.put(''.join(self._parts).encode('utf-8'))
            self._parts, self._size = [], 0

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                self._send()
        finally:
            self._queue.put(None)
            self._thread.join()
        if exc_type is None:
            if self._error is not None:
                raise self._error
            self._gz.close()
