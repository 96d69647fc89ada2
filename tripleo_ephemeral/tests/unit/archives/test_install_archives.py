"""The install archive of a work dir after each deploy."""

import datetime
import os
import stat
import tarfile

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral import workdir


def test_archive_keeps_modes_and_prunes(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'oc').create()
    archives = install_archives.Archives(wd)
    secret = os.path.join(wd.path, 'oc-passwords.yaml')
    with open(secret, 'w') as f:
        f.write('x')
    os.chmod(secret, 0o600)
    os.makedirs(wd.heat_dir)
    open(os.path.join(wd.heat_dir, 'heat.sqlite'), 'w').close()
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    for i in range(install_archives.ARCHIVES_KEPT + 2):
        path = archives.write(now=start + datetime.timedelta(minutes=i))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(archives.all()) == install_archives.ARCHIVES_KEPT
    with tarfile.open(path) as tar:
        names = tar.getnames()
        member = tar.getmember('w/oc-passwords.yaml')
    assert stat.S_IMODE(member.mode) == 0o600
    assert not any('oc-install-' in n for n in names)
    assert not any(n.endswith('heat.sqlite') for n in names)


def test_pruning_keeps_the_newest_successful_archive(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'w'), 'oc').create()
    archives = install_archives.Archives(wd)
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    good = archives.write(now=start)
    for i in range(1, install_archives.ARCHIVES_KEPT + 3):
        archives.write(now=start + datetime.timedelta(minutes=i),
                       succeeded=False)
    kept = archives.all()
    assert good in kept and len(kept) == install_archives.ARCHIVES_KEPT + 1
    assert all(a.endswith('-failed.tar.gz') for a in kept if a != good)
    newer = archives.write(now=start + datetime.timedelta(hours=1))
    assert good not in archives.all() and newer in archives.all()
