"""What in a work dir is the product's, and which directories it may use."""

import inspect
import os
import tarfile

import pytest

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral.lifecycle import teardown
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tests import tripleoclient_workdir
from tripleo_ephemeral import workdir
from tripleo_ephemeral.workdir import claim
from tripleo_ephemeral.workdir import foreign
from tripleo_ephemeral.workdir import layout
from tripleo_ephemeral.workdir import ownership


def _operators_files(path):
    """What an operator keeps in a directory they deploy into."""
    (path / '.ssh').mkdir(parents=True)
    (path / '.ssh' / 'id_rsa').write_text('PRIVATE')
    (path / 'docs').mkdir()
    (path / 'docs' / 'runbook.md').write_text('# how we deploy\n')
    (path / 'overcloud-notes.txt').write_text('mine\n')


def _deployed(path, stack='overcloud'):
    """The product's files of a deploy of ``stack`` in ``path``."""
    wd = workdir.WorkDir(str(path), stack).create()
    wd.set_status(workdir.DEPLOY_SUCCESS)
    wd.save(wd.passwords_file, {'parameter_defaults': {'AdminPassword': 'p'}})
    wd.save(wd.deploy_inputs_file, {'roles': 'r'})
    os.makedirs(os.path.join(wd.config_download_dir, '.git'))
    with open(os.path.join(wd.config_download_dir, '.gitignore'), 'w') as f:
        f.write('.ansible\n')
    os.makedirs(os.path.join(wd.config_download_dir, '.ansible', 'tmp'))
    os.makedirs(wd.outputs_dir, exist_ok=True)
    wd.save(wd.outputs_file, {'KeystoneURL': 'http://x'})
    os.makedirs(wd.heat_dir, exist_ok=True)
    with open(os.path.join(wd.heat_dir, 'heat-db-dump.sql.gz'), 'wb') as f:
        f.write(b'dump')
    with open(os.path.join(wd.heat_dir, '.heat-db-image.sqlite'), 'wb') as f:
        f.write(b'cache')
    with open(wd.rc_file, 'w') as f:
        f.write('export OS_PASSWORD=p\n')
    return wd


def test_every_top_level_file_the_work_dir_spells_is_the_products():
    wd = workdir.WorkDir('/w', 'oc')
    shown = set(layout.STACK_FILES) | set(layout.SHARED_PATHS)
    for name, member in inspect.getmembers(workdir.WorkDir):
        if isinstance(member, property):
            path = getattr(wd, name)
            if isinstance(path, str) and os.path.dirname(path) == wd.path:
                assert name in shown, name
    ours = layout.Layout(wd, ['oc'])
    for name in ('oc-passwords.yaml', 'ocrc', 'oc-export.yaml',
                 'oc-cell-export.yaml', 'tripleo-oc-roles-data.yaml',
                 'oc-install-20300101-000000.tar.gz', 'heat-launcher',
                 'config-download', 'clouds.yaml', claim.NAME,
                 '.tripleo-ephemeral.lock', '.before-deploy',
                 '.oc-passwords.yaml.x1y2.tmp', 'ssh_private_key.pub',
                 '.tripleo-heat-templates.new-1',
                 'tripleo-heat-templates.old'):
        assert ours.owns(name), name
    for name in ('.ssh', 'docs', 'oc-notes.txt', 'other-passwords.yaml',
                 'oc-install-1.tar.bzip2', '.bashrc', 'environment'):
        assert not ours.owns(name), name


def test_a_deploy_into_the_operators_directory_is_allowed(tmp_path):
    _operators_files(tmp_path / 'w')
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'overcloud')
    ownership.check(wd)  # allowed: nothing of theirs is overwritten
    _deployed(tmp_path / 'w')
    ours, others = layout.Layout(wd).split()
    assert others == ['.ssh', 'docs', 'overcloud-notes.txt']
    assert claim.stacks(wd.path) == ['overcloud']


