#!/usr/bin/env python3
"""Which engine tuning shims match the installed Heat and oslo libraries.

    python tools/check_tuning.py            # every shim, every target
    python tools/check_tuning.py --show heat.engine.template.parse

Run it with the Python of the environment to check (a venv with a new
Heat, or another Python): for each shim of
``tripleo_ephemeral/engine_tuning/registry.py`` (each declared in its
module, ``engine_tuning/tunings/<tuning>.py``) it prints whether the
runner would install it (``match``), leave it off (``DIFFERS``,
``MISSING``) or not need it on this Python (``unneeded``, a fix only
some Pythons need), and each
target's fingerprint here beside the recorded ones. Fingerprints are of
the code's syntax tree, the same on every Python from 3.10 to 3.13.
``--show`` prints the source a fingerprint is taken of: run it under the
old and the new environment and diff the two to see what changed. Exits 1
when a shim would stay off.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from oslo_service import backend  # noqa: E402

# As the runner does, before anything of Heat is imported.
backend.init_backend(backend.BackendType.THREADING)

from tripleo_ephemeral.engine_tuning import fingerprint  # noqa: E402
from tripleo_ephemeral.engine_tuning import guard  # noqa: E402
from tripleo_ephemeral.engine_tuning import registry  # noqa: E402
from tripleo_ephemeral.engine_tuning import targets  # noqa: E402


def check(shim):
    """(status, [line per target]) of one shim."""
    why = shim.needed(sys.version_info)
    if why:
        return 'unneeded', ['  %s' % why]
    status, lines = 'match', []
    for tgt in shim.targets:
        try:
            found = fingerprint.fingerprint(tgt.path)
        except targets.TargetMissing as exc:
            status = 'MISSING'
            lines.append('  %-16s  %s' % ('missing', exc))
            continue
        if found in tgt.fingerprints:
            lines.append('  %-16s  %s' % (found, tgt.path))
        else:
            if status == 'match':
                status = 'DIFFERS'
            lines.append('  %-16s  %s  (checked on: %s)' % (
                found, tgt.path, ', '.join(tgt.fingerprints)))
    if not shim.targets:
        status = 'public'  # only public APIs: nothing to fingerprint
    return status, lines


def report(out=sys.stdout):
    """Print every shim's status; return the names of those left off."""
    every_target = [t for shim in registry.SHIMS for t in shim.targets]
    out.write('Installed: %s\n' % ', '.join(
        guard.installed_versions(every_target)))
    off = []
    for shim in registry.SHIMS:
        status, lines = check(shim)
        if status in ('DIFFERS', 'MISSING'):
            off.append(shim.name)
        checked = ', '.join(shim.checked_on) or 'public APIs only'
        out.write('%-8s %s (checked on %s)\n' % (status, shim.name, checked))
        for line in lines:
            out.write(line + '\n')
    if off:
        out.write('\nOff on this install (re-check them): %s\n' %
                  ', '.join(off))
    return off


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--show', metavar='TARGET',
                        help='print the normalised source of TARGET')
    args = parser.parse_args(argv)
    if args.show:
        sys.stdout.write(fingerprint.normalised(args.show) + '\n')
        return 0
    return 1 if report() else 0


if __name__ == '__main__':
    sys.exit(main())
