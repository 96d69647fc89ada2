#!/usr/bin/env python3
"""A short smoke of tripleo-ephemeral on the oldest and the newest Python
setup.cfg admits that this machine has (.ci/run runs it after the suite).

    python3 tools/ci/smoke_pythons.py [--pythons 3.10,3.13] [--work DIR]

The project's wheel is built once (``pip wheel .``); each Python gets
what an operator's distribution gives: a fresh venv (``python -m venv``)
and a plain ``pip install`` of that wheel, no constraints file (pip's
cache is the CI run's; ``--no-compile``: the modules a command imports are
byte-compiled when it first runs, not all 11,000 of the dependencies').
Then, as a user (HOME in the work dir, away from the checkout, the venv's
``openstack`` on PATH):

1. ``openstack overcloud deploy --heat-type native --stack-only -f json``
   of the bundled sample (the quick start's deploy): DEPLOY_SUCCESS, with
   every tuning the tuned settings switch on in force (or, for a fix only
   some Pythons need, not needed), none refused: the same tunings as on the
   suite's Python. Each Python installs and deploys side by side with the
   other;
2. on the newest Python, ``openstack tripleo launch heat --restore-db -f
   json`` of the oldest one's deploy dump (made on one Python, restored on
   another), the same check of the tunings, ``openstack stack list``
   showing the stack, then ``--kill``.

Each step prints one line with its seconds; the first failure ends the
smoke with one line naming the Python, the step and why (exit 1). A
Python admitted by setup.cfg that lacks a tuning or cannot deploy fails.
Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

import pythons  # noqa: E402

#: Run in a smoke venv: the shims the tuned settings switch on for a
#: native Heat, and those among them that are fixes for some Pythons.
_TUNED = ('import json; from tripleo_ephemeral.engine_tuning import '
          'registry; print(json.dumps(registry.tuned(in_process=True)))')


class SmokeFailed(Exception):
    """One line: the Python, the step and why."""


class Smoke:
    """One Python's venv and home in ``work``."""

    def __init__(self, version, python, work):
        self.version = version
        self.python = python
        self.label = '%d.%d' % version
        self.venv = os.path.join(work, 'venv-' + self.label)
        self.home = os.path.join(work, 'home-' + self.label)
        self.work_dir = os.path.join(self.home, 'overcloud-deploy',
                                     'overcloud')

    def env(self):
        env = dict(os.environ, HOME=self.home,
                   PATH=os.path.join(self.venv, 'bin') + os.pathsep +
                   os.environ.get('PATH', ''), VIRTUAL_ENV=self.venv)
        for name in ('OS_CLOUD', 'OS_CLIENT_CONFIG_FILE', 'PYTHONPATH'):
            env.pop(name, None)
        return env

    def run(self, step, argv, timeout=900):
        """Run ``argv`` as the user would; its stdout, or SmokeFailed."""
        try:
            done = subprocess.run(argv, env=self.env(), cwd=self.home,
                                  capture_output=True, text=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise SmokeFailed('Python %s, %s: %s took over %ds' % (
                self.label, step, ' '.join(argv[:4]), timeout)) from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ['no output'])[-1]
            raise SmokeFailed('Python %s, %s: %s exited %d: %s' % (
                self.label, step, ' '.join(argv[:4]), done.returncode,
                last))
        return done.stdout

    def install(self, wheel):
        os.makedirs(self.home, exist_ok=True)
        self.run('venv', [self.python, '-m', 'venv', self.venv])
        self.run('pip install', [os.path.join(self.venv, 'bin', 'python'),
                                 '-m', 'pip', 'install', '-q',
                                 '--no-compile', wheel],
                 timeout=1800)
        self.tuned = json.loads(self.run('tunings', [
            os.path.join(self.venv, 'bin', 'python'), '-c', _TUNED]))
        return os.path.basename(wheel)

    def check_tunings(self, step, found):
        """Every tuned shim in force or not needed here; none refused."""
        found = found or {}
        refused = found.get('refused') or {}
        if refused:
            name, why = sorted(refused.items())[0]
            raise SmokeFailed('Python %s, %s: tuning %s refused: %s' % (
                self.label, step, name, why))
        present = set(found.get('installed') or ()) | set(
            found.get('not_needed') or {})
        missing = [name for name in self.tuned if name not in present]
        if missing:
            raise SmokeFailed('Python %s, %s: tunings not in force: %s' % (
                self.label, step, ', '.join(missing)))
        return found

    def deploy(self):
        result = json.loads(self.run('deploy', [
            'openstack', 'overcloud', 'deploy', '--heat-type', 'native',
            '--stack-only', '-f', 'json']))
        if result.get('status') != 'DEPLOY_SUCCESS':
            raise SmokeFailed('Python %s, deploy: status %s' % (
                self.label, result.get('status')))
        found = self.check_tunings('deploy', result.get('engine_tunings'))
        return 'DEPLOY_SUCCESS, %s resources, %d tunings in force%s' % (
            result.get('resources'), len(found.get('installed') or ()),
            ', not needed here: %s' % ', '.join(sorted(found['not_needed']))
            if found.get('not_needed') else '')

    def restore(self, other):
        """Launch Heat on a copy of ``other``'s work dir with its dump."""
        copy = os.path.join(self.home, 'from-' + other.label)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(other.work_dir, copy)
        for name in os.listdir(os.path.join(copy, 'heat-launcher')):
            if name.startswith('.heat-db-image.'):  # the SQL, not its cache
                os.unlink(os.path.join(copy, 'heat-launcher', name))
        launched = json.loads(self.run('restore', [
            'openstack', 'tripleo', 'launch', 'heat', '--work-dir', copy,
            '--restore-db', '-f', 'json']))
        try:
            self.check_tunings('restore', launched.get('engine_tunings'))
            stacks = self.run('restore', [
                'openstack', 'stack', 'list', '--os-cloud', 'heat', '-f',
                'value', '-c', 'Stack Name', '-c', 'Stack Status'])
        finally:
            self.run('kill', ['openstack', 'tripleo', 'launch', 'heat',
                              '--work-dir', copy, '--kill', '-f', 'value',
                              '-c', 'dump'])
        if 'overcloud CREATE_COMPLETE' not in stacks:
            raise SmokeFailed('Python %s, restore of the dump made on %s: '
                              'stacks %r' % (self.label, other.label,
                                             stacks.strip()))
        return "%s's dump: %s" % (other.label, stacks.strip())