def test_delete_keeps_the_operators_files(tmp_path):
    _operators_files(tmp_path / 'w')
    wd = _deployed(tmp_path / 'w')
    done = teardown.delete(wd)
    assert sorted(os.listdir(wd.path)) == [
        '.ssh', 'docs', 'overcloud-notes.txt']
    assert (tmp_path / 'w' / '.ssh' / 'id_rsa').read_text() == 'PRIVATE'
    assert done['kept'] == ['.ssh', 'docs', 'overcloud-notes.txt']
    assert done['work_dir_removed'] is False
    with tarfile.open(done['archive']) as tar:
        names = tar.getnames()
    # The archive holds what was removed, hidden files of the product
    # included; caches and the operator's files are left out.
    for name in ('w/overcloud-passwords.yaml', 'w/overcloudrc', 'w/' +
                 claim.NAME, 'w/config-download/overcloud/.git',
                 'w/config-download/overcloud/.gitignore',
                 'w/heat-launcher/heat-db-dump.sql.gz'):
        assert name in names, name
    for name in ('w/.ssh', 'w/docs', 'w/overcloud-notes.txt',
                 'w/config-download/overcloud/.ansible',
                 'w/heat-launcher/.heat-db-image.sqlite',
                 'w/.tripleo-ephemeral.lock'):
        assert name not in names, name


def test_delete_of_a_whole_work_dir_removes_it(tmp_path):
    wd = _deployed(tmp_path / 'w')
    done = teardown.delete(wd, archive=False)
    assert done['work_dir_removed'] and not os.path.exists(wd.path)


def test_delete_of_one_stack_of_two_keeps_the_other(tmp_path):
    a = _deployed(tmp_path / 'w', 'a')
    b = _deployed(tmp_path / 'w', 'b')
    assert claim.stacks(a.path) == ['a', 'b']
    done = teardown.delete(a, archive=False)
    left = sorted(os.listdir(a.path))
    assert 'a-passwords.yaml' not in left and 'arc' not in left
    assert not os.path.exists(a.config_download_dir)
    assert not os.path.exists(a.outputs_file)
    for path in (b.passwords_file, b.config_download_dir, b.outputs_file,
                 b.heat_dump):
        assert os.path.exists(path), path
    assert claim.stacks(a.path) == ['b']
    assert 'b-passwords.yaml' in done['kept']
    teardown.delete(b, archive=False)
    assert not os.path.exists(a.path)


def test_an_archive_says_what_it_left_out(tmp_path):
    _operators_files(tmp_path / 'w')
    wd = _deployed(tmp_path / 'w')
    archives = install_archives.Archives(wd)
    path = archives.write()
    assert archives.members()[1] == [
        '.ssh', 'docs', 'overcloud-notes.txt']
    with tarfile.open(path) as tar:
        names = tar.getnames()
    assert 'w/overcloud-passwords.yaml' in names
    assert not any(n.startswith(('w/.ssh', 'w/docs')) for n in names)


def test_a_tripleoclient_work_dir_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / 'overcloud-deploy' / 'overcloud'
    dump = tripleoclient_workdir.make(str(path))
    before = tripleoclient_workdir.snapshot(str(path))
    wd = workdir.WorkDir(str(path), 'overcloud')
    with pytest.raises(exceptions.ForeignWorkDirError) as err:
        ownership.check(wd)
    message = str(err.value)
    assert '\n' not in message
    assert message.startswith(
        '%s holds a deployment another tool made (tripleoclient\'s '
        'overcloud-deployment_status.yaml: DEPLOY_SUCCESS, heat-launcher/'
        'heat-db.sql-' % path)
    assert ('"openstack overcloud adopt --stack overcloud --heat-db-dump %s '
            '--heat-db-auth-encryption-key ~/heat-17.1-key --work-dir '
            '%s-ephemeral" (~/heat-17.1-key holds the auth_encryption_key of '
            'its Heat' % (dump, path)) in message
    with pytest.raises(exceptions.ForeignWorkDirError, match='--heat-dir'):
        ownership.check_heat_dir(wd.heat_dir, 'overcloud')
    # Another stack in the same directory is refused as well.
    with pytest.raises(exceptions.ForeignWorkDirError, match='tripleoclient'):
        ownership.check(workdir.WorkDir(str(path), 'site1'))
    with pytest.raises(exceptions.ForeignWorkDirError, match='adopt'):
        teardown.check_work_dir(wd)
    assert tripleoclient_workdir.snapshot(str(path)) == before


