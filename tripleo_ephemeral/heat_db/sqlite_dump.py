"""A SQLite database as SQL text, many rows to an INSERT.

``sqlite3.Connection.iterdump`` writes one INSERT per row; SQLite loads a
multi-row INSERT with far less parsing (18.9 ms instead of 25 ms for the
200-member benchmark database, whose dump is the same SQL otherwise).
The statements are otherwise iterdump's: ``BEGIN TRANSACTION``, each
table then its rows, indexes, triggers and views, ``sqlite_sequence``
last, ``COMMIT``. Any SQLite reads it back, ``executescript`` included.

The text is UTF-8 bytes, as SQLite stores it: never decoded and encoded
again. A table whose values are all text, integers or NULL (every table
of Heat's) has them quoted here, exactly as SQLite's ``quote()`` does;
any other (a REAL or a BLOB in it) is quoted by ``quote()`` itself. On
THT 3+500's database (935 MB of SQL, most of it the environment each
nested stack keeps) the text takes 1.1-1.4 s of CPU instead of 3.4-3.9
(``quote()`` and ``||`` copied each long text several times, then Python
decoded and encoded it again).
"""

#: Rows per INSERT, and the text size after which an INSERT is cut short
#: whatever its row count, so that memory stays bounded while dumping and
#: loading even a database of raw templates of megabytes each.
ROWS_PER_INSERT = 500
BYTES_PER_INSERT = 1 << 20

#: What ``quote()`` leaves as it is; :func:`_quote` writes no other.
_PLAIN_TYPES = "('text', 'integer', 'null')"


def statements(conn):
    """Yield the SQL of ``conn``'s database a statement at a time, as
    UTF-8 bytes without the line end.

    Call it inside a read transaction, so the text is one snapshot.
    """
    factory = conn.text_factory
    conn.text_factory = bytes   # SQLite's UTF-8 as it is
    try:
        yield b'BEGIN TRANSACTION;'
        sequence = []
        tables = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
            "AND sql NOT NULL ORDER BY name").fetchall()
        for name, sql in tables:
            name = name.decode('utf-8')
            if name == 'sqlite_sequence':
                # Its rows must follow the tables whose inserts bump it.
                sequence = [b'DELETE FROM "sqlite_sequence";']
                sequence.extend(_inserts(conn, name))
                continue
            if name.startswith('sqlite_'):
                continue    # SQLite's own (statistics): rebuilt by ANALYZE
            yield sql + b';'
            yield from _inserts(conn, name)
        for (sql,) in conn.execute(
                "SELECT sql FROM sqlite_master WHERE sql NOT NULL AND "
                "type IN ('index', 'trigger', 'view')"):
            yield sql + b';'
        yield from sequence
        yield b'COMMIT;'
    finally:
        conn.text_factory = factory


def _ident(name):
    return '"%s"' % name.replace('"', '""')


def _quote(value):
    """``quote(value)`` for a value read as bytes: text, integer or NULL."""
    if value.__class__ is bytes:
        if b'\0' in value:
            value = value[:value.index(b'\0')]   # quote() stops there too
        return b"'%b'" % value.replace(b"'", b"''")
    if value is None:
        return b'NULL'
    return b'%d' % value


def _inserts(conn, table):
    """The table's rows as INSERTs."""
    table = _ident(table)
    columns = [row[1].decode('utf-8') for row in conn.execute(
        'PRAGMA table_info(%s)' % table)]
    others = conn.execute('SELECT 1 FROM %s WHERE %s LIMIT 1' % (
        table, ' OR '.join('typeof(%s) NOT IN %s' % (_ident(c), _PLAIN_TYPES)
                           for c in columns))).fetchone()
    if others:
        # SQLite quotes each value itself: REALs and BLOBs as it reads them.
        rows = conn.execute('SELECT %s FROM %s' % (
            " || ',' || ".join('quote(%s)' % _ident(c) for c in columns),
            table))
        rows = (row for (row,) in rows)
    else:
        rows = (b','.join(map(_quote, row)) for row in conn.execute(
            'SELECT %s FROM %s' % (', '.join(map(_ident, columns)), table)))
    head = ('INSERT INTO %s VALUES\n(' % table).encode('utf-8')
    batch, size = [], 0
    for row in rows:
        batch.append(row)
        size += len(row)
        if len(batch) >= ROWS_PER_INSERT or size >= BYTES_PER_INSERT:
            yield _insert(head, batch)
            batch, size = [], 0
    if batch:
        yield _insert(head, batch)


def _insert(head, rows):
    """One INSERT of ``rows`` (each its values, comma-separated), joined
    once."""
    parts = [head]
    for row in rows:
        parts += (row, b'),\n(')
    parts[-1] = b');'
    return b''.join(parts)
