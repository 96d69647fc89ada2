import gzip
import os
import sqlite3
import stat

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import database


def _make_db(path, name='demo'):
    conn = sqlite3.connect(path)
    conn.execute('CREATE TABLE stack (id TEXT, name TEXT)')
    conn.execute("INSERT INTO stack VALUES ('1', ?)", (name,))
    conn.commit()
    conn.close()


def _names(path):
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute('SELECT name FROM stack')]
    finally:
        conn.close()


@pytest.fixture
def db(tmp_path):
    path = tmp_path / 'heat.sqlite'
    _make_db(str(path))
    return database.SqliteDatabase(str(path)), database.DumpStore(
        str(tmp_path), keep=3)


def test_dump_restore_round_trip(db):
    sqlite, store = db
    path = sqlite.dump(store)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    sqlite.remove()
    sqlite.restore(store)
    assert _names(sqlite.path) == ['demo']


def test_dumps_rotate_and_keep_only_n(db):
    sqlite, store = db
    for _ in range(5):
        sqlite.dump(store)
    assert [os.path.basename(p) for p in store.all()] == [
        'heat-db-dump.sql.gz', 'heat-db-dump.1.sql.gz',
        'heat-db-dump.2.sql.gz']


def test_failed_dump_keeps_the_last_good_one(db, monkeypatch):
    sqlite, store = db
    good = sqlite.dump(store)
    content = open(good, 'rb').read()

    class Broken:
        def __init__(self, *a, **k):
            pass

        def iterdump(self):
            yield 'BEGIN TRANSACTION;'
            raise OSError(28, 'No space left on device')

        def close(self):
            pass

    monkeypatch.setattr(database.sqlite3, 'connect', Broken)
    with pytest.raises(exceptions.DatabaseError, match='previous dump'):
        sqlite.dump(store)
    assert open(good, 'rb').read() == content
    assert [p for p in os.listdir(store.heat_dir) if p.endswith('.tmp')] == []


def test_truncated_dump_is_refused_and_db_untouched(db):
    sqlite, store = db
    path = sqlite.dump(store)
    data = open(path, 'rb').read()
    with open(path, 'wb') as f:
        f.write(data[:len(data) // 2])
    _make_db_other = sqlite.path
    with pytest.raises(exceptions.CorruptDumpError, match='corrupt'):
        sqlite.restore(store)
    assert _names(_make_db_other) == ['demo']


def test_dump_without_heat_schema_is_refused(db):
    sqlite, store = db
    with gzip.open(store.latest, 'wt') as f:
        f.write('BEGIN TRANSACTION;\nCREATE TABLE other (x);\nCOMMIT;\n')
    with pytest.raises(exceptions.CorruptDumpError, match='no Heat schema'):
        sqlite.restore(store)


def test_incomplete_dump_is_refused(db):
    sqlite, store = db
    with gzip.open(store.latest, 'wt') as f:
        f.write('BEGIN TRANSACTION;\nCREATE TABLE stack (x);\n')
    with pytest.raises(exceptions.CorruptDumpError, match='incomplete'):
        sqlite.restore(store)


def test_missing_dump_names_the_path(tmp_path):
    store = database.DumpStore(str(tmp_path))
    with pytest.raises(exceptions.DumpNotFoundError, match=str(tmp_path)):
        database.SqliteDatabase(str(tmp_path / 'x')).restore(store)
