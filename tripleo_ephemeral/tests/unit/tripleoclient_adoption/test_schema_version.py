"""Which Heat made a database, and Heat's own db_sync bringing it forward.

The db_sync runs are real (the installed Heat's heat-manage): a few seconds.
"""

import sqlite3

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tripleoclient_adoption import dump_import
from tripleo_ephemeral.tripleoclient_adoption import schema_version
from tripleo_ephemeral import process
from tripleo_ephemeral.tests import heat_sqlite


def _db(path, legacy=None, alembic=None, stack=True):
    conn = sqlite3.connect(str(path))
    if stack:
        conn.execute('CREATE TABLE stack (id TEXT)')
    if legacy is not None:
        conn.execute('CREATE TABLE migrate_version (repository_id TEXT, '
                     'repository_path TEXT, version INTEGER)')
        conn.execute("INSERT INTO migrate_version VALUES ('heat', 'x', ?)",
                     (legacy,))
    if alembic is not None:
        conn.execute('CREATE TABLE alembic_version (version_num TEXT)')
        conn.execute('INSERT INTO alembic_version VALUES (?)', (alembic,))
    conn.commit()
    conn.close()
    return 'sqlite:///%s' % path


@pytest.mark.parametrize('kwargs, message', [
    ({'legacy': 80}, 'sqlalchemy-migrate version 80, from a Heat older than '
                     '11 (Rocky)'),
    ({'legacy': 87}, 'which no Heat release has'),
    ({'alembic': 'ffffffffffff'}, 'alembic revision ffffffffffff, which '
                                  'Heat'),
    ({}, 'no migration version table'),
    ({'stack': False}, 'not a Heat database'),
])
def test_refusals_name_the_release_and_the_fix(tmp_path, kwargs, message):
    url = _db(tmp_path / 'db.sqlite', **kwargs)
    with pytest.raises(exceptions.DatabaseError) as err:
        schema_version.detect(url, 'backup.sql')
    assert message in str(err.value)
    assert 'backup.sql' in str(err.value)


def test_known_versions(tmp_path):
    found = schema_version.detect(_db(tmp_path / 'a', legacy=86), 'x')
    assert (found.system, found.value, found.release) == (
        'sqlalchemy-migrate', 86, 'Heat 11 (Rocky) to 20 (2023.1)')
    found = schema_version.detect(
        _db(tmp_path / 'b', alembic='c6214ca60943'), 'x')
    assert found.release == 'Heat 21 (2023.2) to 25 (2025.2)'
    heads, revisions = schema_version.known_revisions()
    assert schema_version.ALEMBIC_INIT in revisions and heads <= revisions


def _stack_rows(path):
    """A template and a stack of the 2023.2-era columns, as Heat wrote
    them."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO raw_template (id, template, environment, "
                 "created_at) VALUES (1, '{}', '{}', '2020-01-01')")
    conn.execute("INSERT INTO stack (id, name, raw_template_id, tenant, "
                 "disable_rollback, action, status, created_at, nested_depth,"
                 " convergence, backup) VALUES ('s1', 'overcloud', 1, "
                 "'0e5f1c7d', 0, 'CREATE', 'COMPLETE', '2020-01-01', 0, 1, "
                 "0)")
    conn.commit()
    conn.close()


@pytest.mark.starts_process
def test_a_legacy_sqlite_dump_is_stamped_and_brought_to_the_head(tmp_path):
    legacy = heat_sqlite.legacy_heat_db(tmp_path / 'legacy.sqlite')
    _stack_rows(legacy)
    dump = tmp_path / 'legacy.sql'
    conn = sqlite3.connect(legacy)
    dump.write_text('\n'.join(conn.iterdump()) + '\n')
    conn.close()
    scratch = tmp_path / 'scratch'
    scratch.mkdir()
    dest = str(tmp_path / 'adopted.sqlite')

    imported = dump_import.import_dump(str(dump), dest, str(scratch),
                                       process.ProcessRunner())

    assert imported.schema.describe() == {
        'system': 'sqlalchemy-migrate', 'version': 86,
        'release': 'Heat 11 (Rocky) to 20 (2023.1)'}
    heads, _all = schema_version.known_revisions()
    assert imported.upgraded_to in heads
    assert dump_import.adopt_rows(dest) == ['0e5f1c7d']
    conn = sqlite3.connect(dest)
    assert conn.execute('SELECT name, tenant FROM stack').fetchall() == [
        ('overcloud', 'admin')]
    tables = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert 'resource_snapshot' in tables           # a Heat 26 migration
    assert 'migrate_version' not in tables         # a fresh schema
    conn.close()
