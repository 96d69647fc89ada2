"""Move a Heat database between dialects (SQLite <-> MySQL).

A dump is loaded into a scratch database of its own dialect; the rows are
then copied table by table into a target whose schema ``db_sync`` made.
"""

import contextlib
import logging
import os
import sqlite3

from tripleo_ephemeral import exceptions

LOG = logging.getLogger(__name__)

SQLITE = 'sqlite'
MYSQL = 'mysql'
#: Alembic's own table: the target's db_sync already set it.
_SKIP = ('alembic_version', 'migrate_version')


def dump_dialect(sql):
    """Which database wrote the dump: ``sqlite`` or ``mysql``."""
    head = sql[:2048]
    if head.startswith(('-- MariaDB dump', '-- MySQL dump')) or \
            '/*!40101' in head:
        return MYSQL
    return SQLITE


@contextlib.contextmanager
def sqlite_scratch(sql, directory):
    """A temporary SQLite file loaded with ``sql``; yields its URL."""
    path = os.path.join(directory, '.scratch-restore.sqlite')
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    try:
        conn = sqlite3.connect(path)
        try:
            conn.executescript(sql)
        finally:
            conn.close()
        yield 'sqlite:///%s' % path
    except sqlite3.Error as exc:
        raise exceptions.CorruptDumpError(
            'The SQLite dump could not be loaded: %s' % exc)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def copy_rows(source_url, target_url, batch=500):
    """Replace the target's rows with the source's, table by table."""
    import sqlalchemy as sa  # only a cross-database restore needs it

    source = sa.create_engine(source_url)
    target = sa.create_engine(target_url)
    try:
        src_meta = sa.MetaData()
        src_meta.reflect(source)
        dst_meta = sa.MetaData()
        dst_meta.reflect(target)
        tables = [t for t in dst_meta.sorted_tables
                  if t.name not in _SKIP and t.name in src_meta.tables]
        with source.connect() as src, target.begin() as dst:
            if target.dialect.name == 'mysql':
                dst.exec_driver_sql('SET FOREIGN_KEY_CHECKS=0')
            for table in reversed(tables):
                dst.execute(table.delete())
            total = 0
            for table in tables:
                src_table = src_meta.tables[table.name]
                names = [c.name for c in table.columns
                         if c.name in src_table.columns]
                rows = []
                result = src.execute(sa.select(
                    *[src_table.c[n] for n in names]))
                for row in result.mappings():
                    rows.append(dict(row))
                    if len(rows) >= batch:
                        dst.execute(table.insert(), rows)
                        total += len(rows)
                        rows = []
                if rows:
                    dst.execute(table.insert(), rows)
                    total += len(rows)
            if target.dialect.name == 'mysql':
                dst.exec_driver_sql('SET FOREIGN_KEY_CHECKS=1')
        LOG.info('Copied %d rows in %d tables', total, len(tables))
        return total
    except sa.exc.SQLAlchemyError as exc:
        raise exceptions.DatabaseError(
            'Copying the Heat database between dialects failed: %s' % exc)
    finally:
        source.dispose()
        target.dispose()
