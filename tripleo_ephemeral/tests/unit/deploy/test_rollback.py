"""Preparing a deploy that fails leaves the work dir as it was."""

import os

import pytest

from tripleo_ephemeral.deploy import rollback


def _tree(root):
    found = {}
    for dirpath, dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            found[os.path.relpath(path, root)] = open(path).read()
        for name in dirs:
            found[os.path.relpath(os.path.join(dirpath, name), root)] = None
    return found


@pytest.fixture
def work(tmp_path):
    root = tmp_path / 'work'
    (root / 'tht' / 'sub').mkdir(parents=True)
    (root / 'tht' / 'sub' / 'a.yaml').write_text('old a')
    (root / 'oc-passwords.yaml').write_text('old passwords')
    (root / 'heat-launcher').mkdir()
    (root / 'heat-launcher' / 'dump').write_text('dump')
    return root


def _write(path, text):
    tmp = str(path) + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)  # as the project writes: a new file


def _prepare(root):
    _write(root / 'oc-passwords.yaml', 'new passwords')
    _write(root / 'tht' / 'sub' / 'a.yaml', 'new a')
    (root / 'tht' / 'b.yaml').write_text('new b')
    (root / 'oc-new.yaml').write_text('new')
    (root / 'outputs').mkdir()


def test_failure_restores_everything(work):
    before = _tree(str(work))
    with pytest.raises(ValueError):
        with rollback.Rollback(str(work), dirs=[str(work / 'tht')]):
            _prepare(work)
            raise ValueError('bad input')
    assert _tree(str(work)) == before


def test_success_keeps_the_new_files(work):
    with rollback.Rollback(str(work), dirs=[str(work / 'tht')]):
        _prepare(work)
    tree = _tree(str(work))
    assert tree['oc-passwords.yaml'] == 'new passwords'
    assert tree['tht/sub/a.yaml'] == 'new a'
    assert rollback.BACKUP_DIR not in os.listdir(str(work))


def test_a_new_work_dir_is_removed_again(tmp_path):
    root = tmp_path / 'new'
    root.mkdir()
    with pytest.raises(ValueError):
        with rollback.Rollback(str(root), existed=False):
            (root / 'x').write_text('x')
            raise ValueError
    assert not root.exists()


def test_a_crash_is_recovered_by_the_next_deploy(work):
    before = _tree(str(work))
    txn = rollback.Rollback(str(work), dirs=[str(work / 'tht')])
    txn.__enter__()
    _prepare(work)  # ... and the process dies here
    said = []
    rollback.Rollback(str(work), say=said.append).recover()
    assert _tree(str(work)) == before
    assert 'restored' in said[0]


def test_a_backup_without_manifest_is_dropped(work):
    before = _tree(str(work))
    os.mkdir(work / rollback.BACKUP_DIR)
    os.link(work / 'oc-passwords.yaml',
            work / rollback.BACKUP_DIR / 'oc-passwords.yaml')
    assert rollback.Rollback(str(work)).recover() is False
    assert _tree(str(work)) == before
    assert not (work / rollback.BACKUP_DIR).exists()


def test_undo_restores_after_a_success_too(work):
    """A dry run: everything it wrote is undone."""
    before = _tree(work)
    with rollback.Rollback(str(work), dirs=[str(work / 'tht')], undo=True):
        _prepare(work)
    assert _tree(work) == before
