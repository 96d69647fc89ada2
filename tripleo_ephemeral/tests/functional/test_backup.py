"""Back up a deployment, restore it elsewhere, find the same stacks."""

import gzip
import io
import os
import stat
import tarfile

import pytest

from tripleo_ephemeral.tests.functional import helpers


@pytest.fixture
def deployed(dumped):
    """A deployment's work dir: the dumped demo stack and a secret."""
    passwords = helpers.Layout(dumped).passwords_file
    passwords.write_text('secret: x\n')
    os.chmod(passwords, 0o600)
    return dumped


def test_backup_restore_elsewhere(cli, tmp_path, deployed):
    work_dir = deployed
    archive = tmp_path / 'backup.tar.gz'
    made = cli.json('tripleo', 'backup', 'create', '--work-dir',
                    str(work_dir), '--output', str(archive))
    assert made['files'] > 5
    assert stat.S_IMODE(os.stat(archive).st_mode) == 0o600

    new = tmp_path / 'elsewhere' / 'work'
    cli.json('tripleo', 'backup', 'restore', str(archive), '--work-dir',
             str(new))
    assert stat.S_IMODE(os.stat(
        helpers.Layout(new).passwords_file).st_mode) == 0o600
    cli.json('tripleo', 'launch', 'heat', '--work-dir', str(new),
             '--restore-db')
    try:
        stacks = cli.json('stack', 'list', env={'OS_CLOUD': 'heat'})
        assert [s['Stack Name'] for s in stacks] == ['demo']
    finally:
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(new),
                '--kill')


def _rewrite(archive, dest, change):
    with tarfile.open(archive) as src, tarfile.open(dest, 'w:gz') as out:
        for member in src.getmembers():
            data = src.extractfile(member).read() if member.isfile() else None
            member, data = change(member, data)
            out.addfile(member, io.BytesIO(data) if data is not None
                        else None)


def test_damaged_or_hostile_backups_change_nothing(cli, tmp_path, deployed):
    archive = tmp_path / 'backup.tar.gz'
    cli.json('tripleo', 'backup', 'create', '--work-dir', str(deployed),
             '--output', str(archive))
    passwords = helpers.Layout(deployed).passwords_file.name

    def flip(member, data):
        if member.name == passwords:
            data = b'secret: y\n'
        return member, data
    damaged = tmp_path / 'damaged.tar.gz'
    _rewrite(archive, damaged, flip)
    target = tmp_path / 'target'
    proc = cli.run('tripleo', 'backup', 'restore', str(damaged),
                   '--work-dir', str(target), check=False)
    assert proc.returncode != 0 and 'checksum' in proc.stderr
    assert not target.exists()

    def escape(member, data):
        if member.name == passwords:
            member.name = '../../escaped.yaml'
        return member, data
    hostile = tmp_path / 'hostile.tar.gz'
    _rewrite(archive, hostile, escape)
    proc = cli.run('tripleo', 'backup', 'restore', str(hostile),
                   '--work-dir', str(target), check=False)
    assert proc.returncode != 0 and 'Traceback' not in proc.stderr
    assert not (tmp_path / 'escaped.yaml').exists()
    assert not (tmp_path.parent / 'escaped.yaml').exists()
    assert not target.exists()
    assert [p for p in os.listdir(tmp_path) if p.startswith('.restore-')] \
        == []
    gzip.open(archive).read()  # the original is untouched and whole
