"""The dumps of a heat dir: written safely, rotated, verified.

A dump is SQL text, gzip-compressed while it streams, written beside the
newest good dump and renamed over it only once complete. Older dumps are
rotated (``heat-db-dump.1.sql.gz`` ...), never overwritten by a partial one.
What made each one is recorded (:mod:`.generations`), and the dumps of the
last successful deploys are kept out of the rotation.

A SQLite database's newest dump also gets its binary image beside it, which
a restore of that dump copies instead of loading the SQL. The SQL stays the
artifact: portable, readable, and the way back whenever the image is not
exactly the database that dump was made from.
"""

import contextlib
import datetime
import gzip
import hashlib
import json
import logging
import os
import shutil
import zlib

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_db import gzip_pipe

LOG = logging.getLogger(__name__)

DUMP_NAME = 'heat-db-dump.sql.gz'
#: How many dumps to keep, the newest included, besides the dumps of the
#: last successful deploys (:data:`generations.SUCCESS_KEEP`).
DUMP_KEEP = 5
SUCCESS_NAME = 'heat-db-dump.success.sql.gz'
#: How to choose a dump, for an error's hint.
RESTORE_HINT = ('"--restore-db <id>" (the ids: "openstack tripleo saved dump '
                'list"; "--restore-db %s" takes the last successful '
                'deploy\'s)' % generations.LAST_SUCCESS)
#: The binary image of the database the newest dump was made from, and
#: the index tying the two together. Dot files: left out of install
#: archives and backups, which carry the dump.
IMAGE_NAME = '.heat-db-image.sqlite'
IMAGE_INDEX = '.heat-db-image.json'
#: A table every Heat schema has; a dump without it is not Heat's.
_MARKER_TABLE = 'stack'


