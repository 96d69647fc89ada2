"""An empty, freshly migrated Heat schema in a SQLite file.

The native runner starts from one kept per Heat version in the user's
cache (copying it is faster than running every migration); a
cross-dialect restore copies rows into one. Without the cache, the
runner (or ``heat-manage db_sync``, against a scratch heat.conf that
names only the database) makes it, and it is kept for next time.

The cache's entry (``heat-<version>-schema.sealed``) is the schema's
alembic revisions and its SQLite image, sealed with the user's cache key
(:mod:`tripleo_ephemeral.usercache`): a truncated or damaged one, or one
another user planted, fails its check, is named once and dropped, and
the migrations run as without it; a cache that cannot be written only
makes the next start slower.
"""

import contextlib
import json
import logging
import os
import sqlite3
import sys

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral import usercache

LOG = logging.getLogger(__name__)

#: The cache entry of a Heat version's schema.
CACHE_NAME = 'heat-%s-schema.sealed'
#: The unsealed file earlier versions kept: removed unread.
_LEGACY_NAME = 'heat-%s-schema.sqlite'


def heat_version():
    from importlib import metadata
    try:
        return metadata.version('openstack-heat')
    except metadata.PackageNotFoundError:
        return 'unknown'


def revisions(path):
    """The alembic revisions the SQLite file ``path`` is at; () when
    unknown."""
    try:
        conn = sqlite3.connect('file:%s?mode=ro' % path, uri=True)
        try:
            return tuple(row[0] for row in conn.execute(
                'SELECT version_num FROM alembic_version ORDER BY 1'))
        finally:
            conn.close()
    except sqlite3.Error:
        return ()


class SchemaCache:
    """The cached empty schema of this Heat version (in ``cache``, a
    :class:`~tripleo_ephemeral.usercache.UserCache`; default: the
    user's)."""

    def __init__(self, cache=None, version=None):
        self.cache = cache or usercache.cache()
        self.name = CACHE_NAME % (version or heat_version())
        self.path = self.cache.path(self.name)
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.cache.path(_LEGACY_NAME % (
                    version or heat_version())))

    def load(self):
        """``(revisions, image)`` of the cached schema; None when there is
        none (or it failed its check: then it is gone, named once)."""
        if self.path is None:
            return None
        data = self.cache.read(self.path, self.name)
        if data is None:
            return None
        head, _, image = data.partition(b'\n')
        try:
            found = tuple(json.loads(head.decode())['revisions'])
        except (ValueError, KeyError, TypeError):
            found = ()
        if not found or not image.startswith(b'SQLite format 3\0'):
            self.cache.drop(self.path)
            return None
        return found, image

    def seed(self, dest):
        """Write the cached schema to ``dest`` (0600); return its
        revisions, or None when the cache has none."""
        loaded = self.load()
        if loaded is None:
            return None
        with fileutil.atomic_open(dest, binary=True, durable=False) as f:
            f.write(loaded[1])
        return loaded[0]

    def store(self, source):
        """Keep the freshly migrated, empty schema ``source`` (a SQLite
        file); a cache that cannot take it is named once."""
        if self.path is None:
            return False
        found = revisions(source)
        try:
            with open(source, 'rb') as f:
                image = f.read()
        except OSError:
            return False
        if not found:
            return False
        head = json.dumps({'revisions': list(found)}).encode()
        return self.cache.write(self.path, self.name, head + b'\n' + image)


def heat_manage():
    """``heat-manage`` of the Python running this code."""
    return os.path.join(os.path.dirname(sys.executable), 'heat-manage')


def create(path, runner):
    """Write an empty Heat schema to ``path`` (which must not exist)."""
    cache = SchemaCache()
    if cache.seed(path) is not None:
        os.chmod(path, 0o600)
        return path
    conf = path + '.heat.conf'
    fileutil.write_atomic(conf, '[database]\nconnection = sqlite:///%s\n'
                          % path)
    LOG.info('Creating the Heat schema in %s', path)
    try:
        runner.run([heat_manage(), '--config-file', conf, 'db_sync'])
    except exceptions.CommandFailedError as exc:
        raise exceptions.DatabaseError(
            'Could not create the Heat schema in %s: %s' % (path, exc))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(conf)
    os.chmod(path, 0o600)
    cache.store(path)
    return path
