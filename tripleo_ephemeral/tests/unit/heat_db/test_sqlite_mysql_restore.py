"""SqliteDatabase.restore of a pod's (MySQL) dump, with a fake MariaDB."""

import contextlib
import gzip

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import sqlite_schema
from tripleo_ephemeral.tests import heat_sqlite

MYSQL_DUMP = ('-- MariaDB dump 10.19\n/*!40101 SET NAMES utf8mb4 */;\n'
              'CREATE TABLE `stack` (`id` varchar(36), `name` text);\n'
              "INSERT INTO `stack` VALUES ('1','from-pod');\nCOMMIT;\n")


def _schema(path, runner):
    """Stands in for sqlite_schema.create: an empty stack table."""
    return heat_sqlite.stack_db(path, rows=())


class FakeReader:
    """Stands in for the scratch MariaDB: a SQLite file with the rows."""

    def __init__(self, tmp_path, fail=None):
        self.tmp_path = tmp_path
        self.fail = fail
        self.loaded_sql = None

    @contextlib.contextmanager
    def loaded(self, sql, source='the dump'):
        if self.fail:
            raise self.fail
        self.loaded_sql = sql
        path = heat_sqlite.stack_db(
            self.tmp_path / 'mariadb-stand-in.sqlite',
            rows=[('1', 'from-pod')])
        yield 'sqlite:///%s' % path


_names = heat_sqlite.stack_names


@pytest.fixture
def live(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_schema, 'create', _schema)
    path = tmp_path / 'heat.sqlite'
    heat_sqlite.stack_db(path, rows=[('9', 'live')])
    store = dumps.DumpStore(str(tmp_path))
    with gzip.open(store.latest, 'wt') as f:
        f.write(MYSQL_DUMP)
    return path, store


def test_mysql_dump_goes_through_the_reader(tmp_path, live):
    path, store = live
    reader = FakeReader(tmp_path)
    db = database.SqliteDatabase(str(path), mysql_reader=reader,
                                 runner=object())
    db.restore(store)
    assert reader.loaded_sql == MYSQL_DUMP
    assert _names(str(path)) == ['from-pod']
    assert not (tmp_path / 'heat.sqlite.restore').exists()


def test_failed_mysql_load_leaves_the_live_db(tmp_path, live):
    path, store = live
    reader = FakeReader(tmp_path, fail=exceptions.CorruptDumpError('bad'))
    db = database.SqliteDatabase(str(path), mysql_reader=reader,
                                 runner=object())
    with pytest.raises(exceptions.CorruptDumpError, match='untouched'):
        db.restore(store)
    assert _names(str(path)) == ['live']
    assert not (tmp_path / 'heat.sqlite.restore').exists()


def test_mysql_dump_without_a_reader_says_so(tmp_path, live):
    path, store = live
    with pytest.raises(exceptions.DatabaseError, match='--heat-type pod'):
        database.SqliteDatabase(str(path)).restore(store)
    assert _names(str(path)) == ['live']
