"""Disk full and read-only dirs, caused for real with mounts (root only)."""

import os
import subprocess

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import database
from tripleo_ephemeral.heat_launcher import dumps
from tripleo_ephemeral.tests import heat_sqlite


def _mount(*args):
    return subprocess.run(['mount'] + list(args), capture_output=True,
                          text=True).returncode == 0


@pytest.fixture
def small_tmpfs(tmp_path):
    path = tmp_path / 'small'
    path.mkdir()
    if os.geteuid() != 0 or not _mount('-t', 'tmpfs', '-o', 'size=300k',
                                       'tmpfs', str(path)):
        pytest.skip('needs root and mount(8) to make a small tmpfs')
    yield path
    subprocess.run(['umount', '-l', str(path)], check=False)


@pytest.fixture
def read_only_dir(tmp_path):
    path = tmp_path / 'ro'
    path.mkdir()
    if os.geteuid() != 0 or not _mount('--bind', str(path), str(path)) or \
            not _mount('-o', 'remount,bind,ro', str(path)):
        subprocess.run(['umount', '-l', str(path)], check=False)
        pytest.skip('needs root and mount(8) for a read-only bind mount')
    yield path
    subprocess.run(['umount', '-l', str(path)], check=False)


def test_dump_on_a_full_disk_keeps_the_last_good_dump(tmp_path, small_tmpfs):
    # Random bytes: the dump is 360 kB of hex text, about 180 kB gzipped,
    # so a second dump beside the first does not fit in 300 kB.
    db_path = heat_sqlite.stack_db(tmp_path / 'heat.sqlite',
                                   rows=[('1', os.urandom(180000))])
    db = database.SqliteDatabase(db_path)
    store = dumps.DumpStore(str(small_tmpfs))
    good = db.dump(store)
    before = open(good, 'rb').read()
    with pytest.raises(exceptions.DatabaseError, match='previous dump'):
        db.dump(store)  # no room for a second copy beside the first
    assert open(good, 'rb').read() == before
    assert [n for n in os.listdir(small_tmpfs)
            if n.endswith('.tmp') or n.endswith('.new')] == []
    db.remove()
    db.restore(store)  # the kept dump is whole


def test_launch_in_a_read_only_dir_is_a_one_line_error(cli, read_only_dir,
                                                       port):
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir',
                   str(read_only_dir / 'heat'), '--heat-api-port', str(port),
                   check=False)
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr
    assert 'choose a writable --heat-dir' in proc.stderr
