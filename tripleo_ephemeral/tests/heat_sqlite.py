"""A SQLite file with Heat's ``stack`` table: what database tests start from.

Shared by the unit and the functional tests (a helper, not a test module).
"""

import sqlite3


def stack_db(path, rows=(('1', 'demo'),), alembic_revision=None):
    """Write ``path`` with a ``stack (id, name)`` table holding ``rows``.

    With ``alembic_revision`` Heat's ``alembic_version`` table is there
    too, holding that revision (none when it is ``''``). Returns the path.
    """
    path = str(path)
    conn = sqlite3.connect(path)
    try:
        conn.execute('CREATE TABLE stack (id VARCHAR(36), name TEXT)')
        conn.executemany('INSERT INTO stack VALUES (?, ?)', rows)
        if alembic_revision is not None:
            conn.execute('CREATE TABLE alembic_version '
                         '(version_num VARCHAR(32))')
            if alembic_revision:
                conn.execute('INSERT INTO alembic_version VALUES (?)',
                             (alembic_revision,))
        conn.commit()
    finally:
        conn.close()
    return path


def stack_names(path):
    """The ``name`` of every stack row of the SQLite file ``path``."""
    conn = sqlite3.connect(str(path))
    try:
        return [r[0] for r in conn.execute('SELECT name FROM stack')]
    finally:
        conn.close()


def dump_text(path):
    """The SQL text of the SQLite file ``path`` (as sqlite3 .dump)."""
    conn = sqlite3.connect(str(path))
    try:
        return ''.join(line + '\n' for line in conn.iterdump())
    finally:
        conn.close()
