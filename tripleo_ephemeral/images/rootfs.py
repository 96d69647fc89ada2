"""An offline base image: a debootstrapped Debian with the packages in it.

For machines that reach a Debian mirror but no container registry. The base
is imported once per (suite, mirror, packages) and kept as a local image.
"""

import contextlib
import glob
import hashlib
import logging
import os
import shutil

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral import images

LOG = logging.getLogger(__name__)

BASE_NAME = 'localhost/tripleo-ephemeral-base'
DEFAULT_SUITE = 'bookworm'
DEFAULT_MIRROR = 'http://deb.debian.org/debian'

#: Removed from the root filesystem before it is imported.
_CLEAN = ('var/cache/apt/archives/*.deb', 'var/lib/apt/lists/*_Packages',
          'usr/share/doc/*', 'usr/share/man/*', 'usr/share/info/*')


def base_image_name(suite=DEFAULT_SUITE, mirror=DEFAULT_MIRROR,
                    packages=images.PACKAGES):
    key = '\n'.join([suite, mirror] + sorted(packages)).encode()
    return '%s:%s-%s' % (BASE_NAME, suite, hashlib.sha256(key).hexdigest()[:8])


def build_base(podman, runner, cache_dir, suite=DEFAULT_SUITE,
               mirror=DEFAULT_MIRROR, packages=images.PACKAGES):
    """Return the base image, debootstrapping and importing it if missing."""
    name = base_image_name(suite, mirror, packages)
    if podman.image_exists(name):
        return name
    if os.geteuid() != 0:
        raise exceptions.LauncherError(
            'debootstrap needs root; run the build as root or pass '
            '--base-image with a Debian-based image')
    fileutil.ensure_private_dir(cache_dir)
    key = name.rpartition(':')[2]
    rootfs = os.path.join(cache_dir, 'rootfs-' + key)
    done = rootfs + '.done'
    tarball = rootfs + '.tar'
    if not os.path.exists(done):
        _remove_tree(rootfs)
        LOG.info('debootstrap %s from %s (about a minute, once)', suite,
                 mirror)
        runner.run(['debootstrap', '--variant=minbase',
                    '--include=' + ','.join(packages), suite, rootfs, mirror],
                   timeout=1800)
        for pattern in _CLEAN:
            for path in glob.glob(os.path.join(rootfs, pattern)):
                _remove_tree(path)
        open(done, 'w').close()
    try:
        runner.run(['tar', '--numeric-owner', '-C', rootfs, '-cf', tarball,
                    '.'], timeout=600)
        podman.import_tarball(tarball, name, changes=(
            'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:'
            '/sbin:/bin',))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tarball)
    # The image is the cache from now on.
    _remove_tree(rootfs)
    _remove_tree(done)
    return name


def _remove_tree(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
