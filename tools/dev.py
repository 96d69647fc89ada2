#!/usr/bin/env python3
"""Bootstrap tripleo-ephemeral on a machine that has only python3.

    python3 tools/dev.py deploy [overcloud deploy options]
    python3 tools/dev.py test [pytest options]
    python3 tools/dev.py lint           # flake8, mypy (mypy.ini), the layer
                                        # check, the docs build (-W)
    python3 tools/dev.py bench [benchmark options]
    python3 tools/dev.py shell          # a shell with the venv on PATH

It makes ``.venv`` beside this repository (once), installs the project and
its dependencies into it against OpenStack 2026.1's upper-constraints
(tools/constraints/; again only when setup.cfg or the constraints changed),
and then runs the command. ``test`` also installs and sets up the system
parts the tests use (see tools/ci/setup-system.sh) when it may: as root, or
with CI set, and tripleo-heat-templates 18.0.0 into the venv; with
TRIPLEO_EPHEMERAL_THT=1 (the opt-in tests of the real templates) also
TripleO's Ansible ("openstack tripleo ansible install").
Standard library only: it runs before anything is installed.
"""

import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.environ.get('TRIPLEO_EPHEMERAL_VENV', os.path.join(ROOT, '.venv'))
BIN = os.path.join(VENV, 'bin')
STAMP = os.path.join(VENV, '.tripleo-ephemeral-installed')
#: The OpenStack release's upper-constraints every install uses (tox too).
CONSTRAINTS = os.environ.get('TOX_CONSTRAINTS_FILE') or os.path.join(
    ROOT, 'tools', 'constraints', 'upper-constraints-2026.1.txt')
LINT_VENV = os.path.join(ROOT, '.venv-lint')
#: Extras of the development venv (tests and docs).
DEV_EXTRAS = 'test,doc'


def _say(msg):
    # stderr, as every child's output below: stdout is the command's
    # (``dev.py deploy -f json | jq``).
    print('[dev] %s' % msg, file=sys.stderr, flush=True)


def _run(argv, **kwargs):
    _say(' '.join(argv))
    kwargs.setdefault('stdout', sys.stderr)
    subprocess.run(argv, check=True, **kwargs)


def _fingerprint():
    h = hashlib.sha256()
    for path in (os.path.join(ROOT, 'setup.cfg'),
                 os.path.join(ROOT, 'setup.py'),
                 os.path.join(ROOT, 'pyproject.toml'), CONSTRAINTS):
        with open(path, 'rb') as f:
            h.update(f.read())
    return h.hexdigest()


def _extras(text):
    return {e for e in text.split(',') if e}


def ensure_venv(extras=''):
    if not os.path.exists(os.path.join(BIN, 'python')):
        try:
            _run([sys.executable, '-m', 'venv', VENV])
        except subprocess.CalledProcessError:
            if os.geteuid() != 0:
                raise
            # Debian splits venv out of python3.
            _run(['apt-get', 'install', '-y', 'python3-venv'])
            _run([sys.executable, '-m', 'venv', VENV])
    # The stamp is "<extras> <fingerprint>": a venv made for more extras
    # serves fewer (DEV_EXTRAS covers deploy); asking for more installs
    # those too, and keeps what was there.
    installed = ''
    try:
        with open(STAMP) as f:
            installed, _, digest = f.read().strip().rpartition(' ')
        if digest == _fingerprint():
            if _extras(extras) <= _extras(installed):
                return
        else:
            installed = ''
    except FileNotFoundError:
        pass
    extras = ','.join(sorted(_extras(extras) | _extras(installed)))
    pip = [os.path.join(BIN, 'python'), '-m', 'pip',
           '--disable-pip-version-check']
    _run(pip + ['install', '-q', '--upgrade', 'pip'])
    target = '.[%s]' % extras if extras else '.'
    _run(pip + ['install', '-q', '-c', CONSTRAINTS, '-e', target], cwd=ROOT)
    with open(STAMP, 'w') as f:
        f.write('%s %s' % (extras, _fingerprint()))


def _env():
    env = dict(os.environ)
    env['PATH'] = BIN + os.pathsep + env.get('PATH', '')
    env['VIRTUAL_ENV'] = VENV
    return env


def setup_system():
    script = os.path.join(ROOT, 'tools', 'ci', 'setup-system.sh')
    if not os.path.exists(script):
        return
    if os.geteuid() == 0 or os.environ.get('CI'):
        _run(['bash', script])
    else:
        _say('not root: skipping system set-up; tests that need podman, '
             'MariaDB or RabbitMQ will say why they skip')


