"""Dumps as generations: what made each, the good ones kept apart."""

import os
import sqlite3

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import manual
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.tests.unit import fakes


def _heat_db(path, stacks):
    """A database with Heat's ``stack`` table (root stacks and one nested
    stack of each)."""
    conn = sqlite3.connect(str(path))
    conn.execute('CREATE TABLE stack (id VARCHAR(36), name TEXT, '
                 'owner_id VARCHAR(36))')
    for n in range(stacks):
        conn.execute('INSERT INTO stack VALUES (?, ?, NULL)', (str(n), 's'))
        conn.execute('INSERT INTO stack VALUES (?, ?, ?)',
                     ('n%d' % n, 'nested', str(n)))
    conn.commit()
    conn.close()
    return database.SqliteDatabase(str(path))


def _dump(store, tmp_path, origin, stacks=1):
    db = _heat_db(tmp_path / ('db-%s' % len(os.listdir(tmp_path))), stacks)
    path = db.dump(store)
    store.record_origin(path, origin, db.stack_count())
    return path


def test_the_good_dump_outlives_any_number_of_failures(tmp_path):
    store = dumps.DumpStore(str(tmp_path / 'heat'))
    os.makedirs(store.heat_dir)
    _dump(store, tmp_path, generations.DEPLOY_SUCCESS)
    good = store.generations()[0]['id']
    for origin in [generations.DEPLOY_FAILED] * 6 + [
            generations.DEPLOY_INTERRUPTED, generations.LAUNCH]:
        _dump(store, tmp_path, origin)
    gens = store.generations()
    assert len(store.all()) == dumps.DUMP_KEEP
    assert [g['origin'] for g in gens if g['id'] == good] == [
        generations.DEPLOY_SUCCESS]
    kept = store.resolve(generations.LAST_SUCCESS)
    assert os.path.basename(kept) == dumps.SUCCESS_NAME
    assert store.resolve(good) == kept
    assert store.resolve(None) == store.latest
    assert gens[0]['origin'] == generations.LAUNCH


def test_only_the_last_successes_are_kept(tmp_path):
    store = dumps.DumpStore(str(tmp_path / 'heat'))
    os.makedirs(store.heat_dir)
    for _ in range(generations.SUCCESS_KEEP + 2):
        _dump(store, tmp_path, generations.DEPLOY_SUCCESS)
    assert len(store.successes()) == generations.SUCCESS_KEEP
    # A hard link: no second copy on disk.
    assert os.stat(store.latest).st_ino == os.stat(
        store.successes()[0]).st_ino
    ids = [g['id'] for g in store.generations()]
    assert len(ids) == len(set(ids)) == dumps.DUMP_KEEP


def test_unknown_dump_names_the_kept_ones(tmp_path):
    store = dumps.DumpStore(str(tmp_path / 'heat'))
    os.makedirs(store.heat_dir)
    with pytest.raises(exceptions.DumpNotFoundError, match='last-success'):
        store.resolve(generations.LAST_SUCCESS)
    _dump(store, tmp_path, generations.LAUNCH)
    with pytest.raises(exceptions.DumpNotFoundError,
                       match=store.generations()[0]['id']):
        store.resolve('nope')


def test_corrupt_dump_error_says_how_to_restore_another(tmp_path):
    store = dumps.DumpStore(str(tmp_path))
    with open(store.latest, 'wb') as f:
        f.write(b'not gzip')
    with pytest.raises(exceptions.CorruptDumpError,
                       match='--restore-db <id>.*saved dump list'):
        store.read_verified(store.latest)


@pytest.fixture
def launcher(tmp_path, monkeypatch):
    monkeypatch.setattr(readiness, 'check_port_free', lambda h, p: None)
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    return fakes.FakeLauncher(str(tmp_path / 'heat'), startup_timeout=1)


def test_an_empty_database_is_not_dumped_over_a_real_one(launcher):
    launcher.start()
    _heat_db(launcher.database.path, 1)
    first = launcher.stop(dump=True)
    assert first and launcher.dumps.generations()[0]['stacks'] == 1
    before = open(first, 'rb').read()
    launcher.start()
    _heat_db(launcher.database.path, 0)  # a launch and a kill, no stack
    assert launcher.stop(dump=True) is None
    assert open(launcher.dumps.latest, 'rb').read() == before
    assert len(launcher.dumps.all()) == 1
    assert not os.path.exists(launcher.database.path)


def test_each_launch_has_a_new_secret_in_its_endpoint(launcher):
    launcher.start()
    first = launcher.endpoint
    secret = launcher.files.api_secret
    assert first == '%s/%s/v1/admin' % (launcher.api_url, secret)
    assert oct(os.stat(launcher.files.secret_file).st_mode & 0o777) == '0o600'
    for name in ('heatrc', 'clouds.yaml', 'token_file.json'):
        assert first in open(launcher.files.path(name)).read(), name
    launcher.stop(dump=False)
    launcher.start()
    assert launcher.endpoint != first
    launcher.stop(dump=False)


def test_launch_on_a_deployment_needs_restore_or_empty(tmp_path):
    store = dumps.DumpStore(str(tmp_path))
    manual.check_launch(str(tmp_path), None, False)  # no dumps: fine
    _dump(store, tmp_path, generations.DEPLOY_SUCCESS)
    with pytest.raises(exceptions.LauncherError, match='--empty'):
        manual.check_launch(str(tmp_path), None, False)
    manual.check_launch(str(tmp_path), 'newest', False)
    manual.check_launch(str(tmp_path), None, True)


def test_kill_of_a_missing_heat_dir_creates_nothing(tmp_path):
    missing = tmp_path / 'typo' / 'heat-launcher'
    with pytest.raises(exceptions.NotRunningError, match='No heat dir'):
        manual.check_kill(str(missing), [str(tmp_path)])
    assert not (tmp_path / 'typo').exists()


def test_a_kept_running_deploys_outcome_goes_to_its_kill_dump(launcher):
    from tripleo_ephemeral.deploy import outcome

    launcher.start()
    _heat_db(launcher.database.path, 1)
    outcome.record(launcher, None, succeeded=True)
    path = launcher.stop(dump=True)  # --kill's default origin: launch
    [gen] = launcher.dumps.generations()
    assert gen['origin'] == generations.DEPLOY_SUCCESS and gen['kept']
    assert launcher.dumps.resolve(generations.LAST_SUCCESS) != path
    assert launcher.state.load()['dump_origin'] is None
