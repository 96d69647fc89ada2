import gzip
import os
import sqlite3
import stat

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import gzip_pipe
from tripleo_ephemeral.heat_db import keeping
from tripleo_ephemeral.tests import heat_sqlite

_names = heat_sqlite.stack_names


@pytest.fixture
def db(tmp_path):
    path = tmp_path / 'heat.sqlite'
    heat_sqlite.stack_db(path)
    return database.SqliteDatabase(str(path)), dumps.DumpStore(
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


def _failing_statements(exc):
    def statements(conn):
        yield b'BEGIN TRANSACTION;'
        raise exc
    return statements


def _assert_kept(store, good, content):
    assert open(good, 'rb').read() == content
    assert [p for p in os.listdir(store.heat_dir) if p.endswith('.tmp')] == []


def test_failed_dump_keeps_the_last_good_one(db, monkeypatch):
    sqlite, store = db
    good = sqlite.dump(store)
    content = open(good, 'rb').read()
    monkeypatch.setattr(database.sqlite_dump, 'statements',
                        _failing_statements(
                            OSError(28, 'No space left on device')))
    with pytest.raises(exceptions.DatabaseError, match='previous dump'):
        sqlite.dump(store)
    _assert_kept(store, good, content)


def test_disk_full_while_compressing_keeps_the_last_good_one(db,
                                                             monkeypatch):
    sqlite, store = db
    good = sqlite.dump(store)
    content = open(good, 'rb').read()

    def full(self, data):
        raise OSError(28, 'No space left on device')

    # Where the compressed bytes go: the compressing thread, then the end.
    monkeypatch.setattr(gzip_pipe.GzipPipe, '_out', full)
    with pytest.raises(exceptions.DatabaseError,
                       match='No space left on device.*previous dump'):
        sqlite.dump(store)
    _assert_kept(store, good, content)


def test_pipe_raises_the_compressing_threads_error_at_the_next_write():
    class Full:
        """Room for the gzip header only."""
        written = 0

        def write(self, data):
            if self.written + len(data) > 64:
                raise OSError(28, 'No space left on device')
            self.written += len(data)

    pipe = gzip_pipe.GzipPipe(Full())
    with pytest.raises(OSError, match='No space'):
        with pipe:
            for _ in range(64):
                pipe.write('x' * pipe.SIZE)
    assert not pipe._thread.is_alive()


def test_dump_is_multi_row_sql_any_sqlite_loads(db, tmp_path):
    sqlite, store = db
    conn = sqlite3.connect(sqlite.path)
    conn.executemany('INSERT INTO stack VALUES (?, ?)',
                     [(str(n), "it's %d\n;" % n) for n in range(1200)])
    conn.execute('CREATE INDEX ix_name ON stack (name)')
    conn.commit()
    conn.close()
    with gzip.open(sqlite.dump(store), 'rt') as f:
        sql = f.read()
    assert sql.count('INSERT INTO "stack" VALUES') == 3   # 500 rows each
    copy = sqlite3.connect(str(tmp_path / 'copy.sqlite'))
    copy.executescript(sql)
    original = sqlite3.connect(sqlite.path)
    query = 'SELECT * FROM stack ORDER BY rowid'
    assert (copy.execute(query).fetchall() ==
            original.execute(query).fetchall())
    assert copy.execute("SELECT name FROM sqlite_master WHERE type = 'index'"
                        ).fetchall() == [('ix_name',)]


def _no_sql_load(monkeypatch):
    def refuse(sql, tmp):
        raise AssertionError('the SQL dump was loaded')
    monkeypatch.setattr(database.SqliteDatabase, '_load_sqlite_dump',
                        staticmethod(refuse))


def test_restore_writes_the_image_saved_with_the_dump(db, monkeypatch):
    sqlite, store = db
    sqlite.dump(store)
    image = os.path.join(store.heat_dir, dumps.IMAGE_NAME)
    assert stat.S_IMODE(os.stat(image).st_mode) == 0o600
    sqlite.remove()
    heat_sqlite.stack_db(sqlite.path, rows=[('1', 'changed since')])
    _no_sql_load(monkeypatch)
    sqlite.restore(store)
    assert _names(sqlite.path) == ['demo']
    assert stat.S_IMODE(os.stat(sqlite.path).st_mode) == 0o600


def test_the_image_on_python_3_10_comes_from_the_backup_api(
        db, monkeypatch):
    """Python 3.10 has no Connection.serialize: the same snapshot through
    the backup API, and the same dump."""
    sqlite, store = db
    with open(sqlite.dump(store), 'rb') as f:
        serialized_dump = gzip.decompress(f.read())

    class Python310Connection:
        """A connection as 3.10's sqlite3 gives it: no serialize."""

        def __init__(self, conn):
            self._conn = conn

        def __getattr__(self, name):
            if name == 'serialize':
                raise AttributeError(name)
            return getattr(self._conn, name)

        def __setattr__(self, name, value):  # text_factory
            if name == '_conn':
                super().__setattr__(name, value)
            else:
                setattr(self._conn, name, value)

    connect = sqlite3.connect

    def dump_connection(path, *args, **kwargs):
        conn = connect(path, *args, **kwargs)
        # The read-only one the dump reads (not the copy's).
        return Python310Connection(conn) if path.startswith('file:') else conn

    monkeypatch.setattr(database.sqlite3, 'connect', dump_connection)
    with open(sqlite.dump(store), 'rb') as f:
        assert gzip.decompress(f.read()) == serialized_dump
    monkeypatch.undo()
    assert os.listdir(store.heat_dir).count(dumps.IMAGE_NAME) == 1
    assert not [n for n in os.listdir(store.heat_dir)
                if n.startswith('.image.')]  # its scratch file is gone
    sqlite.remove()
    _no_sql_load(monkeypatch)
    sqlite.restore(store)  # from the image the backup API made
    assert _names(sqlite.path) == ['demo']


def test_damaged_image_falls_back_to_the_sql(db):
    sqlite, store = db
    sqlite.dump(store)
    image = os.path.join(store.heat_dir, dumps.IMAGE_NAME)
    data = bytearray(open(image, 'rb').read())
    data[-1] ^= 0xff
    open(image, 'wb').write(bytes(data))
    assert store.image_for(store.latest) is None
    sqlite.remove()
    sqlite.restore(store)
    assert _names(sqlite.path) == ['demo']


def test_image_serves_only_the_dump_it_was_made_with(db):
    sqlite, store = db
    first = sqlite.dump(store)
    assert store.image_for(first) is not None
    assert store.image_for(store.rotated(1)) is None
    # Any other dump, a pod's MySQL one too, drops the image.
    with store.writer() as out:
        out.write('BEGIN TRANSACTION;\nCREATE TABLE stack (x);\nCOMMIT;\n')
    assert not os.path.exists(os.path.join(store.heat_dir,
                                           dumps.IMAGE_NAME))
    assert store.image_for(store.latest) is None
    assert store.image_for(store.rotated(1)) is None


def test_truncated_dump_is_refused_and_db_untouched(db):
    sqlite, store = db
    path = sqlite.dump(store)
    data = open(path, 'rb').read()
    with open(path, 'wb') as f:
        f.write(data[:len(data) // 2])
    with pytest.raises(exceptions.CorruptDumpError, match='corrupt'):
        sqlite.restore(store)
    assert _names(sqlite.path) == ['demo']


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
    store = dumps.DumpStore(str(tmp_path))
    with pytest.raises(exceptions.DumpNotFoundError, match=str(tmp_path)):
        database.SqliteDatabase(str(tmp_path / 'x')).restore(store)


def _crashed_wal_db(path):
    """A WAL database whose last rows are only in its -wal file, as a
    killed Heat leaves it (the files copied while its connection is
    open)."""
    os.makedirs(str(path) + '.d')
    live = os.path.join(str(path) + '.d', 'live.sqlite')
    heat_sqlite.stack_db(live)
    conn = sqlite3.connect(live)
    conn.execute('PRAGMA journal_mode = WAL')
    conn.execute('PRAGMA wal_autocheckpoint = 0')
    conn.execute("INSERT INTO stack VALUES ('2', 'in the wal')")
    conn.commit()
    for suffix in ('', '-wal'):
        with open(live + suffix, 'rb') as f, \
                open(str(path) + suffix, 'wb') as out:
            out.write(f.read())
    conn.close()
    return str(path)


def test_a_dump_that_consumes_the_database_moves_it_into_the_image(
        tmp_path, monkeypatch):
    path = _crashed_wal_db(tmp_path / 'heat.sqlite')
    inode = os.stat(path).st_ino
    sqlite = database.SqliteDatabase(path)
    store = dumps.DumpStore(str(tmp_path))
    assert keeping.keep(sqlite, store, 'deploy', lambda s: None)[0] == \
        store.latest
    image = os.path.join(store.heat_dir, dumps.IMAGE_NAME)
    assert os.stat(image).st_ino == inode  # renamed, not copied
    assert stat.S_IMODE(os.stat(image).st_mode) == 0o600
    assert not [n for n in os.listdir(tmp_path)
                if n.startswith(database.SQLITE_NAME) and n != 'heat.sqlite.d']
    assert store.manifest.record(dumps.DUMP_NAME)['origin'] == 'deploy'
    _no_sql_load(monkeypatch)
    sqlite.restore(store)  # the image: the WAL's rows folded in
    assert _names(sqlite.path) == ['demo', 'in the wal']
    monkeypatch.undo()
    sqlite.remove()
    store.drop_image()
    sqlite.restore(store)  # the SQL: the same
    assert _names(sqlite.path) == ['demo', 'in the wal']


def test_a_database_still_open_elsewhere_is_copied_not_moved(db):
    sqlite, store = db
    holder = sqlite3.connect(sqlite.path)  # a Heat that is not gone
    holder.execute('PRAGMA journal_mode = WAL')
    holder.execute('SELECT * FROM stack').fetchall()
    try:
        sqlite.dump(store, consume=True)
    finally:
        holder.close()
    assert _names(sqlite.path) == ['demo']  # left in place
    assert store.image_for(store.latest) is not None


def test_a_crashed_run_s_database_is_kept_with_its_stack_count(tmp_path):
    path = str(tmp_path / 'heat.sqlite')
    conn = sqlite3.connect(path)
    conn.execute('CREATE TABLE stack (id TEXT, name TEXT, owner_id TEXT)')
    conn.executemany('INSERT INTO stack VALUES (?, ?, ?)', [
        ('1', 'overcloud', None), ('2', 'nested', '1')])
    conn.commit()
    conn.close()
    store = dumps.DumpStore(str(tmp_path))
    keeping.recover(database.SqliteDatabase(path), store, lambda s: None)
    assert store.manifest.record(dumps.DUMP_NAME)['stacks'] == 1
    assert not os.path.exists(path)
    assert store.image_for(store.latest) is not None
