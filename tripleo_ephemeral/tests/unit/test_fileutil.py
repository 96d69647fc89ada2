"""Safe extraction and directory swaps."""

import errno
import io
import os
import tarfile

import pytest

from tripleo_ephemeral import fileutil


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


@pytest.mark.parametrize('code', [errno.ENOSPC, errno.EACCES, errno.EIO])
def test_a_failed_write_names_its_file(tmp_path, monkeypatch, code):
    """Issue 36: write(2), fsync(2) and rename(2) errors of the atomic
    writers name the file they were writing, not nothing (the command
    said "Cannot write : No space left on device") nor the temporary."""
    from tripleo_ephemeral.overcloud import yamlfile

    def fail(*_args):
        raise OSError(code, os.strerror(code))
    target = str(tmp_path / 'status.yaml')
    for call in (lambda: fileutil.write_atomic(target, 'x'),
                 lambda: yamlfile.write(target, {'a': 1})):
        with monkeypatch.context() as patch:
            patch.setattr(os, 'fsync', fail)
            with pytest.raises(OSError) as err:
                call()
        assert err.value.filename == target
        assert os.listdir(tmp_path) == []
    with monkeypatch.context() as patch:
        patch.setattr(os, 'replace', lambda *a: (_ for _ in ()).throw(
            OSError(code, os.strerror(code), a[0], None, a[1])))
        with pytest.raises(OSError) as err:
            fileutil.write_atomic(target, 'x')
    assert err.value.filename == target
