"""The ``heat`` database out of whatever file a Heat database backup is.

An undercloud keeps its Heat database in several shapes: ``mysqldump heat``
(TripleO's own export), ``mysqldump --all-databases`` (``openstack
undercloud backup --db-only``), gzip'd or inside a tar (the legacy backup,
tripleoclient's ``heat-db.sql-<time>.tar.bzip2``), a SQLite file, or one of
this project's ``heat-db-dump.sql.gz``. The file's bytes decide, never its
name: compressed layers and tars are unpacked into a scratch directory, and
of a dump of several databases only the first ``heat`` section is kept,
with the dump's session settings in front of it. Nothing is read whole
into memory but that section.
"""

import bz2
import gzip
import os
import re
import shutil
import tarfile
import zlib

from tripleo_ephemeral import exceptions

MYSQL = 'mysql'
SQLITE_SQL = 'sqlite-sql'
SQLITE_FILE = 'sqlite-file'

_SQLITE_MAGIC = b'SQLite format 3\x00'
_MARKER = re.compile(rb'^-- Current Database: `([^`]+)`')
_SECTION_NOISE = (b'CREATE DATABASE ', b'USE `')
#: How deep compressed layers and tars may nest (tar.bz2 in a tar...).
_MAX_LAYERS = 4
_CHUNK = 1 << 20


class HeatDump:
    """The heat database of a dump file, as a file in the scratch dir.

    ``kind`` is :data:`MYSQL` or :data:`SQLITE_SQL` (``path`` holds SQL
    text) or :data:`SQLITE_FILE` (``path`` is a SQLite database).
    ``databases`` lists the sections of a multi-database dump, ``layers``
    what was unpacked on the way (``gzip``, ``tar:<member>``...).
    """

    def __init__(self, kind, path, databases=(), layers=()):
        self.kind = kind
        self.path = path
        self.databases = list(databases)
        self.layers = list(layers)

    def sql(self):
        with open(self.path, encoding='utf-8', errors='surrogateescape') as f:
            return f.read()

    def describe(self):
        """For the adoption record: what was found in the file."""
        info = {'format': self.kind, 'layers': self.layers}
        if self.databases:
            info['databases'] = self.databases
            info['database_section'] = 'heat'
        return info


def sniff(head):
    """What the first bytes of a file say it is."""
    if head.startswith(b'\x1f\x8b'):
        return 'gzip'
    if head.startswith(b'BZh'):
        return 'bzip2'
    if head.startswith(_SQLITE_MAGIC):
        return 'sqlite'
    if len(head) >= 262 and head[257:262] == b'ustar':
        return 'tar'
    return 'text'


def extract(source, scratch_dir):
    """Return the :class:`HeatDump` of the file ``source``.

    ``scratch_dir`` (private, the caller removes it) receives the unpacked
    layers and the heat section.
    """
    if not os.path.isfile(source):
        raise exceptions.DumpNotFoundError(
            'Database dump %s not found: check --heat-db-dump' % source)
    current, layers = source, []
    for depth in range(_MAX_LAYERS + 1):
        try:
            with open(current, 'rb') as f:
                head = f.read(1024)
        except OSError as exc:
            raise exceptions.DumpNotFoundError(
                'Database dump %s cannot be read: %s' % (source,
                                                         exc.strerror))
        kind = sniff(head)
        if kind == 'sqlite':
            return HeatDump(SQLITE_FILE, current, layers=layers)
        if kind == 'text':
            return _text(source, current, head, scratch_dir, layers)
        if depth == _MAX_LAYERS:
            break
        out = os.path.join(scratch_dir, 'layer-%d' % depth)
        if kind == 'tar':
            member = _tar_member(source, current, out)
            layers.append('tar:%s' % member)
        else:
            _decompress(source, current, kind, out)
            layers.append(kind)
        current = out
    raise exceptions.CorruptDumpError(
        'Database dump %s nests more than %d archives: unpack it and pass '
        'the SQL file' % (source, _MAX_LAYERS))


def _decompress(source, path, kind, out):
    opener = gzip.open if kind == 'gzip' else bz2.open
    try:
        with opener(path, 'rb') as src, open(out, 'wb') as dst:
            shutil.copyfileobj(src, dst, _CHUNK)
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        raise exceptions.CorruptDumpError(
            'Database dump %s is a damaged %s file (%s): take the backup '
            'again' % (source, kind, exc))


