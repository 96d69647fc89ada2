"""The wheels an image installs: this project and its pinned dependencies.

They are built on the host, with the host's pip configuration, so the image
build itself needs no package index (and no TLS set-up inside it). The
versions are pinned to those installed beside this code. The project's own
wheel comes from its checkout when this code runs from one (or from
``--source-dir``), else from the installed files
(:mod:`.installed_wheel`). When the image's Python is another than this
one, the dependencies are resolved again for it and its binary wheels
downloaded (pure wheels built here serve both).
"""

import dataclasses
import glob
import importlib.metadata
import logging
import os
import platform
import sys

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.images import installed_wheel

LOG = logging.getLogger(__name__)

#: Installed into the image beside the project (the pod's MySQL driver).
EXTRA = ('PyMySQL',)
DISTRIBUTION = 'tripleo-ephemeral'
#: The oldest glibc of manylinux wheels (manylinux2014).
_OLDEST_GLIBC = 17


@dataclasses.dataclass(frozen=True)
class PythonTarget:
    """The Python of an image: its version, glibc and machine."""

    version: tuple
    glibc: tuple = (2, 36)   # Debian bookworm's
    machine: str = platform.machine()

    #: Run in the image to describe its Python (see :func:`parse`).
    PROBE = ('import platform, sys; print(*sys.version_info[:2], '
             'platform.libc_ver()[1] or "0.0", platform.machine())')

    @classmethod
    def parse(cls, text):
        """The target :data:`PROBE` printed, or None."""
        words = text.split()
        try:
            major, minor = int(words[0]), int(words[1])
            glibc = tuple(int(p) for p in words[2].split('.')[:2])
            return cls((major, minor), glibc, words[3])
        except (IndexError, ValueError):
            return None

    def pip_options(self):
        """``pip download`` options that choose this Python's wheels."""
        tag = 'cp%d%d' % self.version
        options = ['--only-binary=:all:', '--implementation', 'cp',
                   '--python-version', '%d.%d' % self.version,
                   '--abi', tag, '--abi', 'abi3', '--abi', 'none']
        for minor in range(self.glibc[1], _OLDEST_GLIBC - 1, -1):
            platform_tag = 'manylinux_2_%d_%s' % (minor, self.machine)
            options += ['--platform', platform_tag]
        for legacy in ('manylinux2014', 'manylinux2010', 'manylinux1'):
            options += ['--platform', '%s_%s' % (legacy, self.machine)]
        return options


def source_dir():
    """The checkout this code runs from, or None for an installed copy."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    cfg = os.path.join(here, 'setup.cfg')
    try:
        with open(cfg) as f:
            if 'name = tripleo-ephemeral' in f.read():
                return here
    except OSError:
        pass
    return None


def build(runner, dest, source=None, python=sys.executable, target=None):
    """Fill ``dest`` with wheels for the project and its dependencies,
    for the image's Python ``target`` (a :class:`PythonTarget`; None:
    this one's)."""
    source = source or source_dir()
    os.makedirs(dest, exist_ok=True)
    pip = [python, '-m', 'pip']
    frozen = runner.run(pip + ['freeze', '--exclude-editable']).stdout
    # Not this project, and no direct references (pip takes none as a
    # constraint).
    pins = [line for line in frozen.decode().splitlines()
            if not line.lower().startswith('tripleo-ephemeral') and
            ' @ ' not in line and '==' in line]
    constraints = _write(os.path.join(dest, 'constraints.txt'), pins)
    if source:
        runner.run(pip + ['wheel', '--no-deps', '-q', '-w', dest, source])
        own = glob.glob(os.path.join(dest, 'tripleo_ephemeral-*.whl'))
        if not own:
            raise exceptions.LauncherError(
                'Building the tripleo-ephemeral wheel from %s made none' %
                source)
        own = own[0]
    else:
        own = installed_wheel.build(dest, DISTRIBUTION)
    runner.run(pip + ['wheel', '-q', '-w', dest, '-c', constraints,
                      own] + list(EXTRA))
    if target is not None and tuple(target.version) != sys.version_info[:2]:
        ours = _write(os.path.join(dest, 'target-constraints.txt'),
                      _pins_for(pins, target.version))
        runner.run(pip + ['download', '-q'] + target.pip_options() + [
            '--find-links', dest, '-d', dest, '-c', ours, own] +
            list(EXTRA))
        os.unlink(ours)
        _remove_binary_wheels(dest, 'cp%d%d' % sys.version_info[:2])
    os.unlink(constraints)
    return dest


def _write(path, lines):
    with open(path, 'w') as f:
        f.write(''.join(line + '\n' for line in lines))
    return path


def _pins_for(pins, version):
    """The ``name==version`` pins whose release runs on Python
    ``version`` (its Requires-Python); the others (ansible-core 2.21 on
    this 3.12, for an image's 3.11) are resolved again for it."""
    from packaging import specifiers

    kept = []
    for pin in pins:
        name = pin.split('==', 1)[0]
        try:
            wanted = importlib.metadata.metadata(name).get('Requires-Python')
            admits = not wanted or specifiers.SpecifierSet(wanted).contains(
                '%d.%d' % tuple(version))
        except (importlib.metadata.PackageNotFoundError,
                specifiers.InvalidSpecifier):
            admits = True
        if admits:
            kept.append(pin)
        else:
            LOG.info('%s does not run on Python %d.%d: the image gets '
                     'another release', pin, *version)
    return kept


def _remove_binary_wheels(dest, abi):
    """Remove the wheels of ``abi`` (this Python's): of no use in the
    image."""
    for path in glob.glob(os.path.join(dest, '*.whl')):
        tags = os.path.basename(path)[:-len('.whl')].split('-')[-3:]
        if len(tags) == 3 and abi in tags[1].split('.'):
            os.unlink(path)
