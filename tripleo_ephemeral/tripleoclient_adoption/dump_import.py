"""A foreign Heat database dump, brought into this Heat's SQLite schema.

The dump is loaded into a scratch database of its own dialect (a scratch
MariaDB for a mysqldump, a SQLite file otherwise), its migration version is
checked and the installed Heat's ``db_sync`` brings it forward
(:mod:`schema_version`); its rows are then copied into a fresh SQLite schema
(:mod:`crossdb`), which is what native Heat runs on and what the heat dir's
dumps are made from. The source file is only read.
"""

import logging
import os
import re
import shutil
import sqlite3

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import crossdb
from tripleo_ephemeral.tripleoclient_adoption import dump_input
from tripleo_ephemeral.tripleoclient_adoption import schema_version
from tripleo_ephemeral.heat_db import sqlite_schema

LOG = logging.getLogger(__name__)

#: The project a token-less ephemeral Heat runs requests as (Heat's
#: noauth middleware defaults X-Auth-Project to it).
EPHEMERAL_PROJECT = 'admin'
#: Columns scoping rows to a project: Heat finds a stack by name, lists
#: software deployments and shows configs only within the caller's.
TENANT_COLUMNS = (('stack', 'tenant'), ('software_config', 'tenant'),
                  ('software_deployment', 'tenant'), ('snapshot', 'tenant'),
                  ('user_creds', 'tenant'), ('user_creds', 'tenant_id'))


class Imported:
    """What :func:`import_dump` found and did."""

    def __init__(self, heat_dump, schema, upgraded_to):
        self.dump = heat_dump
        self.schema = schema
        self.upgraded_to = upgraded_to

    def describe(self):
        info = self.dump.describe()
        info['schema'] = dict(self.schema.describe(),
                              upgraded_to=self.upgraded_to)
        return info


def import_dump(source, dest, scratch_dir, runner, mysql_reader=None):
    """Bring the dump file ``source`` into a new SQLite database ``dest``.

    ``mysql_reader`` (a :class:`scratch_mariadb.ScratchMariadb`) reads
    mysqldumps. Returns :class:`Imported`.
    """
    heat_dump = dump_input.extract(source, scratch_dir)
    if heat_dump.kind == dump_input.MYSQL:
        if mysql_reader is None:
            raise exceptions.DatabaseError(
                'Database dump %s is a mysqldump, which needs a MariaDB '
                'container to read: install podman and build the image '
                '("openstack tripleo heat image build")' % source)
        with mysql_reader.loaded(heat_dump.sql(), source=source) as url:
            _match_collation(url)
            schema, head = _bring_forward(url, source, runner, scratch_dir)
            sqlite_schema.create(dest, runner)
            crossdb.copy_rows(url, 'sqlite:///%s' % dest)
    else:
        loaded = os.path.join(scratch_dir, 'source.sqlite')
        _load_sqlite(heat_dump, loaded, source)
        url = 'sqlite:///%s' % loaded
        schema, head = _bring_forward(url, source, runner, scratch_dir)
        sqlite_schema.create(dest, runner)
        crossdb.copy_rows(url, 'sqlite:///%s' % dest)
    return Imported(heat_dump, schema, head)


def _match_collation(url):
    """Make new tables take the collation the dump's tables have.

    Heat's migrations create tables in the database's default character
    set, and MariaDB refuses a foreign key between columns of two (an
    undercloud's heat tables are utf8mb3, the scratch database utf8mb4).
    """
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            collation = conn.execute(sa.text(
                "SELECT table_collation FROM information_schema.tables "
                "WHERE table_schema = DATABASE() AND table_name = 'stack'")
            ).scalar()
            if collation and re.fullmatch(r'\w+', collation):
                conn.exec_driver_sql('ALTER DATABASE COLLATE %s' % collation)
                LOG.debug('Scratch database collation: %s', collation)
    except sa.exc.SQLAlchemyError as exc:
        raise exceptions.DatabaseError(
            'Cannot match the collation of the Heat tables: %s' % exc)
    finally:
        engine.dispose()


def _bring_forward(url, source, runner, scratch_dir):
    schema = schema_version.detect(url, source)
    LOG.info('%s: %s version %s (%s)', source, schema.system, schema.value,
             schema.release)
    return schema, schema_version.upgrade(url, runner, scratch_dir)


def _load_sqlite(heat_dump, path, source):
    if heat_dump.kind == dump_input.SQLITE_FILE:
        shutil.copyfile(heat_dump.path, path)
        return
    conn = sqlite3.connect(path)
    try:
        conn.execute('PRAGMA journal_mode = OFF')
        conn.executescript(heat_dump.sql())
    except sqlite3.Error as exc:
        raise exceptions.CorruptDumpError(
            'SQLite dump %s could not be loaded: %s' % (source, exc))
    finally:
        conn.close()


def adopt_rows(path, project=EPHEMERAL_PROJECT):
    """Make the copy at ``path`` usable by a token-less Heat.

    Every project column becomes ``project`` (Heat looks stacks up by name
    within the caller's project), and stack locks of the source's engines
    are dropped. Returns the projects found before, sorted.
    """
    conn = sqlite3.connect(path)
    try:
        found = set()
        with conn:
            for table, column in TENANT_COLUMNS:
                found.update(v for (v,) in conn.execute(
                    'SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL' %
                    (column, table, column)))
                conn.execute('UPDATE %s SET %s = ? WHERE %s IS NOT NULL' %
                             (table, column, column), (project,))
            conn.execute('DELETE FROM stack_lock')
    except sqlite3.Error as exc:
        raise exceptions.DatabaseError(
            'Could not rewrite the projects of the adopted database %s: %s'
            % (path, exc))
    finally:
        conn.close()
    return sorted(found)
