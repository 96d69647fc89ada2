"""Cutting the heat database out of the files undercloud backups are."""

import bz2
import gzip
import io
import sqlite3
import tarfile

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tripleoclient_adoption import dump_input

HEADER = (b'/*M!999999\\- enable the sandbox mode */ \n'
          b'-- MariaDB dump 10.19  Distrib 10.11.18-MariaDB\n'
          b'/*!40101 SET NAMES utf8mb4 */;\n'
          b'/*!40014 SET FOREIGN_KEY_CHECKS=0 */;\n')
HEAT_TABLES = b'CREATE TABLE `stack` (\n  `id` varchar(36)\n);\n' \
              b"INSERT INTO `stack` VALUES ('s1');\n"


def section(name, body=b''):
    return (b'--\n-- Current Database: `%s`\n--\n\n'
            b'CREATE DATABASE /*!32312 IF NOT EXISTS*/ `%s`;\n\n'
            b'USE `%s`;\n' % (name, name, name)) + body


def all_databases(*names, trailer=b'-- Dump completed on 2026-11-24\n'):
    body = b''.join(section(n, HEAT_TABLES if n == b'heat' else
                            b'CREATE TABLE `user` (x int);\n') for n in names)
    # mysqldump --routines repeats every marker at the end, empty.
    body += b''.join(section(n) for n in names)
    return HEADER + body + trailer


def extract(tmp_path, data, name='dump.sql'):
    path = tmp_path / name
    path.write_bytes(data)
    scratch = tmp_path / 'scratch'
    scratch.mkdir(exist_ok=True)
    return dump_input.extract(str(path), str(scratch))


def test_single_database_dump_is_kept_whole(tmp_path):
    data = HEADER + HEAT_TABLES + b'-- Dump completed on 2026-11-24\n'
    found = extract(tmp_path, data)
    assert found.kind == dump_input.MYSQL
    assert found.sql().encode() == data
    assert found.describe() == {'format': 'mysql', 'layers': []}


def test_all_databases_keeps_the_header_and_the_first_heat_section(tmp_path):
    found = extract(tmp_path, all_databases(b'keystone', b'heat', b'mysql'))
    sql = found.sql()
    assert found.databases == ['keystone', 'heat', 'mysql']
    assert sql.startswith(HEADER.decode())
    assert 'CREATE TABLE `stack`' in sql
    assert 'CREATE TABLE `user`' not in sql
    assert 'CREATE DATABASE' not in sql and 'USE `' not in sql
    assert sql.count("INSERT INTO `stack`") == 1


def test_a_dump_without_heat_names_its_databases(tmp_path):
    with pytest.raises(exceptions.CorruptDumpError) as err:
        extract(tmp_path, all_databases(b'keystone', b'nova'))
    assert 'databases keystone, nova but no "heat"' in str(err.value)


def test_a_truncated_mysqldump_is_refused(tmp_path):
    with pytest.raises(exceptions.CorruptDumpError) as err:
        extract(tmp_path, all_databases(b'heat', trailer=b''))
    assert 'truncated' in str(err.value)


def test_our_pod_dump_ends_in_commit(tmp_path):
    data = HEADER + HEAT_TABLES + b'\nCOMMIT;\n'
    assert extract(tmp_path, gzip.compress(data),
                   'heat-db-dump.sql.gz').layers == ['gzip']


def test_sqlite_sql_must_end_in_commit(tmp_path):
    data = (b'PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n'
            b'CREATE TABLE stack (id VARCHAR(36));\n')
    with pytest.raises(exceptions.CorruptDumpError):
        extract(tmp_path, data)
    assert extract(tmp_path, data + b'COMMIT;\n').kind == \
        dump_input.SQLITE_SQL


def test_not_heat(tmp_path):
    with pytest.raises(exceptions.CorruptDumpError) as err:
        extract(tmp_path, HEADER + b'CREATE TABLE `x` (a int);\n'
                b'-- Dump completed\n')
    assert 'no "stack" table' in str(err.value)
    with pytest.raises(exceptions.CorruptDumpError):
        extract(tmp_path, b'hello\n')


def test_sqlite_file(tmp_path):
    db = tmp_path / 'heat.sqlite'
    sqlite3.connect(str(db)).execute('CREATE TABLE stack (id TEXT)')
    scratch = tmp_path / 's'
    scratch.mkdir()
    found = dump_input.extract(str(db), str(scratch))
    assert (found.kind, found.path) == (dump_input.SQLITE_FILE, str(db))


def _tar(members, mode='w'):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode=mode) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


def test_legacy_backup_tar_of_gzipped_all_databases(tmp_path):
    """The legacy "undercloud backup": a tar of all-databases-<ts>.sql.gz
    and filesystem-<ts>.tar."""
    data = _tar({'UC-backup/all-databases-20261124.sql.gz': gzip.compress(
        all_databases(b'heat', b'nova')),
        'UC-backup/filesystem-20261124.tar': b'x' * 600})
    found = extract(tmp_path, data, 'UC-backup-20261124.tar')
    assert found.layers == ['tar:UC-backup/all-databases-20261124.sql.gz',
                            'gzip']
    assert found.databases == ['heat', 'nova']


def test_tripleoclient_bz2_tar(tmp_path):
    data = _tar({'heat-db.sql': HEADER + HEAT_TABLES +
                 b'-- Dump completed\n'}, mode='w:bz2')
    found = extract(tmp_path, data, 'heat-db.sql-1700000000.0.tar.bzip2')
    assert found.layers == ['bzip2', 'tar:heat-db.sql']


def test_a_tar_without_one_dump_lists_its_members(tmp_path):
    data = _tar({'a.sql': b'x', 'b.sql': b'y'})
    with pytest.raises(exceptions.CorruptDumpError) as err:
        extract(tmp_path, data, 'x.tar')
    assert 'members: a.sql, b.sql' in str(err.value)


def test_bzip2_and_damaged_gzip(tmp_path):
    data = HEADER + HEAT_TABLES + b'-- Dump completed\n'
    assert extract(tmp_path, bz2.compress(data)).layers == ['bzip2']
    with pytest.raises(exceptions.CorruptDumpError) as err:
        extract(tmp_path, gzip.compress(data)[:-20])
    assert 'damaged gzip' in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(exceptions.DumpNotFoundError):
        dump_input.extract(str(tmp_path / 'nope'), str(tmp_path))
