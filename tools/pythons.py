"""The Pythons setup.cfg admits, and where this machine has them.

    python3 tools/pythons.py          # version and path of each one found

Used by the CI smoke (.ci/smoke_pythons.py), the benchmark's
``--pythons`` and the tests that compare Pythons. A Python is looked for as
``python3.X`` on PATH, then in pyenv's versions (``$PYENV_ROOT``,
``~/.pyenv`` and the root of a pyenv ``shims`` directory on PATH; the
newest patch release first), and used only when it runs
and says it is 3.X (a pyenv shim of a version that is not selected is on
PATH but does not run). Standard library only: it runs before anything is
installed.
"""

import configparser
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def admitted(setup_cfg=os.path.join(ROOT, 'setup.cfg')):
    """``[(3, 10), (3, 11), ...]``: the Pythons setup.cfg's classifiers
    name (python_requires admits those and no newer one)."""
    cfg = configparser.ConfigParser()
    cfg.read(setup_cfg)
    found = re.findall(r'Programming Language :: Python :: (\d+)\.(\d+)',
                       cfg.get('metadata', 'classifiers', fallback=''))
    return sorted((int(a), int(b)) for a, b in found)


def version_of(python):
    """``(major, minor, micro)`` of the Python ``python``, or None when it
    does not run."""
    try:
        out = subprocess.run(
            [python, '-c', 'import sys; print(*sys.version_info[:3])'],
            capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    try:
        return tuple(int(w) for w in out.stdout.split()) if (
            out.returncode == 0) else None
    except ValueError:
        return None


def _candidates(version):
    name = 'python%d.%d' % version
    on_path = shutil.which(name)
    if on_path:
        yield on_path
    found = []
    for pyenv in _pyenv_roots():
        found += glob.glob(os.path.join(pyenv, 'versions',
                                        '%d.%d.*' % version, 'bin', name))

    def release(path):
        micro = os.path.basename(os.path.dirname(os.path.dirname(path)))
        return [int(p) if p.isdigit() else -1
                for p in micro.split('.')[2:3]]

    yield from sorted(found, key=release, reverse=True)


def _pyenv_roots():
    """``$PYENV_ROOT``, ``~/.pyenv`` and the root of any pyenv shims
    directory on PATH (CI runs with a HOME of its own)."""
    roots = [os.environ.get('PYENV_ROOT'), os.path.expanduser('~/.pyenv')]
    for entry in os.environ.get('PATH', '').split(os.pathsep):
        if os.path.basename(entry.rstrip(os.sep)) == 'shims':
            roots.append(os.path.dirname(entry.rstrip(os.sep)))
    unique = []
    for root in roots:
        if root and os.path.isdir(root) and root not in unique:
            unique.append(root)
    return unique


def find(version):
    """``(path, (major, minor, micro))`` of a working Python ``version``
    (``(3, 12)``), or None."""
    for path in _candidates(version):
        found = version_of(path)
        if found and found[:2] == tuple(version):
            return path, found
    return None


def found(versions=None):
    """``{(3, 10): (path, (3, 10, 13)), ...}`` of the admitted Pythons (or
    ``versions``) this machine has."""
    result = {}
    for version in versions or admitted():
        hit = find(version)
        if hit:
            result[tuple(version)] = hit
    return result


def parse(text):
    """``'3.10,3.13'`` as ``[(3, 10), (3, 13)]``."""
    versions = []
    for word in text.replace(' ', ',').split(','):
        if word:
            major, _, minor = word.partition('.')
            versions.append((int(major), int(minor)))
    return versions


def main():
    for version, (path, full) in sorted(found().items()):
        print('%d.%d  %s  %s' % (version + ('.'.join(map(str, full)),
                                            path)))
    missing = [v for v in admitted() if v not in found()]
    if missing:
        print('not found: %s' % ', '.join('%d.%d' % v for v in missing),
              file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
