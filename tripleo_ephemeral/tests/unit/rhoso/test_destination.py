"""Where an export may write, and that it never destroys what it did not
write: the work dir, its parents, config-download, a directory of the
operator's, a file added or changed since, the siblings."""

import os

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import destination
from tripleo_ephemeral.rhoso import export
from tripleo_ephemeral.rhoso import export_files
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import writing
from tripleo_ephemeral.tests import rhoso_workdir
from tripleo_ephemeral import workdir
from tripleo_ephemeral.workdir import claim


@pytest.fixture
def wd(tmp_path):
    path = rhoso_workdir.write(str(tmp_path / 'wd'))
    claim.add(path, 'overcloud')
    return workdir.WorkDir(path)


def _export(wd, dest, overwrite=False):
    replaced = destination.check(dest, wd, overwrite)
    built = export.build(wd, plan.choices(
        '18.0-fr6', networkers=['Networker'], skipped=['Controller']))
    writing.write(dest, export_files.files(built),
                  export_files.private_dirs(built))
    return replaced


def _refused(wd, dest, overwrite=True):
    with pytest.raises(exceptions.RhosoExportError) as caught:
        destination.check(dest, wd, overwrite)
    assert '\n' not in str(caught.value)
    return str(caught.value)


def test_never_the_work_dir_nor_what_holds_it(wd, tmp_path):
    assert 'is the work dir or holds it' in _refused(wd, wd.path)
    assert 'is the work dir or holds it' in _refused(wd, str(tmp_path))
    assert 'is the work dir or holds it' in _refused(wd, '/')


def test_never_config_download_nor_elsewhere_in_a_work_dir(wd, tmp_path):
    assert 'inside a config-download directory' in _refused(
        wd, os.path.join(wd.config_download_dir, 'kit'))
    assert 'inside a config-download directory' in _refused(
        wd, str(tmp_path / 'config-download' / 'kit'))
    message = _refused(wd, os.path.join(wd.path, 'outputs', 'kit'))
    assert message == (
        '--output-dir %s is inside the work dir %s, which keeps only what '
        'the product writes there: use %s or a directory outside it' % (
            os.path.join(wd.path, 'outputs', 'kit'), wd.path,
            wd.rhoso_export_dir))


def test_never_a_directory_of_the_operators(wd, tmp_path):
    mine = tmp_path / 'mine'
    mine.mkdir()
    (mine / 'notes.txt').write_text('mine')
    assert 'exists and is no export' in _refused(wd, str(mine))
    (tmp_path / 'file').write_text('x')
    assert 'is not a directory' in _refused(wd, str(tmp_path / 'file'))
    os.symlink(str(mine), str(tmp_path / 'link'))
    assert 'is a symbolic link' in _refused(wd, str(tmp_path / 'link'))
    assert (mine / 'notes.txt').read_text() == 'mine'


def test_an_earlier_export_is_replaced_only_untouched(wd, tmp_path):
    dest = str(tmp_path / 'kit')
    old = tmp_path / 'kit.old'
    old.mkdir()
    (old / 'precious.txt').write_text('keep')
    (tmp_path / 'kit.other').write_text('keep too')
    assert _export(wd, dest) is False
    assert 'pass --overwrite' in _refused(wd, dest, overwrite=False)
    assert _export(wd, dest, overwrite=True) is True
    assert sorted(os.listdir(str(tmp_path))) == [
        'kit', 'kit.old', 'kit.other', 'wd']
    assert (old / 'precious.txt').read_text() == 'keep'
    with open(os.path.join(dest, 'report.md'), 'a') as f:
        f.write('my notes\n')
    assert _refused(wd, dest) == (
        '--output-dir %s holds report.md (changed since the export wrote '
        'it): move it away to keep it, then export again' % dest)
    os.unlink(os.path.join(dest, 'report.md'))
    with open(os.path.join(dest, '53-compute-nodesets', 'mine.yaml'),
              'w') as f:
        f.write('kind: Mine\n')
    assert 'holds 53-compute-nodesets/mine.yaml (a file no export wrote)' \
        in _refused(wd, dest)


def test_a_failed_write_leaves_the_earlier_export(wd, tmp_path):
    dest = str(tmp_path / 'kit')
    _export(wd, dest)
    before = sorted(os.listdir(dest))

    class Boom(Exception):
        pass

    class Broken(writing.File):
        @property
        def text(self):
            raise Boom()

        @text.setter
        def text(self, value):
            pass

    with pytest.raises(Boom):
        writing.write(dest, [writing.File('a', 'x'), Broken('b', 'y')])
    assert sorted(os.listdir(dest)) == before
    assert sorted(os.listdir(str(tmp_path))) == ['kit', 'wd']
