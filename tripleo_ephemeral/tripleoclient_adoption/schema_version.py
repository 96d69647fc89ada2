"""Which Heat release made a database, and bringing it to this Heat's.

Heat 21 (2023.2) moved its migrations from sqlalchemy-migrate to alembic.
Heat's own ``db_sync`` brings forward an alembic database of any earlier
revision, and a legacy one by *stamping* alembic's initial revision: that
is right only for a legacy database at sqlalchemy-migrate version 86, the
last one (Heat 11, Rocky, to Heat 20, 2023.1: Train and Wallaby included),
whose schema is alembic's initial revision. Heat stamps any version
without looking, so the check is made here, before ``db_sync`` runs.
"""

import contextlib
import importlib.util
import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import sqlite_schema

LOG = logging.getLogger(__name__)

#: sqlalchemy-migrate's last version, shared by Heat 11 to 20.
LEGACY_LAST = 86
LEGACY_RELEASES = 'Heat 11 (Rocky) to 20 (2023.1)'
#: Alembic's first revision in Heat: what a version-86 database is.
ALEMBIC_INIT = 'c6214ca60943'
#: Where the alembic revisions of released Heats stand.
RELEASES = {
    ALEMBIC_INIT: 'Heat 21 (2023.2) to 25 (2025.2)',
    'd2db381e3324': 'a Heat 26 (2026.1) pre-release',
    '88be64598c0f': 'a Heat 26 (2026.1) pre-release',
    '97b2a986f922': 'Heat 26 (2026.1) or later',
}


class SchemaVersion:
    """What a database's migration tables say."""

    def __init__(self, system, value, release):
        self.system = system        # 'alembic' or 'sqlalchemy-migrate'
        self.value = value
        self.release = release

    def describe(self):
        return {'system': self.system, 'version': self.value,
                'release': self.release}


def installed_heat():
    """(version, path of its alembic scripts) of the Heat installed here."""
    from importlib import metadata
    try:
        version = metadata.version('openstack-heat')
    except metadata.PackageNotFoundError:
        version = 'unknown'
    spec = importlib.util.find_spec('heat')
    if spec is None or not spec.submodule_search_locations:
        raise exceptions.DatabaseError(
            'Heat is not installed with this tripleo-ephemeral: install '
            'openstack-heat into its environment')
    path = os.path.join(list(spec.submodule_search_locations)[0], 'db',
                        'migrations')
    return version, path


def known_revisions():
    """(heads, every revision) of the installed Heat's alembic scripts."""
    from alembic import script

    _version, path = installed_heat()
    scripts = script.ScriptDirectory(path)
    return (set(scripts.get_heads()),
            {rev.revision for rev in scripts.walk_revisions()})


def read(url):
    """The migration tables of the database at ``url``:
    ``(alembic revision or None, legacy version or None, has stack)``."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        tables = set(sa.inspect(engine).get_table_names())
        revision = legacy = None
        with engine.connect() as conn:
            if 'alembic_version' in tables:
                revision = conn.execute(sa.text(
                    'SELECT version_num FROM alembic_version')).scalar()
            if 'migrate_version' in tables:
                legacy = conn.execute(sa.text(
                    'SELECT version FROM migrate_version')).scalar()
        return revision, legacy, 'stack' in tables
    except sa.exc.SQLAlchemyError as exc:
        raise exceptions.DatabaseError(
            'Cannot read the migration version of the Heat database: %s' %
            exc)
    finally:
        engine.dispose()


def detect(url, source):
    """The :class:`SchemaVersion` of ``url``, or a one-line refusal.

    ``source`` names the dump in the messages.
    """
    revision, legacy, has_stack = read(url)
    version, _path = installed_heat()
    if revision:
        heads, revisions = known_revisions()
        if revision not in revisions:
            raise exceptions.DatabaseError(
                'The Heat database in %s is at alembic revision %s, which '
                'Heat %s does not know (made by a newer Heat?): adopt it '
                'with a tripleo-ephemeral that runs that Heat release' %
                (source, revision, version))
        return SchemaVersion('alembic', revision, RELEASES.get(
            revision, 'Heat %s' % version if revision in heads else
            'a Heat older than %s' % version))
    if legacy is not None:
        legacy = int(legacy)
        if legacy == LEGACY_LAST:
            return SchemaVersion('sqlalchemy-migrate', legacy,
                                 LEGACY_RELEASES)
        if legacy < LEGACY_LAST:
            raise exceptions.DatabaseError(
                'The Heat database in %s is at sqlalchemy-migrate version '
                '%d, from a Heat older than 11 (Rocky), whose last version '
                'is %d: upgrade it with "heat-manage db_sync" of a Heat from '
                'Rocky to 2023.1 first' % (source, legacy, LEGACY_LAST))
        raise exceptions.DatabaseError(
            'The Heat database in %s is at sqlalchemy-migrate version %d, '
            'which no Heat release has (the last is %d): it was not made '
            'by Heat\'s own migrations' % (source, legacy, LEGACY_LAST))
    if has_stack:
        raise exceptions.DatabaseError(
            'The Heat database in %s has no migration version table: it '
            'was not made by "heat-manage db_sync"; pass a dump of a '
            'database Heat created' % source)
    raise exceptions.DatabaseError(
        'The database in %s is not a Heat database (no "stack" table): pass '
        'a dump of the undercloud\'s "heat" database' % source)


def upgrade(url, runner, scratch_dir):
    """Run the installed Heat's ``db_sync`` on ``url``; return the head.

    A legacy (version 86) database is stamped with alembic's initial
    revision first, by Heat itself.
    """
    conf = os.path.join(scratch_dir, 'db-sync.heat.conf')
    fileutil.write_atomic(conf, '[database]\nconnection = %s\n' % url)
    try:
        runner.run([sqlite_schema.heat_manage(), '--config-file', conf,
                    'db_sync'])
    except exceptions.CommandFailedError as exc:
        raise exceptions.DatabaseError(
            'Heat\'s migrations failed on the adopted database: %s' % exc)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(conf)
    revision, _legacy, _stack = read(url)
    heads, _all = known_revisions()
    if revision not in heads:
        raise exceptions.DatabaseError(
            'Heat\'s migrations left the adopted database at %s, not at '
            'the head %s' % (revision, ', '.join(sorted(heads))))
    LOG.info('Heat database migrated to %s', revision)
    return revision
