"""The same THT deploys on several Pythons side by side (``--pythons``).

Each Python (found as tools/pythons.py finds it: ``python3.X`` or
pyenv's) gets a venv of its own with this checkout installed by pip: by
default against the project's constraints file (``tools/dev.py``'s), so
that every Python runs the same Heat and libraries and the Python is what
differs; ``--pythons-plain`` installs as a user's plain ``pip install .``
does (each Python then gets the newest releases it can run). Each becomes
a configuration ``py3.X``: native Heat with the tuned defaults, run by
that venv's ``openstack``; it runs the ``tht`` cases only (the others
launch Heat inside this process). The venvs are made in the run's work
dir, or kept in ``--pythons-venvs`` and reused (the project reinstalled).
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

import pythons  # noqa: E402

import heats  # noqa: E402

CONSTRAINTS = os.path.join(ROOT, 'tools', 'constraints',
                           'upper-constraints-2026.1.txt')
#: What each venv reports about itself (the results' ``pythons``): the
#: releases, and how its interpreter was built (a libpython shared library
#: makes 3.12+'s thread-local thread state a function call per access;
#: PGO and LTO are what distributions build with, pyenv not by default).
_VERSIONS = ('import importlib.metadata as m, json, platform, sysconfig; '
             'c = sysconfig.get_config_var; a = c("CONFIG_ARGS") or ""; '
             'print(json.dumps(dict({"python": platform.python_version(), '
             '"build": ", ".join(['
             '"shared libpython" if c("Py_ENABLE_SHARED") else "static", '
             '"PGO" if "--enable-optimizations" in a else "no PGO", '
             '"LTO" if "--with-lto" in a else "no LTO"])}, '
             '**{d: m.version(d) for d in ("openstack-heat", "oslo.db", '
             '"oslo.messaging", "futurist", "SQLAlchemy")})))')


def config_name(version):
    return 'py%d.%d' % version


def prepare(versions, venvs_dir, plain=False):
    """Make (or reuse) a venv per Python of ``versions``; register each as
    a configuration; return {config: what its venv runs}."""
    found = pythons.found(versions)
    missing = [v for v in versions if tuple(v) not in found]
    if missing:
        raise SystemExit('--pythons: %s not found here (tools/pythons.py '
                         'lists what is)' % ', '.join('%d.%d' % v
                                                      for v in missing))
    described = {}
    for version in versions:
        path, _full = found[tuple(version)]
        name = config_name(version)
        venv = os.path.join(venvs_dir, name)
        started = time.monotonic()
        if not os.path.exists(os.path.join(venv, 'bin', 'python')):
            subprocess.run([path, '-m', 'venv', venv], check=True)
        pip = [os.path.join(venv, 'bin', 'python'), '-m', 'pip', 'install',
               '-q']
        if not plain:
            pip += ['-c', CONSTRAINTS]
        subprocess.run(pip + [ROOT], check=True)
        out = subprocess.run([os.path.join(venv, 'bin', 'python'), '-c',
                              _VERSIONS], check=True, capture_output=True,
                             text=True).stdout
        described[name] = dict(json.loads(out), install='plain' if plain
                               else 'constraints')
        heats.PYTHONS[name] = os.path.join(venv, 'bin')
        what = ', '.join('%s %s' % item for item in described[name].items())
        print('== %s: venv %s ready in %.0fs: %s' % (
            name, venv, time.monotonic() - started, what), flush=True)
    return described
