"""The user's cache (:mod:`tripleo_ephemeral.usercache`): real files, a
real umask, real owners (root can give a directory to another uid)."""

import logging
import os
import stat

import pytest

from tripleo_ephemeral import usercache

OTHER_UID = 65534  # nobody

as_root = pytest.mark.skipif(os.geteuid() != 0,
                             reason='giving a file to another uid needs root')


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def _warnings(caplog):
    return [r.getMessage() for r in caplog.records
            if r.levelno == logging.WARNING]


@pytest.fixture
def umask_000():
    old = os.umask(0)
    yield
    os.umask(old)


def test_made_private_whatever_the_umask(tmp_path, umask_000):
    cache = usercache.UserCache(str(tmp_path / 'home' / '.cache' / 'te'))
    assert cache.directory('parsed') == str(tmp_path / 'home' / '.cache' /
                                            'te' / 'parsed')
    for path in ('home', 'home/.cache', 'home/.cache/te',
                 'home/.cache/te/parsed'):
        assert _mode(tmp_path / path) == 0o700, path
    assert _mode(tmp_path / 'home/.cache/te' / usercache.KEY_NAME) == 0o600


def test_the_default_root_is_under_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path))
    assert usercache.root_path() == str(tmp_path / 'tripleo-ephemeral')
    monkeypatch.delenv('XDG_CACHE_HOME')
    monkeypatch.setenv('HOME', str(tmp_path / 'h'))
    assert usercache.root_path() == str(tmp_path / 'h' / '.cache' /
                                        'tripleo-ephemeral')


def test_an_entry_is_the_users_own(tmp_path):
    mine = usercache.UserCache(str(tmp_path / 'mine'))
    theirs = usercache.UserCache(str(tmp_path / 'theirs'))
    assert mine.usable() and theirs.usable()
    blob = mine.seal('parsed/a', b'data')
    assert mine.unseal('parsed/a', blob) == b'data'
    assert mine.unseal('parsed/b', blob) is None  # another entry's
    assert theirs.unseal('parsed/a', blob) is None  # another key's
    assert mine.unseal('parsed/a', blob[:-1]) is None
    assert mine.unseal('parsed/a', b'') is None
    # The key is kept: the next process reads what this one sealed.
    again = usercache.UserCache(str(tmp_path / 'mine'))
    assert again.unseal('parsed/a', blob) == b'data'


def test_a_failed_entry_is_dropped_and_named_once(tmp_path, caplog):
    cache = usercache.UserCache(str(tmp_path / 'c'))
    path = os.path.join(cache.directory('d'), 'e')
    assert cache.write(path, 'd/e', b'data')
    assert cache.read(path, 'd/e') == b'data'
    assert cache.read(path, 'd/other') is None
    assert not os.path.exists(path)
    assert cache.read(path, 'd/e') is None  # gone: nothing to say
    assert _warnings(caplog) == [
        'The cache entry %s failed its check (damaged, or not written by '
        'you) and was removed' % path]


def test_a_cache_that_cannot_be_written_is_named_once(tmp_path, caplog):
    cache = usercache.UserCache(str(tmp_path / 'c'))
    directory = cache.directory('d')
    blocked = os.path.join(directory, 'blocked')
    os.mkdir(blocked)  # renaming a file over a directory fails
    assert not cache.write(blocked, 'd/blocked', b'x')
    assert not cache.write(os.path.join(directory, 'fine'), 'd/fine', b'x')
    assert os.listdir(directory) == ['blocked']  # no temporary file left
    assert len(_warnings(caplog)) == 1
    assert _warnings(caplog)[0].startswith(
        'The cache %s cannot be written (' % cache.root)


@as_root
def test_another_users_cache_is_refused(tmp_path, caplog):
    root = tmp_path / 'c'
    root.mkdir(mode=0o700)
    os.chown(root, OTHER_UID, OTHER_UID)
    cache = usercache.UserCache(str(root))
    assert not cache.usable() and cache.directory('d') is None
    assert cache.path('x') is None
    assert _warnings(caplog) == [
        'The cache %s is not used: it belongs to uid %d, not to you (uid '
        '%d): remove it (it may hold what another user planted); commands '
        'run without it, only slower' % (root, OTHER_UID, os.geteuid())]


@as_root
def test_another_users_directory_or_key_inside_is_refused(tmp_path, caplog):
    cache = usercache.UserCache(str(tmp_path / 'c'))
    assert cache.usable()
    planted = tmp_path / 'c' / 'd'
    planted.mkdir(mode=0o700)
    os.chown(planted, OTHER_UID, OTHER_UID)
    assert cache.directory('d') is None
    key = tmp_path / 'k' / usercache.KEY_NAME
    key.parent.mkdir(mode=0o700)
    key.write_bytes(os.urandom(32))
    os.chown(key, OTHER_UID, OTHER_UID)
    assert not usercache.UserCache(str(key.parent)).usable()
    assert [w.split(':')[0] for w in _warnings(caplog)] == [
        'The cache %s is not used' % planted,
        'The cache %s is not used' % key.parent]


def test_a_cache_others_may_write_is_refused(tmp_path, caplog):
    root = tmp_path / 'c'
    root.mkdir()
    os.chmod(root, 0o777)
    assert not usercache.UserCache(str(root)).usable()
    loose = usercache.UserCache(str(tmp_path / 'ok'))
    assert loose.usable()
    os.chmod(tmp_path / 'ok' / usercache.KEY_NAME, 0o644)
    assert not usercache.UserCache(str(tmp_path / 'ok')).usable()
    assert ['writable by others (mode 0777)' in _warnings(caplog)[0],
            'is not a key of yours' in _warnings(caplog)[1]] == [True, True]


def test_strict_directories_need_a_safe_path(tmp_path, caplog):
    """What cannot be sealed is kept only where no directory above lets
    another user swap it: a directory others may write needs the sticky
    bit (as /tmp has)."""
    shared = tmp_path / 'shared'
    shared.mkdir()
    os.chmod(shared, 0o777)
    cache = usercache.UserCache(str(shared / 'c'))
    assert cache.directory('sealed') is not None
    assert cache.directory('images', strict=True) is None
    assert 'above it, is writable by others' in _warnings(caplog)[0]
    os.chmod(shared, 0o1777)
    assert usercache.UserCache(str(shared / 'c')).directory(
        'images', strict=True) is not None


def test_one_cache_per_root_in_a_process(tmp_path):
    assert usercache.cache(str(tmp_path)) is usercache.cache(
        str(tmp_path) + '/')


def test_a_umask_000_entry_point_cache_is_closed(tmp_path, monkeypatch,
                                                 caplog):
    """openstackclient makes ~/.cache/python-entrypoints before the plugin
    can set a umask: under 000 the command closes it to others."""
    cache = tmp_path / 'cache'
    entry_points = cache / usercache.ENTRY_POINTS
    entry_points.mkdir(parents=True)
    made = entry_points / 'abc123'
    made.write_text('{}')
    for path, mode in ((cache, 0o777), (entry_points, 0o777), (made, 0o666)):
        os.chmod(path, mode)
    monkeypatch.setenv('XDG_CACHE_HOME', str(cache))
    closed = usercache.close_entry_point_cache()
    assert closed == [str(cache), str(entry_points), str(made)]
    assert [stat.S_IMODE(os.stat(p).st_mode)
            for p in (cache, entry_points, made)] == [0o755, 0o755, 0o644]
    assert 'Closed to other users' in caplog.text
    caplog.clear()
    assert usercache.close_entry_point_cache() == []  # said once
    assert caplog.text == ''
