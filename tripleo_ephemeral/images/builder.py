"""Build the Heat image locally with podman."""

import logging
import os
import shutil
import tempfile
import time

from tripleo_ephemeral import fileutil
from tripleo_ephemeral import images
from tripleo_ephemeral.images import rootfs
from tripleo_ephemeral.images import wheelhouse

LOG = logging.getLogger(__name__)


class BuildResult:
    def __init__(self, image, base_image, seconds, cached):
        self.image = image
        self.base_image = base_image
        self.seconds = seconds
        self.cached = cached


class ImageBuilder:
    """Build ``localhost/tripleo-ephemeral-heat:<fingerprint>``.

    With ``base_image`` the Containerfile builds on it (adding the Debian
    packages when it lacks them); without, the base is debootstrapped from
    a Debian mirror, so no registry is needed.
    """

    def __init__(self, podman, runner, cache_dir=None, source_dir=None,
                 suite=rootfs.DEFAULT_SUITE, mirror=rootfs.DEFAULT_MIRROR):
        self.podman = podman
        self.runner = runner
        self.cache_dir = cache_dir or images.cache_dir()
        self.source_dir = source_dir
        self.suite = suite
        self.mirror = mirror

    def build(self, image=None, base_image=None, force=False):
        image = image or images.default_image()
        started = time.monotonic()
        if not force and self.podman.image_exists(image):
            LOG.info('%s exists; nothing to build', image)
            return BuildResult(image, base_image, time.monotonic() - started,
                               cached=True)
        base = base_image or rootfs.build_base(
            self.podman, self.runner, self.cache_dir, self.suite, self.mirror)
        fileutil.ensure_private_dir(self.cache_dir)
        target = self._python_of(base)
        with tempfile.TemporaryDirectory(dir=self.cache_dir,
                                         prefix='context.') as context:
            wheelhouse.build(self.runner, os.path.join(context, 'wheels'),
                             self.source_dir, target=target)
            containerfile = os.path.join(context, images.CONTAINERFILE)
            with images.package_file('images', images.CONTAINERFILE).open(
                    'rb') as src, open(containerfile, 'wb') as dst:
                shutil.copyfileobj(src, dst)
            LOG.info('Building %s on %s', image, base)
            self.podman.build(context, image, containerfile,
                              build_args={'BASE_IMAGE': base})
        seconds = time.monotonic() - started
        LOG.info('Built %s in %.1fs', image, seconds)
        self._prune(image)
        return BuildResult(image, base, seconds, cached=False)

    def _python_of(self, base):
        """The base image's Python (its wheels are chosen for it); None
        when it has none yet (the Containerfile installs Debian's): then
        this one's are used."""
        result = self.podman.run(
            'run', '--rm', '--entrypoint', 'python3', base, '-c',
            wheelhouse.PythonTarget.PROBE, check=False, timeout=300)
        target = None
        if result.returncode == 0:
            target = wheelhouse.PythonTarget.parse(
                (result.stdout or b'').decode())
        if target is None:
            LOG.info('%s has no python3 yet: its wheels are this Python\'s',
                     base)
        else:
            LOG.info('%s runs Python %d.%d', base, *target.version)
        return target

    def _prune(self, keep):
        """Remove the older builds (podman keeps those a container uses)."""
        repository = keep.rpartition(':')[0]
        for old in self.podman.image_tags(repository):
            if old != keep:
                LOG.info('Removing the older image %s', old)
                self.podman.remove_image(old)
