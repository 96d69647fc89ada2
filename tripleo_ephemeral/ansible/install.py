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
from tripleo_ephemeral import process

LOG = logging.getLogger(__name__)

REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            'requirements.txt')
#: Overrides the default location (the deploy and the install both read it).
ENV_VAR = 'TRIPLEO_EPHEMERAL_ANSIBLE'
STAMP = '.tripleo-ephemeral-ansible'
#: Controller Pythons ansible-core 2.14 supports, the newest first.
PYTHONS = ((3, 11), (3, 10), (3, 9))
INSTALL_COMMAND = 'openstack tripleo ansible install'
#: How an operator gets one (RHEL 9's python3 is 3.9; its AppStream has
#: python3.11).
GET_PYTHON = 'on RHEL 9: dnf install python3.11'


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

    def require(self, runner=None):
        """Return self when installed, else raise the one-line fix (with
        the Python to get first when this machine has none the install
        could use; ``runner`` asks the candidates)."""
        if not self.installed():
            fix = 'install it with "%s"' % INSTALL_COMMAND
            try:
                find_python(runner)
            except exceptions.TripleoAnsibleError:
                fix = ('it runs on Python %s, which this machine lacks: %s, '
                       'then run "%s"' % (wanted_pythons(), GET_PYTHON,
                                          INSTALL_COMMAND))
            raise exceptions.TripleoAnsibleError(
                "TripleO's Ansible (tripleo-ansible %s on ansible-core %s) is "
                'not installed in %s, and these templates\' playbooks need '
                'it: %s' % (
                    pins().get('tripleo-ansible'), pins().get('ansible-core'),
                    self.path, fix))
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
        python, version = find_python(runner, python)
        if os.path.exists(self.path):
            if not self._replaceable():
                raise exceptions.TripleoAnsibleError(
                    '%s exists and is not a TripleO Ansible venv: choose '
                    'another --dest (or $TRIPLEO_EPHEMERAL_ANSIBLE)' %
                    self.path)
            LOG.info('Removing the incomplete or outdated %s', self.path)
            shutil.rmtree(self.path)
        # A venv's, for its users.
        fileutil.make_private_dirs(os.path.dirname(self.path), 0o755)
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


def find_python(runner=None, python=None):
    """``(path, 'X.Y')`` of a Python ansible-core 2.14 runs on: ``python``
    when given (it must be one), else this one, else the first of
    python3.11, python3.10, python3.9 on PATH that runs and is what its
    name says (a pyenv shim of a version not selected does not run)."""
    if python:
        version = _version_of(runner, python)
        if version not in PYTHONS:
            raise exceptions.TripleoAnsibleError(
                '--python %s is %s; TripleO\'s Ansible (ansible-core %s) '
                'runs on Python %s: pass one of those (%s)' % (
                    python, 'Python %d.%d' % version if version else
                    'not a Python that runs', pins().get('ansible-core'),
                    wanted_pythons(), GET_PYTHON))
        return python, '%d.%d' % version
    if sys.version_info[:2] in PYTHONS:
        return sys.executable, '%d.%d' % sys.version_info[:2]
    for wanted in PYTHONS:
        found = shutil.which('python%d.%d' % wanted)
        if found and _version_of(runner, found) == wanted:
            return found, '%d.%d' % wanted
    raise exceptions.TripleoAnsibleError(
        "TripleO's Ansible (ansible-core %s) runs on Python %s, and this "
        'machine has none on PATH (this is Python %d.%d): %s, or pass '
        '--python' % (pins().get('ansible-core'), wanted_pythons(),
                      sys.version_info[0], sys.version_info[1], GET_PYTHON))


def wanted_pythons():
    """'3.9, 3.10, 3.11': the Pythons TripleO's Ansible runs on."""
    return ', '.join('%d.%d' % v for v in reversed(PYTHONS))


def _version_of(runner, python):
    """(major, minor) of the Python ``python``, or None when it does not
    run."""
    runner = runner or process.ProcessRunner()
    try:
        out = runner.run([python, '-c', 'import sys; print("%d %d" % '
                          'sys.version_info[:2])'], check=False, timeout=30)
    except exceptions.TripleoEphemeralError:
        return None
    ok = out is not None and out.returncode == 0
    words = (out.stdout or b'').split() if ok else []
    try:
        return int(words[0]), int(words[1])
    except (IndexError, ValueError):
        return None