class DumpStore:
    """The dumps of one heat dir: naming, rotation and verification."""

    def __init__(self, heat_dir, keep=DUMP_KEEP,
                 success_keep=generations.SUCCESS_KEEP):
        self.heat_dir = heat_dir
        self.keep = keep
        self.success_keep = success_keep
        self.manifest = generations.Manifest(heat_dir)

    @property
    def latest(self):
        return os.path.join(self.heat_dir, DUMP_NAME)

    def rotated(self, n, latest=DUMP_NAME):
        if n == 0:
            return os.path.join(self.heat_dir, latest)
        base = latest[:-len('.sql.gz')]
        return os.path.join(self.heat_dir, '%s.%d.sql.gz' % (base, n))

    def all(self):
        """Existing dumps of the rotation, newest first."""
        paths = [self.rotated(n) for n in range(self.keep)]
        return [p for p in paths if os.path.exists(p)]

    def successes(self):
        """The kept dumps of successful deploys, newest first."""
        paths = [self.rotated(n, SUCCESS_NAME)
                 for n in range(self.success_keep)]
        return [p for p in paths if os.path.exists(p)]

    @contextlib.contextmanager
    def writer(self):
        """Yield a :class:`~.gzip_pipe.GzipPipe`; on success what it
        wrote becomes the newest dump (its ``hexdigest()`` the dump's)."""
        with fileutil.atomic_open(self.latest + '.new', binary=True) as raw:
            with gzip_pipe.GzipPipe(raw) as out:
                yield out
        moves = self._rotate(DUMP_NAME, self.keep)
        self.drop_image()
        os.replace(self.latest + '.new', self.latest)
        self.manifest.move(moves, {DUMP_NAME: self.manifest.new_record(
            generations.UNKNOWN, None)})

    def _rotate(self, latest, keep):
        """Shift the dumps named after ``latest`` one place older; return
        the renames, for the records."""
        moves = [(os.path.basename(self.rotated(keep - 1, latest)), None)]
        for n in range(keep - 1, 0, -1):
            older = self.rotated(n - 1, latest)
            if os.path.exists(older):
                os.replace(older, self.rotated(n, latest))
                moves.append((os.path.basename(older),
                              os.path.basename(self.rotated(n, latest))))
        return moves

    # -- generations ------------------------------------------------------

    def record_origin(self, path, origin, stacks=None):
        """Say what made the dump at ``path``; a successful deploy's (or an
        adoption's) is also kept apart from the rotation."""
        name = os.path.basename(path)
        values = {'origin': origin}
        if stacks is not None:
            values['stacks'] = stacks
        record = self.manifest.update(name, **values)
        if record is not None and origin in generations.GOOD:
            self._keep_success(path, record)
        return record

    def _keep_success(self, path, record):
        moves = self._rotate(SUCCESS_NAME, self.success_keep)
        kept = self.rotated(0, SUCCESS_NAME)
        fileutil.remove(kept)
        try:
            os.link(path, kept)
        except OSError:
            _copy(path, kept)  # a file system without hard links
        self.manifest.move(moves, {SUCCESS_NAME: dict(record)})

    def generations(self):
        """Every kept dump once (by id), newest first: dicts of id, origin,
        time, stacks, path and ``kept`` (a successful deploy's)."""
        records = self.manifest.load()
        found = {}
        for path in self.all() + self.successes():
            name = os.path.basename(path)
            record = records.get(name) or {
                'id': name, 'origin': generations.UNKNOWN}
            ident = record.get('id') or name
            if ident in found:
                found[ident]['kept'] = True
                continue
            found[ident] = dict(
                record, id=ident, path=path, kept=name.startswith(
                    SUCCESS_NAME[:-len('.sql.gz')]),
                time=record.get('time') or _mtime(path))
        return sorted(found.values(), key=lambda g: g['time'], reverse=True)

    def resolve(self, which=None):
        """The dump ``--restore-db`` names: None, True or ``newest``; the
        last successful deploy's (``last-success``); an id or file name
        from :meth:`generations`."""
        if which in (None, True, generations.NEWEST):
            return self.newest()
        if which == generations.LAST_SUCCESS:
            kept = self.successes()
            if not kept:
                raise exceptions.DumpNotFoundError(
                    'No dump of a successful deploy is kept in %s; choose '
                    'another with %s' % (self.heat_dir, RESTORE_HINT))
            return kept[0]
        for gen in self.generations():
            if which in (gen['id'], os.path.basename(gen['path']),
                         gen['path']):
                return gen['path']
        raise exceptions.DumpNotFoundError(
            'No dump %s in %s; the kept ones are: %s' % (
                which, self.heat_dir, ', '.join(
                    g['id'] for g in self.generations()) or 'none'))

    def save_image(self, image, dump_sha256=None):
        """Keep ``image``: the database the newest dump was made from.

        A restore of that dump writes it out instead of loading the SQL
        (3-4 ms instead of 27 for the 200-member benchmark database).
        It is only a cache: not fsynced, and used only while the index
        written after it matches both the dump's digest (``dump_sha256``,
        as the writer wrote it; None: read from the file) and its own.
        """
        try:
            with fileutil.atomic_open(self._path(IMAGE_NAME), binary=True,
                                      durable=False) as f:
                f.write(image)
        except OSError as exc:
            self._no_image(exc)
            return
        self._index_image(hashlib.sha256(image).hexdigest(), dump_sha256)

    def adopt_image(self, path, image_sha256, dump_sha256=None):
        """Keep the database file at ``path`` (whose SHA-256 is
        ``image_sha256``) as the image of the newest dump: renamed, not
        copied (see :meth:`save_image`): for a database that is removed
        once dumped. Left where it is if it cannot be moved (or hashed:
        ``image_sha256`` None)."""
        if image_sha256 is None:
            self.drop_image()
            return
        try:
            with fileutil.naming(path):
                os.chmod(path, 0o600)
                os.replace(path, self._path(IMAGE_NAME))
        except OSError as exc:
            self._no_image(exc)
            return
        self._index_image(image_sha256, dump_sha256)

    def _index_image(self, image_sha256, dump_sha256):
        """Tie the image to the newest dump: written last."""
        index = {'dump_sha256': dump_sha256 or fileutil.sha256(self.latest),
                 'image_sha256': image_sha256}
        try:
            with fileutil.atomic_open(self._path(IMAGE_INDEX), binary=True,
                                      durable=False) as f:
                f.write(json.dumps(index).encode())
        except OSError as exc:
            self._no_image(exc)

    def _no_image(self, exc):
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
                'with %s, or launch without --restore-db' %
                (path, exc, RESTORE_HINT))
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
                'COMMIT); restore an older one with %s' % (
                    path, RESTORE_HINT))
        return sql


def _mtime(path):
    return datetime.datetime.fromtimestamp(
        os.path.getmtime(path), datetime.timezone.utc).isoformat(
            timespec='seconds')


def _copy(src, dst):
    with open(src, 'rb') as f, fileutil.atomic_open(dst, binary=True) as out:
        shutil.copyfileobj(f, out)