def _pick_member(names):
    """The member holding the heat database, by the names backups use."""
    files = [n for n in names if not n.endswith('/')]
    base = {n: os.path.basename(n) for n in files}
    for test in (lambda b: b == 'heat-db.sql',
                 lambda b: b.startswith('all-databases') and
                 b.endswith(('.sql', '.sql.gz')),
                 lambda b: b.startswith('heat') and
                 b.endswith(('.sql', '.sql.gz', '.sqlite'))):
        found = [n for n in files if test(base[n])]
        if len(found) == 1:
            return found[0]
    suffixes = ('.sql', '.sql.gz', '.sql.bz2')
    dumps = [n for n in files if base[n].endswith(suffixes)]
    return dumps[0] if len(dumps) == 1 else None


def _tar_member(source, path, out):
    try:
        with tarfile.open(path, 'r:*') as tar:
            members = {m.name: m for m in tar.getmembers() if m.isfile()}
            name = _pick_member(sorted(members))
            if name is None:
                raise exceptions.CorruptDumpError(
                    'Archive %s holds no single Heat database dump (members: '
                    '%s): extract the right one and pass it' % (
                        source, ', '.join(sorted(members)) or 'none'))
            with tar.extractfile(members[name]) as src, \
                    open(out, 'wb') as dst:
                shutil.copyfileobj(src, dst, _CHUNK)
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise exceptions.CorruptDumpError(
            'Archive %s cannot be read (%s): take the backup again' %
            (source, exc))
    return name


def dialect(head):
    """``mysql`` or ``sqlite-sql`` from the first bytes of a SQL dump."""
    if (b'-- MariaDB dump' in head or b'-- MySQL dump' in head or
            b'/*!40101' in head or b'/*M!' in head):
        return MYSQL
    if head.lstrip().startswith((b'PRAGMA', b'BEGIN TRANSACTION')):
        return SQLITE_SQL
    return None


def _text(source, path, head, scratch_dir, layers):
    kind = dialect(head)
    if kind is None:
        raise exceptions.CorruptDumpError(
            'Database dump %s is neither a mysqldump, a SQLite dump nor a '
            'SQLite database: pass the heat database\'s backup' % source)
    out = os.path.join(scratch_dir, 'heat.sql')
    databases, last = _cut_heat_section(path, out)
    if databases and 'heat' not in databases:
        raise exceptions.CorruptDumpError(
            'Database dump %s holds the databases %s but no "heat": pass '
            'the undercloud\'s dump that has it' % (source,
                                                    ', '.join(databases)))
    if kind == MYSQL and not (last.startswith(b'-- Dump completed') or
                              last == b'COMMIT;'):
        raise exceptions.CorruptDumpError(
            'Database dump %s does not end with mysqldump\'s "-- Dump '
            'completed" line: it is truncated; take the dump again' % source)
    if kind == SQLITE_SQL and last != b'COMMIT;':
        raise exceptions.CorruptDumpError(
            'SQLite dump %s does not end in COMMIT: it is truncated; take '
            'the dump again' % source)
    _check_heat_schema(source, out)
    return HeatDump(kind, out, databases=databases, layers=layers)


def _cut_heat_section(path, out):
    """Copy the dump, or its header and first heat section, to ``out``.

    Returns (the database names of the section markers, the last
    non-blank line of the whole file).
    """
    databases, section, last = [], None, b''
    with open(path, 'rb') as src, open(out, 'wb') as dst:
        for line in src:
            stripped = line.strip()
            if stripped:
                last = stripped
            match = _MARKER.match(line)
            if match:
                name = match.group(1).decode('utf-8', 'replace')
                # Only the first heat section: a dump with routines
                # repeats every marker at its end, with nothing under it.
                section = ('heat' if name == 'heat' and
                           name not in databases else 'other')
                if name not in databases:
                    databases.append(name)
                continue
            if section is None:
                dst.write(line)       # the header: session settings
            elif section == 'heat' and not stripped.startswith(
                    _SECTION_NOISE):
                dst.write(line)
    return databases, last


def _check_heat_schema(source, path):
    with open(path, 'rb') as f:
        for line in f:
            if line.startswith(b'CREATE TABLE') and re.match(
                    rb'CREATE TABLE (IF NOT EXISTS )?[`"]?stack[`"]? ', line):
                return
    raise exceptions.CorruptDumpError(
        'Database dump %s holds no Heat schema (no "stack" table): it is '
        'not a dump of Heat\'s database' % source)
