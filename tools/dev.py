#!/usr/bin/env python3
"""Bootstrap tripleo-ephemeral on a machine that has only python3.

    python3 tools/dev.py deploy [overcloud deploy options]
    python3 tools/dev.py test [pytest options]
    python3 tools/dev.py bench [benchmark options]
    python3 tools/dev.py shell          # a shell with the venv on PATH

It makes ``.venv`` beside this repository (once), installs the project and
its dependencies into it (again only when setup.cfg changed), and then runs
the command. ``test`` also installs and sets up the system parts the tests
use (see tools/ci/setup-system.sh) when it may: as root, or with CI set.
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


def _say(msg):
    print('[dev] %s' % msg, flush=True)


def _run(argv, **kwargs):
    _say(' '.join(argv))
    subprocess.run(argv, check=True, **kwargs)


def _fingerprint(extras):
    h = hashlib.sha256(extras.encode())
    for name in ('setup.cfg', 'setup.py'):
        with open(os.path.join(ROOT, name), 'rb') as f:
            h.update(f.read())
    return h.hexdigest()


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
    want = _fingerprint(extras)
    try:
        with open(STAMP) as f:
            if f.read().strip() == want:
                return
    except FileNotFoundError:
        pass
    pip = [os.path.join(BIN, 'python'), '-m', 'pip',
           '--disable-pip-version-check']
    _run(pip + ['install', '-q', '--upgrade', 'pip'])
    target = '.[%s]' % extras if extras else '.'
    _run(pip + ['install', '-q', '-e', target], cwd=ROOT)
    with open(STAMP, 'w') as f:
        f.write(want)


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
    if not args:
        argv += ['--stack-only']
    os.execve(argv[0], argv + list(args), _env())


def cmd_test(args):
    ensure_venv('test')
    setup_system()
    argv = [os.path.join(BIN, 'python'), '-m', 'pytest'] + (
        list(args) or ['-q', '-ra', 'tripleo_ephemeral/tests'])
    os.chdir(ROOT)
    os.execve(argv[0], argv, _env())


def cmd_bench(args):
    ensure_venv('test')
    argv = [os.path.join(BIN, 'python'), os.path.join(ROOT, 'tools', 'bench',
                                                      'bench.py')] + list(args)
    os.execve(argv[0], argv, _env())


def cmd_shell(args):
    ensure_venv('test')
    shell = os.environ.get('SHELL', '/bin/bash')
    os.execve(shell, [shell] + list(args), _env())


COMMANDS = {'deploy': cmd_deploy, 'test': cmd_test, 'bench': cmd_bench,
            'shell': cmd_shell}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.stderr.write(__doc__)
        return 2
    return COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
