"""The wheels an image installs: this project and its pinned dependencies.

They are built on the host, with the host's pip configuration, so the image
build itself needs no package index (and no TLS set-up inside it). The
versions are pinned to those installed beside this code.
"""

import glob
import os
import sys

from tripleo_ephemeral import exceptions

#: Installed into the image beside the project (the pod's MySQL driver).
EXTRA = ('PyMySQL',)


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


def build(runner, dest, source=None, python=sys.executable):
    """Fill ``dest`` with wheels for the project and its dependencies."""
    source = source or source_dir()
    if not source:
        raise exceptions.LauncherError(
            'Cannot find the tripleo-ephemeral source to put in the image; '
            'pass --source-dir')
    os.makedirs(dest, exist_ok=True)
    pip = [python, '-m', 'pip']
    frozen = runner.run(pip + ['freeze', '--exclude-editable']).stdout
    constraints = os.path.join(dest, 'constraints.txt')
    with open(constraints, 'wb') as f:
        f.write(b'\n'.join(line for line in frozen.splitlines()
                           if not line.lower().startswith(
                               b'tripleo-ephemeral')) + b'\n')
    runner.run(pip + ['wheel', '--no-deps', '-q', '-w', dest, source])
    own = glob.glob(os.path.join(dest, 'tripleo_ephemeral-*.whl'))
    if not own:
        raise exceptions.LauncherError(
            'Building the tripleo-ephemeral wheel from %s made none' % source)
    runner.run(pip + ['wheel', '-q', '-w', dest, '-c', constraints,
                      own[0]] + list(EXTRA))
    os.unlink(constraints)
    return dest