def test_the_way_in_names_a_native_heats_database(tmp_path):
    path = tmp_path / 'overcloud'
    database = tripleoclient_workdir.make(str(path), heat_type='native')
    with pytest.raises(exceptions.ForeignWorkDirError) as err:
        ownership.check(workdir.WorkDir(str(path), 'overcloud'))
    assert '--heat-db-dump %s --heat-db-auth-encryption-key' % database \
        in str(err.value)
    assert database.endswith('/tripleo_deploy-x1y2z3/heat.sqlite.db')


@pytest.mark.parametrize('text, shown', [
    ('DEPLOY_SUCCESS\n', "not a deployment status: 'DEPLOY_SUCCESS'"),
    ('- a\n- b\n', "not a deployment status: ['a', 'b']"),
    ('deployment_status: [1]\n', 'not a deployment status'),
    ('a: [unclosed\n', 'unreadable: ')])
def test_any_status_file_is_named_in_one_line(tmp_path, text, shown):
    tripleoclient_workdir.make(str(tmp_path / 'w'), status=text)
    with pytest.raises(exceptions.ForeignWorkDirError) as err:
        ownership.check(workdir.WorkDir(str(tmp_path / 'w'), 'overcloud'))
    assert 'overcloud-deployment_status.yaml: %s' % shown in str(err.value)


@pytest.mark.parametrize('text', ['DEPLOY_SUCCESS\n', '[1, 2]\n',
                                  'deployment_status: {a: 1}\n', '{[\n'])
def test_a_bad_status_file_of_the_products_is_one_line(tmp_path, text):
    wd = _deployed(tmp_path / 'w')
    with open(wd.status_file, 'w') as f:
        f.write(text)
    with pytest.raises(exceptions.WorkDirError) as err:
        ownership.check(wd)
    message = str(err.value)
    assert message.startswith('%s holds no deployment status (' %
                              wd.status_file)
    assert 'attribute' not in message and '\n' not in message


def test_a_file_the_product_would_overwrite_is_refused(tmp_path):
    (tmp_path / 'w').mkdir()
    (tmp_path / 'w' / 'clouds.yaml').write_text('clouds: {}\n')
    (tmp_path / 'w' / 'notes').write_text('x')
    with pytest.raises(exceptions.ForeignWorkDirError) as err:
        ownership.check(workdir.WorkDir(str(tmp_path / 'w'), 'overcloud'))
    assert str(err.value) == (
        '%s holds clouds.yaml, which this product did not write and would '
        'overwrite: move it away, or choose another --work-dir'
        % (tmp_path / 'w'))


def test_work_dirs_of_earlier_versions_are_the_products(tmp_path):
    """Written before the claim: a file only the product writes."""
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'overcloud')
    os.makedirs(wd.heat_dir)
    wd.set_status(workdir.DEPLOY_SUCCESS)
    with pytest.raises(exceptions.ForeignWorkDirError):
        ownership.check(wd)
    with open(os.path.join(wd.heat_dir, 'launcher-state.json'), 'w') as f:
        f.write('{}')
    ownership.check(wd)
    assert ownership.stacks(wd) == ['overcloud']


def test_heat_dirs(tmp_path):
    ownership.check_heat_dir(str(tmp_path / 'new'), 'overcloud')
    mine = tmp_path / 'mine'
    mine.mkdir()
    (mine / 'api_secret').write_text('s')
    ownership.check_heat_dir(str(mine), 'overcloud')
    (tmp_path / 'other').mkdir()
    (tmp_path / 'other' / 'photo.jpg').write_text('x')
    with pytest.raises(exceptions.ForeignWorkDirError,
                       match='holds photo.jpg, which this product did not'):
        ownership.check_heat_dir(str(tmp_path / 'other'), 'overcloud')


def test_a_claim_that_is_not_the_products(tmp_path):
    (tmp_path / 'w').mkdir()
    (tmp_path / 'w' / claim.NAME).write_text('product: other\n')
    with pytest.raises(exceptions.ForeignWorkDirError,
                       match='is not a claim of tripleo-ephemeral'):
        ownership.check(workdir.WorkDir(str(tmp_path / 'w'), 'overcloud'))


def test_tripleoclient_evidence_needs_its_layout(tmp_path):
    assert foreign.Tripleoclient(str(tmp_path / 'none')).evidence() == []
    _operators_files(tmp_path / 'w')
    assert foreign.Tripleoclient(str(tmp_path / 'w')).evidence() == []
