"""Build, find and check the venv that holds TripleO's Ansible.

The pins are ``requirements.txt`` beside this module, the one place they
are. ``<venv>/.tripleo-ephemeral-ansible`` is written last (atomically) by
a complete install and holds the pins' digest: a venv without it, or with
another digest, is not an install (it is built again), so an interrupted
install is never used. An install that fails or is interrupted removes
what it built; the programs it runs (venv, pip and what they start) are
killed with it, even when the command itself is killed
(:meth:`~tripleo_ephemeral.process.ProcessRunner.run`, ``tied``).
"""

import hashlib
import json
import logging
import os
import shutil
import sys

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral import interruption

LOG = logging.getLogger(__name__)

REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            'requirements.txt')
#: Overrides the default location (the deploy and the install both read it).
ENV_VAR = 'TRIPLEO_EPHEMERAL_ANSIBLE'
STAMP = '.tripleo-ephemeral-ansible'
#: Controller Pythons ansible-core 2.14 supports.
PYTHONS = ((3, 11), (3, 10), (3, 9))
INSTALL_COMMAND = 'openstack tripleo ansible install'


def default_path():
    """``$TRIPLEO_EPHEMERAL_ANSIBLE``, else ``<prefix>/share/tripleo-
    ephemeral/ansible`` beside the product's own install."""
    return os.path.abspath(os.environ.get(ENV_VAR) or os.path.join(
        sys.prefix, 'share', 'tripleo-ephemeral', 'ansible'))


def requirements(path=REQUIREMENTS):
    """``(with_deps, no_deps)``: the requirement lines of ``path``."""
    with_deps, no_deps = [], []
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            words = line.split()
            target = no_deps if '--no-deps' in words[1:] else with_deps
            target.append(words[0])
    return with_deps, no_deps


def pins():
    """``{name: version}`` of every pinned requirement."""
    with_deps, no_deps = requirements()
    return dict(r.split('==', 1) for r in with_deps + no_deps if '==' in r)


def digest():
    """What an install of these pins is stamped with."""
    with open(REQUIREMENTS, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


class AnsibleInstall:
    """TripleO's Ansible in the venv ``path`` (installed or not)."""

    def __init__(self, path=None):
        self.path = os.path.abspath(path or default_path())

    @property
    def bin_dir(self):
        return os.path.join(self.path, 'bin')

    @property
    def python(self):
        return os.path.join(self.bin_dir, 'python')

    @property
    def ansible_playbook(self):
        return os.path.join(self.bin_dir, 'ansible-playbook')

    @property
    def share_dir(self):
        """``<venv>/share/ansible``: tripleo-ansible's roles and plugins
        (where its RPM had ``/usr/share/ansible``)."""
        return os.path.join(self.path, 'share', 'ansible')

    def stamp(self):
        """The stamp of a complete install, or None."""
        try:
            with open(os.path.join(self.path, STAMP)) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def installed(self):
        """Whether a complete install of the current pins is here."""
        stamp = self.stamp()
        return (bool(stamp) and stamp.get('digest') == digest() and
                os.access(self.ansible_playbook, os.X_OK))

    def versions(self):
        """``{name: version}`` installed (the stamp's), or {}."""
        return dict((self.stamp() or {}).get('versions') or {})

    def require(self):
        """Return self when installed, else raise the one-line fix."""
        if not self.installed():
            raise exceptions.TripleoAnsibleError(
                "TripleO's Ansible (tripleo-ansible %s on ansible-core %s) is "
                'not installed in %s, and these templates\' playbooks need '
                'it: install it with "%s"' % (
                    pins().get('tripleo-ansible'), pins().get('ansible-core'),
                    self.path, INSTALL_COMMAND))
        return self

    def _replaceable(self):
        """Whether what is at the path may be removed: an empty directory,
        or a venv (an install of this command that is outdated or broke
        half-way), never anything else."""
        if not os.path.isdir(self.path):
            return False
        return not os.listdir(self.path) or any(
            os.path.exists(os.path.join(self.path, name))
            for name in (STAMP, 'pyvenv.cfg'))

    def install(self, runner, force=False, python=None):
        """Build the venv and install the pins; return True if it did,
        False when a complete install was already there."""
        if self.installed() and not force:
            return False
        python = python or find_python()
        version = _version_of(python)
        if os.path.exists(self.path):
            if not self._replaceable():
                raise exceptions.TripleoAnsibleError(
                    '%s exists and is not a TripleO Ansible venv: choose '
                    'another --dest (or $TRIPLEO_EPHEMERAL_ANSIBLE)' %
                    self.path)
            LOG.info('Removing the incomplete or outdated %s', self.path)
            shutil.rmtree(self.path)
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        try:
            self._build(runner, python)
            fileutil.write_atomic(os.path.join(self.path, STAMP), json.dumps(
                {'digest': digest(), 'python': version, 'versions': pins()},
                indent=1, sort_keys=True), mode=0o644)
        except BaseException:
            with interruption.shielded('removing the incomplete install'):
                LOG.info('Removing the incomplete %s', self.path)
                shutil.rmtree(self.path, ignore_errors=True)
            raise
        return True

    def _build(self, runner, python):
        with interruption.activity('making the venv %s' % self.path):
            runner.run([python, '-m', 'venv', self.path], tied=True)
        pip = [self.python, '-m', 'pip', 'install', '-q',
               '--disable-pip-version-check']
        with_deps, no_deps = requirements()
        with interruption.activity('installing %s' % ', '.join(with_deps)):
            runner.run(pip + with_deps, timeout=1800, tied=True)
        with interruption.activity('installing %s' % ', '.join(no_deps)):
            runner.run(pip + ['--no-deps'] + no_deps, timeout=600,
                       tied=True)


def find_python():
    """A Python ansible-core 2.14 runs on: this one, else python3.11..."""
    if sys.version_info[:2] in PYTHONS:
        return sys.executable
    for version in PYTHONS:
        found = shutil.which('python%d.%d' % version)
        if found:
            return found
    raise exceptions.TripleoAnsibleError(
        "TripleO's Ansible needs Python %s (ansible-core %s's controller "
        'Pythons), and this machine has none: install one of them' % (
            ' or '.join('%d.%d' % v for v in PYTHONS),
            pins().get('ansible-core')))


def _version_of(python):
    if python in (None, sys.executable):
        return '%d.%d' % sys.version_info[:2]
    base = os.path.basename(python)
    return base[len('python'):] if base.startswith('python') else base
