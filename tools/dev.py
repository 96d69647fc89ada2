#!/usr/bin/env python3
"""Bootstrap tripleo-ephemeral on a machine that has only python3.

    python3 tools/dev.py deploy [overcloud deploy options]
    python3 tools/dev.py test [pytest options]
    python3 tools/dev.py test --fast [pytest options]
                                        # the unit tests that start no
                                        # process (under a minute)
    python3 tools/dev.py lint           # flake8, mypy (mypy.ini), the layer
                                        # and readers checks, the docs (-W)
    python3 tools/dev.py docs           # the docs build alone
    python3 tools/dev.py bench [benchmark options]
    python3 tools/dev.py shell          # a shell with the venv on PATH

It makes ``.venv`` beside this repository (once), installs the project and
its dependencies into it against OpenStack 2026.1's upper-constraints
(tools/constraints/; again only when setup.cfg or the constraints changed)
with uv where it can have it (on PATH, else pip-installed into the venv;
pip's index settings passed on) and pip otherwise, and then runs the
command. ``deploy`` deploys the bundled sample as the stack ``sample``
(``~/overcloud-deploy/sample``) unless given ``--stack`` or ``--work-dir``:
the default work dir stays free for a real deploy. ``test`` also installs
and sets up the system parts the tests use (see tools/ci/setup-system.sh)
when it may: as root, or with CI set, and tripleo-heat-templates 18.0.0
into the venv; with TRIPLEO_EPHEMERAL_THT=1 (the opt-in tests of the real
templates) also TripleO's Ansible ("openstack tripleo ansible install").
Standard library only: it runs before anything is installed.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import time

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
#: The stack (and so the work dir, ~/overcloud-deploy/<stack>) the quick
#: start deploys the bundled sample as: never a real deployment's.
SAMPLE_STACK = 'sample'
#: "<pid> <boot-clock seconds>" of the exec into the command: the deploy's
#: phase_seconds books the time before it (this script, the venv) as
#: ``venv``, apart from the command's own ``startup``
#: (tripleo_ephemeral/lap_clock.py reads it).
EXEC_ENV = 'TRIPLEO_EPHEMERAL_EXEC_AT'


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
    target = '.[%s]' % extras if extras else '.'
    if not _uv_install(target):
        pip = [os.path.join(BIN, 'python'), '-m', 'pip',
               '--disable-pip-version-check']
        _run(pip + ['install', '-q', '--upgrade', 'pip'])
        _run(pip + ['install', '-q', '-c', CONSTRAINTS, '-e', target],
             cwd=ROOT)
    with open(STAMP, 'w') as f:
        f.write('%s %s' % (extras, _fingerprint()))


def _pip_settings():
    """uv's arguments for pip's index settings (its configuration files
    and PIP_* variables, as ``pip config list`` shows them; the
    environment's win): uv reads neither."""
    proc = subprocess.run(
        [os.path.join(BIN, 'python'), '-m', 'pip', 'config', 'list'],
        capture_output=True, text=True)
    found = {}
    for line in proc.stdout.splitlines():
        where, _, rest = line.partition('.')
        key, _, value = rest.partition('=')
        value = value.strip().strip('\'"')
        if key not in found or where == ':env:':
            found[key] = value
    args = []
    if found.get('index-url'):
        args += ['--index-url', found['index-url']]
    for option in ('extra-index-url', 'find-links', 'constraint'):
        for value in found.get(option, '').split():
            args += ['--' + option, value]
    if found.get('no-index', '').lower() in ('1', 'true', 'yes', 'on'):
        args.append('--no-index')
    env = dict(os.environ)
    if found.get('cert'):
        env.setdefault('SSL_CERT_FILE', found['cert'])
    return args, env


def _uv_install(target):
    """Install ``target`` with uv (several times quicker than pip on a
    cold machine: parallel downloads, no build of what has a wheel): the
    one on PATH, else uv pip-installed into the venv. False when uv cannot
    be had or fails (then pip does it)."""
    uv = shutil.which('uv')
    if not uv:
        uv = os.path.join(BIN, 'uv')
        if not os.path.exists(uv):
            proc = subprocess.run(
                [os.path.join(BIN, 'python'), '-m', 'pip', 'install', '-q',
                 '--disable-pip-version-check', 'uv'],
                stdout=sys.stderr, stderr=sys.stderr)
            if proc.returncode != 0 or not os.path.exists(uv):
                _say('uv cannot be installed: installing with pip')
                return False
    args, env = _pip_settings()
    try:
        _run([uv, 'pip', 'install', '-q', '--python',
              os.path.join(BIN, 'python'), '-c', CONSTRAINTS] + args +
             ['-e', target], cwd=ROOT, env=env)
    except (OSError, subprocess.CalledProcessError) as exc:
        _say('uv failed (%s): installing with pip' % exc)
        return False
    return True


def _env():
    env = dict(os.environ)
    env['PATH'] = BIN + os.pathsep + env.get('PATH', '')
    env['VIRTUAL_ENV'] = VENV
    return env


def _exec(argv):
    """Become the command (``argv``), telling it when: its
    ``phase_seconds`` keep this script's time (the venv) apart."""
    env = _env()
    env[EXEC_ENV] = '%d %.3f' % (os.getpid(),
                                 time.clock_gettime(time.CLOCK_BOOTTIME))
    os.execve(argv[0], argv, env)


def _given(args, *names):
    return any(a.split('=')[0] in names for a in args)


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
    if not _given(args, *modes):
        argv += ['--stack-only']
    # The sample never lands where a real deploy lives.
    if not _given(args, '--stack', '--work-dir', '--working-dir'):
        argv += ['--stack', SAMPLE_STACK]
        _say('deploying the bundled sample as stack %s into %s (the '
             'default work dir, ~/overcloud-deploy/overcloud, stays for '
             'your own deploys); look at it with --stack %s' % (
                 SAMPLE_STACK, os.path.join('~', 'overcloud-deploy',
                                            SAMPLE_STACK), SAMPLE_STACK))
    _exec(argv + list(args))


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


#: The fast tier: the unit tests that start no process (no Heat, git, ssh,
#: podman, no subprocess at all; tests/unit/conftest.py fails a test that
#: does without the mark) and do not read all of THT's real templates (4
#: tests, 17 s), in this one process: every worker of pytest-xdist would
#: import Heat again (2 workers took 70 s of CPU where one takes 45 s).
FAST_MARK = 'not starts_process and not real_templates'
FAST_PATH = 'tripleo_ephemeral/tests/unit'


def fast_argv(args):
    """pytest's arguments of ``test --fast [args]``: the unit tests, or
    the paths given, without the ones that start a process."""
    paths = [a for a in args if not a.startswith('-') and
             os.path.exists(os.path.join(ROOT, a.split('::')[0]))]
    return ['-q', '-p', 'no:xdist', '-m', FAST_MARK] + list(args) + (
        [] if paths else [FAST_PATH])


def cmd_test(args):
    fast = args[:1] == ['--fast']
    ensure_venv(DEV_EXTRAS)
    if not fast:
        setup_system()
    # The fast tier too: its equality tests read THT's templates.
    install_templates()
    if os.environ.get('TRIPLEO_EPHEMERAL_THT') == '1' and not fast:
        install_tripleo_ansible()
    argv = [os.path.join(BIN, 'python'), '-m', 'pytest'] + (
        fast_argv(args[1:]) if fast else
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
    # YAML through the one reader; Jinja2 on input sandboxed.
    _run([sys.executable, os.path.join(ROOT, 'tools', 'check_readers.py')])
    build_docs()


def build_docs():
    _run([os.path.join(BIN, 'python'), '-m', 'sphinx', '-q', '-W', '-b',
          'html', 'doc/source', os.path.join('doc', 'build', 'html')],
         env=_env(), cwd=ROOT)
    _say('the pages are in %s' % os.path.join(ROOT, 'doc', 'build', 'html',
                                              'index.html'))


def cmd_docs(args):
    ensure_venv(DEV_EXTRAS)
    build_docs()


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
            'docs': cmd_docs, 'bench': cmd_bench, 'shell': cmd_shell}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.stderr.write(__doc__)
        return 2
    return COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