def _timed(label, step, fn, *args):
    started = time.monotonic()
    what = fn(*args)
    print('[smoke] %-11s %-12s %6.1fs  %s' % (
        label, step, time.monotonic() - started, what or ''), flush=True)
    return what


def build_wheel(python, work):
    """The project's wheel, built once from the checkout."""
    dist = os.path.join(work, 'dist')
    done = subprocess.run([python, '-m', 'pip', 'wheel', '-q', '--no-deps',
                           '-w', dist, ROOT], capture_output=True, text=True,
                          check=False)
    found = [n for n in os.listdir(dist) if n.endswith('.whl')] if (
        os.path.isdir(dist)) else []
    if done.returncode != 0 or not found:
        raise SmokeFailed('building the wheel: %s' % (
            done.stderr.strip().splitlines() or ['no wheel'])[-1])
    return os.path.join(dist, found[0])


def install_and_deploy(smokes, wheel):
    """Every Python's venv, install and deploy, side by side."""
    failed = []

    def install(smoke):
        try:
            _timed('Python ' + smoke.label, 'pip install', smoke.install,
                   wheel)
            _timed('Python ' + smoke.label, 'deploy', smoke.deploy)
        except SmokeFailed as exc:
            failed.append(exc)

    workers = [threading.Thread(target=install, args=(smoke,))
               for smoke in smokes]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failed:
        raise failed[0]


def choose(versions=None):
    """The Pythons to smoke: those named, else the oldest and the newest
    admitted one found here (once when they are the same)."""
    found = pythons.found(versions)
    if not found:
        raise SmokeFailed('no Python setup.cfg admits (%s) was found here' %
                          ', '.join('%d.%d' % v for v in pythons.admitted()))
    if versions:
        missing = [v for v in versions if tuple(v) not in found]
        if missing:
            raise SmokeFailed('Python %s not found here' % ', '.join(
                '%d.%d' % v for v in missing))
        return [(v, found[tuple(v)]) for v in versions]
    ends = sorted(found)
    return [(v, found[v]) for v in sorted({ends[0], ends[-1]})]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--pythons', type=pythons.parse, default=None,
                        help='e.g. 3.10,3.13 (default: the oldest and the '
                             'newest admitted found here)')
    parser.add_argument('--work', help='directory for the venvs and homes '
                                       '(default: a temporary one, removed)')
    args = parser.parse_args(argv)
    work = args.work or tempfile.mkdtemp(prefix='smoke-pythons.')
    started = time.monotonic()
    try:
        smokes = [Smoke(version, path, work)
                  for version, (path, _full) in choose(args.pythons)]
        wheel = _timed('the project', 'pip wheel', build_wheel,
                       smokes[0].python, work)
        install_and_deploy(smokes, wheel)
        # One restore across them: the newest Python takes the oldest's
        # dump (its own when there is one Python).
        _timed('Python ' + smokes[-1].label, 'restore', smokes[-1].restore,
               smokes[0])
    except SmokeFailed as exc:
        print('[smoke] FAILED: %s' % exc, file=sys.stderr, flush=True)
        return 1
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    print('[smoke] %s passed in %.0fs' % (
        ', '.join(s.label for s in smokes), time.monotonic() - started),
        flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