def cmd_deploy(args):
    ensure_venv()
    argv = [os.path.join(BIN, 'openstack'), 'overcloud', 'deploy']
    if not any(a.startswith('--heat-type') for a in args):
        argv += ['--heat-type', 'native']
    # The bundled sample's servers are TEST-NET addresses nobody answers
    # on: without servers of your own (or a mode of your own), render only.
    modes = ('--deployed-servers', '--stack-only', '--config-download-only',
             '--dry-run', '--setup-only')
    if not any(a.split('=')[0] in modes for a in args):
        argv += ['--stack-only']
    os.execve(argv[0], argv + list(args), _env())


def install_templates():
    """tripleo-heat-templates into the venv, where --templates finds them."""
    _run([os.path.join(BIN, 'openstack'), 'tripleo', 'templates', 'install',
          '-f', 'value', '-c', 'templates'], env=_env())


def install_tripleo_ansible():
    """TripleO's Ansible (its own venv, beside the project's) for the
    opt-in tests that run tripleo-heat-templates' playbooks: about 600 MB,
    two to three minutes the first time, a no-op after."""
    _run([os.path.join(BIN, 'openstack'), 'tripleo', 'ansible', 'install',
          '-f', 'value', '-c', 'path'], env=_env())


#: The whole suite's workers (pytest-xdist): its tests wait on Heat, sshd and
#: podman more than they compute (a 2-core run used 0.83 of one core), and
#: each starts what it needs on free ports in its own temporary directory,
#: so three share a 2-core machine; worksteal keeps the long tests from
#: queueing behind one worker at the end.
PARALLEL = ['-n', str(max(3, min(6, 2 * (os.cpu_count() or 2) - 1))),
            '--dist', 'worksteal']


def cmd_test(args):
    ensure_venv(DEV_EXTRAS)
    setup_system()
    install_templates()
    if os.environ.get('TRIPLEO_EPHEMERAL_THT') == '1':
        install_tripleo_ansible()
    argv = [os.path.join(BIN, 'python'), '-m', 'pytest'] + (
        list(args) or ['-q', '-ra', '--durations=25'] + PARALLEL +
        ['tripleo_ephemeral/tests'])
    os.chdir(ROOT)
    os.execve(argv[0], argv, _env())


def lint_venv():
    """flake8 and mypy in a venv of their own: Heat's neutron-lib registers
    a flake8 plugin that needs OpenStack's hacking, so flake8 cannot share
    the project's venv (tox's pep8 env skips the install for the same
    reason). mypy reads the project's modules as files and takes the
    libraries they import as untyped (mypy.ini)."""
    python = os.path.join(LINT_VENV, 'bin', 'python')
    if not os.path.exists(python):
        _run([sys.executable, '-m', 'venv', LINT_VENV])
    _run([python, '-m', 'pip', 'install', '-q',
          '--disable-pip-version-check', 'flake8', 'mypy'])
    return python


def cmd_lint(args):
    ensure_venv(DEV_EXTRAS)
    os.chdir(ROOT)
    python = lint_venv()
    _run([python, '-m', 'flake8', 'tripleo_ephemeral', 'tools'] + list(args))
    # Types at the boundaries: the modules mypy.ini lists.
    _run([python, '-m', 'mypy'])
    # Imports point down the layers; unit tests mirror the packages.
    _run([sys.executable, os.path.join(ROOT, 'tools', 'check_layers.py')])
    _run([os.path.join(BIN, 'python'), '-m', 'sphinx', '-q', '-W', '-b',
          'html', 'doc/source', os.path.join('doc', 'build', 'html')],
         env=_env())


def cmd_bench(args):
    ensure_venv(DEV_EXTRAS + ',bench')  # plot.py draws with matplotlib
    install_templates()
    argv = [os.path.join(BIN, 'python'), os.path.join(ROOT, 'tools', 'bench',
                                                      'bench.py')] + list(args)
    os.execve(argv[0], argv, _env())


def cmd_shell(args):
    ensure_venv(DEV_EXTRAS)
    shell = os.environ.get('SHELL', '/bin/bash')
    os.execve(shell, [shell] + list(args), _env())


COMMANDS = {'deploy': cmd_deploy, 'test': cmd_test, 'lint': cmd_lint,
            'bench': cmd_bench, 'shell': cmd_shell}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.stderr.write(__doc__)
        return 2
    return COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
