"""An empty, freshly migrated Heat schema in a SQLite file.

The native runner keeps one per Heat version in a cache (copying it is
faster than running every migration); a cross-dialect restore copies rows
into one. Without the cache, ``heat-manage db_sync`` makes it against a
scratch heat.conf that names only the database.
"""

import contextlib
import logging
import os
import shutil
import sys

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)


def schema_cache_path():
    """A freshly migrated empty SQLite schema, per Heat version."""
    from importlib import metadata
    try:
        version = metadata.version('openstack-heat')
    except metadata.PackageNotFoundError:
        version = 'unknown'
    return fileutil.user_cache_dir('heat-%s-schema.sqlite' % version)


def heat_manage():
    """``heat-manage`` of the Python running this code."""
    return os.path.join(os.path.dirname(sys.executable), 'heat-manage')


def create(path, runner):
    """Write an empty Heat schema to ``path`` (which must not exist)."""
    cache = schema_cache_path()
    if os.path.exists(cache):
        shutil.copyfile(cache, path)
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
    return path
