import datetime
import io
import os
import stat
import tarfile

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral import workdir
from tripleo_ephemeral.archives import install_archives as workdir_archive


def test_status_round_trip(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'oc').create()
    assert wd.status() is None
    wd.set_status(workdir.DEPLOY_FAILED)
    assert wd.status() == 'DEPLOY_FAILED'
    assert stat.S_IMODE(os.stat(wd.path).st_mode) == 0o700


def test_archive_keeps_modes_and_prunes(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'oc').create()
    secret = os.path.join(wd.path, 'oc-passwords.yaml')
    with open(secret, 'w') as f:
        f.write('x')
    os.chmod(secret, 0o600)
    os.makedirs(wd.heat_dir)
    open(os.path.join(wd.heat_dir, 'heat.sqlite'), 'w').close()
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    for i in range(workdir_archive.ARCHIVES_KEPT + 2):
        path = wd.archives.write(now=start + datetime.timedelta(minutes=i))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(wd.archives.all()) == workdir_archive.ARCHIVES_KEPT
    with tarfile.open(path) as tar:
        names = tar.getnames()
        member = tar.getmember('w/oc-passwords.yaml')
    assert stat.S_IMODE(member.mode) == 0o600
    assert not any('oc-install-' in n for n in names)
    assert not any(n.endswith('heat.sqlite') for n in names)


def test_safe_extract_refuses_traversal(tmp_path):
    evil = tmp_path / 'evil.tar.gz'
    with tarfile.open(evil, 'w:gz') as tar:
        data = b'pwned'
        info = tarfile.TarInfo('../outside.txt')
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    dest = tmp_path / 'dest'
    dest.mkdir()
    with pytest.raises(tarfile.TarError):
        fileutil.safe_extract(str(evil), str(dest))
    assert not (tmp_path / 'outside.txt').exists()


def test_layout():
    wd = workdir.WorkDir('/w', 'oc')
    assert wd.heat_dir == '/w/heat-launcher'
    assert wd.heat_dump == '/w/heat-launcher/heat-db-dump.sql.gz'
    assert wd.templates_dir == '/w/tripleo-heat-templates'
    assert wd.outputs_file == '/w/outputs/oc-outputs.yaml'
    assert wd.deployments_file == '/w/outputs/oc-deployments.yaml'
    assert wd.config_download_dir == '/w/config-download/oc'
    assert wd.agent_config_file('Compute', 1) == (
        '/w/os-collect-config/Compute-1.conf')
    assert [wd.passwords_file, wd.deployed_servers_file,
            wd.tht_parameters_file, wd.deploy_parameters_file,
            wd.deploy_inputs_file, wd.status_file, wd.last_success_file,
            wd.stack_size_file] == [
        '/w/oc-passwords.yaml', '/w/oc-deployed-servers.yaml',
        '/w/oc-tht-parameters.yaml', '/w/oc-deploy-parameters.yaml',
        '/w/oc-deploy-inputs.yaml', '/w/oc-deployment_status.yaml',
        '/w/oc-last-success.yaml', '/w/oc-stack-size.yaml']
    default = workdir.WorkDir(stack='oc')
    assert default.path == os.path.expanduser('~/overcloud-deploy/oc')


def test_generated_and_transient_files():
    wd = workdir.WorkDir('/w', 'oc')
    for path in (wd.passwords_file, wd.deployed_servers_file,
                 wd.tht_parameters_file, wd.deploy_parameters_file):
        assert workdir.is_generated_environment(path)
    assert not workdir.is_generated_environment('/e/network-isolation.yaml')
    for name in ('.tripleo-ephemeral.lock', 'heat.sqlite',
                 'heat.sqlite-wal', 'oc-install-20300101-000000.tar.gz'):
        assert workdir_archive.is_transient(name), name
    for name in ('heat-db-dump.sql.gz', 'oc-passwords.yaml', 'backup.tar.gz'):
        assert not workdir_archive.is_transient(name), name
    # config-download's history travels; a templates checkout's does not.
    for path in ('w/config-download/oc/.git', 'config-download/oc/.gitignore'):
        assert not workdir_archive.is_transient(path), path
    for path in ('w/tripleo-heat-templates/.git', 'w/.gitignore'):
        assert workdir_archive.is_transient(path), path


