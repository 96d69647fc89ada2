"""The SQL of a dump: values quoted as SQLite's quote() does, in UTF-8
bytes, and gzip from either compressor."""

import gzip
import hashlib
import io
import sqlite3
import zlib

import pytest

from tripleo_ephemeral.heat_db import gzip_pipe
from tripleo_ephemeral.heat_db import sqlite_dump

#: Text, integer and NULL values quote() handles in every way it can.
PLAIN_ROWS = [
    (1, "it's", None),
    (-9223372036854775808, '', 'two\nlines;\r\n'),
    (9223372036854775807, "''", '\u00e9t\u00e9 \u2603 \U0001f600'),
    (0, 'cut at\x00the NUL', "a 'quoted' \\ back"),
]


@pytest.fixture
def conn(tmp_path):
    conn = sqlite3.connect(str(tmp_path / 'db.sqlite'))
    conn.execute('CREATE TABLE plain (n INTEGER, a TEXT, b TEXT)')
    conn.executemany('INSERT INTO plain VALUES (?, ?, ?)', PLAIN_ROWS)
    conn.commit()
    yield conn
    conn.close()


def _values_by_sqlite(conn, table, columns):
    """Each row as SQLite's own quote() writes it."""
    return [row[0] for row in conn.execute(
        "SELECT %s FROM %s" % (" || ',' || ".join(
            'quote(%s)' % c for c in columns), table))]


def test_plain_values_are_quoted_exactly_as_sqlite_quotes_them(conn):
    insert = [s for s in sqlite_dump.statements(conn)
              if s.startswith(b'INSERT')][0]
    expected = _values_by_sqlite(conn, 'plain', ('n', 'a', 'b'))
    assert insert.decode('utf-8') == (
        'INSERT INTO "plain" VALUES\n%s;' % ',\n'.join(
            '(%s)' % row for row in expected))


def test_real_and_blob_values_are_left_to_quote_and_load_back(conn, tmp_path):
    conn.execute('CREATE TABLE other (x, y)')
    conn.executemany('INSERT INTO other VALUES (?, ?)', [
        (0.1, b'\x00\xff\'binary'), (1e300, 'text'), (-2.5e-300, None)])
    conn.commit()
    sql = b'\n'.join(sqlite_dump.statements(conn)).decode('utf-8')
    copy = sqlite3.connect(str(tmp_path / 'copy.sqlite'))
    copy.executescript(sql)
    for table in ('plain', 'other'):
        query = 'SELECT *, typeof(%s) FROM %s ORDER BY rowid' % (
            'x' if table == 'other' else 'n', table)
        want = conn.execute(query).fetchall()
        if table == 'plain':  # quote() stops at a NUL: the dump too
            want[3] = (0, 'cut at', want[3][2], 'integer')
        assert copy.execute(query).fetchall() == want
    assert conn.text_factory is str  # the caller's, as it was


def test_an_insert_is_cut_short_past_its_size(conn, monkeypatch):
    monkeypatch.setattr(sqlite_dump, 'BYTES_PER_INSERT', 1)
    inserts = [s for s in sqlite_dump.statements(conn)
               if s.startswith(b'INSERT')]
    assert len(inserts) == len(PLAIN_ROWS)


@pytest.mark.parametrize('deflate', ['default', 'zlib'])
def test_any_gzip_reads_the_pipe_s_output(monkeypatch, deflate):
    if deflate == 'zlib':  # a machine without ISA-L's wheel
        monkeypatch.setattr(gzip_pipe, '_deflate', zlib)
    raw = io.BytesIO()
    data = b''.join(b'INSERT %d;\n' % n for n in range(100000))
    with gzip_pipe.GzipPipe(raw) as out:
        out.write_bytes(data[:10])
        out.write_bytes(data[10:gzip_pipe.GzipPipe.SIZE * 2])
        out.write_bytes(data[gzip_pipe.GzipPipe.SIZE * 2:])
        out.write('COMMIT;\n')
    assert gzip.decompress(raw.getvalue()) == data + b'COMMIT;\n'
    assert zlib.decompress(raw.getvalue(), 16 + 15) == data + b'COMMIT;\n'
    assert out.hexdigest() == hashlib.sha256(raw.getvalue()).hexdigest()
