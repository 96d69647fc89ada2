"""Disk full and read-only dirs, caused for real with mounts (root only)."""

import os
import subprocess

import pytest

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.tests import heat_sqlite


def _mount(*args):
    return subprocess.run(['mount'] + list(args), capture_output=True,
                          text=True).returncode == 0


def _tmpfs(tmp_path, name, size):
    path = tmp_path / name
    path.mkdir()
    if os.geteuid() != 0 or not _mount('-t', 'tmpfs', '-o', 'size=%s' % size,
                                       'tmpfs', str(path)):
        pytest.skip('needs root and mount(8) to make a small tmpfs')
    yield path
    subprocess.run(['umount', '-l', str(path)], check=False)


@pytest.fixture
def small_tmpfs(tmp_path):
    yield from _tmpfs(tmp_path, 'small', '300k')


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


@pytest.fixture
def two_mib_tmpfs(tmp_path):
    yield from _tmpfs(tmp_path, 'full', '2m')


def test_a_full_disk_names_the_file_it_could_not_write(cli, two_mib_tmpfs,
                                                       port):
    """Issue 36: "Cannot write : No space left on device" named no path
    (a write(2) error carries none), and a Heat whose SQLite database
    could not grow left the stack waiting forever; now the deploy stops
    at once, naming the full directory, and every write names its file
    (shutil's copies the first file they could not copy)."""
    from tripleo_ephemeral.tests.functional import helpers
    work_dir = two_mib_tmpfs / 'wd'
    done = cli.deploy(work_dir, port=port, check=False, timeout=300)
    error = helpers.one_line_error(done.proc)
    assert error.startswith((
        'Cannot write %s/' % work_dir,
        'Stack overcloud stopped: the file system of %s/heat-launcher is '
        'full' % work_dir)), error
    assert error.endswith(('No space left on device; choose a writable '
                           '--work-dir or free space there',
                           'free space there and deploy again')), error
    # The launcher's state may say "running": it could not be rewritten on
    # the full disk. No process is left, nothing listens.
    import psutil

    from tripleo_ephemeral.heat_launcher import state as launcher_state
    pid = launcher_state.LauncherState(str(helpers.Layout(
        work_dir).heat_dir)).load().get('pid')
    assert pid is None or not psutil.pid_exists(pid) or \
        psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert not [c for c in psutil.net_connections('inet')
                if c.status == psutil.CONN_LISTEN and c.laddr.port == port]


def _leftovers(path):
    return [n for n in os.listdir(path) if n.startswith('.')]


def _render_into(dest, outputs):
    from tripleo_ephemeral.ansible import run as ansible_run
    from tripleo_ephemeral import fileutil
    from tripleo_ephemeral.overcloud import config_download

    return fileutil.replace_dir(dest, lambda path: config_download.render(
        outputs, path, 'oc'), keep=ansible_run.RUN_STATE)


def test_config_download_on_a_full_disk_keeps_the_last_project(small_tmpfs):
    from tripleo_ephemeral.tests.unit import fakes

    dest = small_tmpfs / 'config-download' / 'oc'
    _render_into(str(dest), fakes.outputs())
    (dest / 'ssh_known_hosts').write_text('host key\n')
    before = sorted(p.relative_to(dest) for p in dest.rglob('*'))
    playbook = (dest / 'deploy_steps_playbook.yaml').read_text()
    big = fakes.outputs()
    big['RoleConfig']['deploy_steps_playbook'] = 'x' * 400000
    with pytest.raises(OSError):
        _render_into(str(dest), big)
    assert sorted(p.relative_to(dest) for p in dest.rglob('*')) == before
    assert (dest / 'deploy_steps_playbook.yaml').read_text() == playbook
    assert _leftovers(dest.parent) == []
    # Rendered again with room: the run state (known hosts) is kept.
    _render_into(str(dest), fakes.outputs())
    assert (dest / 'ssh_known_hosts').read_text() == 'host key\n'


def test_outputs_on_a_full_disk_keep_the_last_pair(small_tmpfs):
    from tripleo_ephemeral.overcloud import outputs as stack_outputs

    paths = (str(small_tmpfs / 'oc-outputs.yaml'),
             str(small_tmpfs / 'oc-deployments.yaml'))
    stack_outputs.save(*paths, {'a': 1}, [{'id': 'd1'}])
    with pytest.raises(OSError):
        stack_outputs.save(*paths, {'a': 2}, [{'id': 'x' * 400000}])
    assert stack_outputs.load(*paths) == ({'a': 1}, [{'id': 'd1'}])
    assert _leftovers(small_tmpfs) == []


def test_archive_on_a_full_disk_keeps_the_last_one(small_tmpfs):
    import datetime

    from tripleo_ephemeral import workdir

    wd = workdir.WorkDir(str(small_tmpfs / 'work'), 'oc').create()
    wd.save(wd.passwords_file, {'a': 1})
    archives = install_archives.Archives(wd)
    first = archives.write(now=datetime.datetime(2026, 1, 1))
    before = open(first, 'rb').read()
    os.makedirs(wd.heat_dir)  # the product's files, which it archives
    with open(wd.heat_dump, 'wb') as f:
        f.write(os.urandom(200000))
    with pytest.raises(exceptions.WorkDirError,
                       match='Could not write the archive .*oc-install-'):
        archives.write(now=datetime.datetime(2026, 1, 2))
    assert archives.all() == [first]
    assert open(first, 'rb').read() == before
    assert _leftovers(small_tmpfs / 'work') == []