def test_load_is_a_hint(tmp_path):
    wd = workdir.WorkDir(str(tmp_path), 'oc')
    assert wd.load(wd.deploy_inputs_file) is None
    with open(wd.deploy_inputs_file, 'w') as f:
        f.write('a: [unclosed\n')
    assert wd.load(wd.deploy_inputs_file) is None
    wd.save(wd.deploy_inputs_file, {'a': 1})
    assert wd.load(wd.deploy_inputs_file) == {'a': 1}
    assert stat.S_IMODE(os.stat(wd.deploy_inputs_file).st_mode) == 0o600


def test_pruning_keeps_the_newest_successful_archive(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'oc').create()
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    good = wd.archives.write(now=start)
    for i in range(1, workdir_archive.ARCHIVES_KEPT + 3):
        wd.archives.write(now=start + datetime.timedelta(minutes=i),
                          succeeded=False)
    kept = wd.archives.all()
    assert good in kept and len(kept) == workdir_archive.ARCHIVES_KEPT + 1
    assert all(a.endswith('-failed.tar.gz') for a in kept if a != good)
    newer = wd.archives.write(now=start + datetime.timedelta(hours=1))
    assert good not in wd.archives.all() and newer in wd.archives.all()


def test_replace_dir_swaps_and_keeps_run_state(tmp_path):
    dest = tmp_path / 'cd' / 'oc'

    def build(files):
        def _build(path):
            for name in files:
                with open(os.path.join(path, name), 'w') as f:
                    f.write(name)
            return len(files)
        return _build
    assert fileutil.replace_dir(str(dest), build(['a', 'stale'])) == 2
    (dest / 'ansible.log').write_text('log')
    (dest / 'artifacts').mkdir()
    (dest / 'artifacts' / 'run1').write_text('events')
    fileutil.replace_dir(str(dest), build(['a', 'b']),
                         keep=('ansible.log', 'artifacts', 'absent'))
    assert sorted(os.listdir(dest)) == ['a', 'ansible.log', 'artifacts', 'b']
    assert (dest / 'artifacts' / 'run1').read_text() == 'events'
    assert os.listdir(tmp_path / 'cd') == ['oc']


def test_replace_dir_failure_keeps_the_old_one(tmp_path):
    dest = tmp_path / 'oc'
    dest.mkdir()
    (dest / 'a').write_text('old')

    def broken(path):
        with open(os.path.join(path, 'a'), 'w') as f:
            f.write('half')
        raise OSError(28, 'No space left on device')
    with pytest.raises(OSError):
        fileutil.replace_dir(str(dest), broken)
    assert (dest / 'a').read_text() == 'old'
    assert os.listdir(tmp_path) == ['oc']


def test_replace_dir_without_exchange(tmp_path, monkeypatch):
    monkeypatch.setattr(fileutil, '_exchange', lambda a, b: False)
    dest = tmp_path / 'oc'
    dest.mkdir()
    (dest / 'a').write_text('old')
    fileutil.replace_dir(str(dest), lambda p: open(
        os.path.join(p, 'a'), 'w').write('new'))
    assert (dest / 'a').read_text() == 'new'
    assert os.listdir(tmp_path) == ['oc']
    # A crash between the two renames left only "<dest>.old".
    os.rename(dest, str(dest) + '.old')
    fileutil.replace_dir(str(dest), lambda p: None, keep=('a',))
    assert (dest / 'a').read_text() == 'new'
    assert os.listdir(tmp_path) == ['oc']


@pytest.mark.parametrize('name', ['overcloud', 'a', 'site-1.b_c',
                                  'x' * 255])
def test_stack_names_heat_takes(name):
    workdir.check_stack_name(name)


@pytest.mark.parametrize('name', ['1site', 'over cloud', '../../evil',
                                  'a/b', '', '.hidden', 'x' * 256,
                                  'over\ncloud', 'é'])
def test_stack_names_heat_refuses(name):
    """Issue 29 case 5: Heat's rule (heat/engine/stack.py), which also
    keeps path separators out of the work dir's paths."""
    with pytest.raises(exceptions.InputError) as err:
        workdir.check_stack_name(name)
    assert str(err.value).startswith('--stack %r is not a valid stack '
                                     'name' % name)
    assert str(err.value).endswith('choose another --stack')
