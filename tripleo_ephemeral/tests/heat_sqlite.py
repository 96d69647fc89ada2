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


def legacy_heat_db(target, version=86, rows_from=None):
    """Make ``target`` (a SQLite path or a database URL) a Heat database
    as Heat 11 (Rocky) to 20 (2023.1) left it, under sqlalchemy-migrate at
    ``version``.

    Its schema is the installed Heat's first alembic revision, which is
    legacy version 86's: compared table by table (columns, types,
    nullability, keys, indexes) with schemas built by the sqlalchemy-migrate
    repositories of Heat 13.1.0 (Train), 16.1.0 (Wallaby) and 20.0.1, it is
    identical. ``rows_from`` (a database URL) gives it that Heat's rows,
    less what the later migrations added. Returns ``target``.
    """
    import os
    import subprocess
    import sys
    import tempfile

    import sqlalchemy as sa

    from tripleo_ephemeral.heat_db import crossdb
    from tripleo_ephemeral.tripleoclient_adoption import schema_version

    target = str(target)
    url = target if '://' in target else 'sqlite:///%s' % target
    with tempfile.NamedTemporaryFile('w', suffix='.conf') as conf:
        conf.write('[database]\nconnection = %s\n' % url)
        conf.flush()
        subprocess.run([os.path.join(os.path.dirname(sys.executable),
                                     'heat-manage'), '--config-file',
                        conf.name, 'db_sync', schema_version.ALEMBIC_INIT],
                       check=True, capture_output=True)
    if rows_from:
        crossdb.copy_rows(rows_from, url)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text('DROP TABLE alembic_version'))
            conn.execute(sa.text(
                'CREATE TABLE migrate_version (repository_id VARCHAR(250) '
                'NOT NULL PRIMARY KEY, repository_path TEXT, version '
                'INTEGER)'))
            conn.execute(sa.text(
                "INSERT INTO migrate_version VALUES ('heat', "
                "'heat/db/sqlalchemy/migrate_repo', :v)"), {'v': version})
    finally:
        engine.dispose()
    return target
