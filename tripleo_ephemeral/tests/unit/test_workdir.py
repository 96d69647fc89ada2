import datetime
import io
import os
import stat
import tarfile

import pytest

from tripleo_ephemeral import fileutil
from tripleo_ephemeral import workdir


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
    for i in range(workdir.ARCHIVES_KEPT + 2):
        path = wd.archive(now=start + datetime.timedelta(minutes=i))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(wd.archives()) == workdir.ARCHIVES_KEPT
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
