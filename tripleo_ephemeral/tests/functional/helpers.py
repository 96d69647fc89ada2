"""What the functional tests share: the CLI as a user runs it, and checks.

Test modules import this module, never each other or conftest.py (which
only turns these into fixtures).
"""

import importlib.util
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest
import yaml

from tripleo_ephemeral.tripleoclient_adoption import equivalence
from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import workdir

BIN = os.path.dirname(sys.executable)
TEMPLATES = os.path.join(os.path.dirname(__file__), 'templates')
#: Where the bundled templates leave their markers on a test host.
TEST_HOST_MARKERS = '/var/lib/tripleo-ephemeral-test'
REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
#: Deploys the scenarios of the real tripleo-heat-templates.
THT_TOOL = os.path.join(REPO, 'tools', 'tht_deploy.py')
#: What any RHEL host has and a Debian test host may not, for THT's tasks
#: (run in the host): the SELinux config its SELinux play edits and GRUB's
#: defaults that tripleo_kernel edits.
RHEL_HOST_FILES = (
    'mkdir -p /etc/default /etc/selinux && touch /etc/default/grub && '
    'printf "SELINUX=permissive\\nSELINUXTYPE=targeted\\n" '
    '> /etc/selinux/config')
#: What a long run on the bundled sample is marked with (minutes each, the
#: whole life or every bad input in one test; shorter tests cover their
#: parts by default): ``TRIPLEO_EPHEMERAL_LONG=1`` runs them, so that the
#: default suite stays under 30 minutes on 2 cores.
LONG_OPT_IN = pytest.mark.skipif(
    os.environ.get('TRIPLEO_EPHEMERAL_LONG') != '1',
    reason='set TRIPLEO_EPHEMERAL_LONG=1 for the long runs on the sample '
           '(minutes each)')
#: What a test of the real tripleo-heat-templates is marked with.
THT_OPT_IN = [
    pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                       reason='set TRIPLEO_EPHEMERAL_THT=1 to deploy the '
                              'real tripleo-heat-templates (minutes)'),
    pytest.mark.skipif(not os.path.isfile(THT_TOOL),
                       reason='needs a source checkout (tools/)'),
]


def tht_tool():
    """tools/tht_deploy.py as a module."""
    spec = importlib.util.spec_from_file_location('tht_deploy', THT_TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Cli:
    """Runs ``openstack`` as a user would, with a private HOME."""

    def __init__(self, home):
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith('OS_')}
        self.env['HOME'] = home
        self.env['PATH'] = BIN + os.pathsep + self.env.get('PATH', '')
        #: ``(command, text)`` of what the commands printed where no
        #: secret may be: every stderr, the stdout of a failed command
        #: (:func:`assert_no_secret_printed` reads them)
        self.printed = []

    def argv(self, *args):
        return [os.path.join(BIN, 'openstack')] + list(args)

    def run(self, *args, check=True, env=None, timeout=600):
        proc = subprocess.run(
            self.argv(*args), env=dict(self.env, **(env or {})),
            capture_output=True, text=True, timeout=timeout)
        self.printed.append((' '.join(args[:3]), proc.stderr))
        if proc.returncode != 0:
            self.printed.append((' '.join(args[:3]), proc.stdout))
        if check and proc.returncode != 0:
            raise AssertionError('openstack %s failed (%d):\n%s\n%s' % (
                ' '.join(args), proc.returncode, proc.stdout, proc.stderr))
        return proc

    def json(self, *args, **kwargs):
        return json.loads(self.run(*(args + ('-f', 'json')), **kwargs).stdout)

    def spawn(self, *args, env=None):
        """Start ``openstack`` without waiting (to signal it)."""
        return subprocess.Popen(
            self.argv(*args), env=dict(self.env, **(env or {})),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def running(self, *args, env=None):
        """Start ``openstack``; a :class:`Running` reads its stderr."""
        running = Running(self.spawn(*args, env=env))
        self.printed.append((' '.join(args[:3]), running))
        return running

    def deploy(self, work_dir, *args, port=None, heat_type='native',
               stack_only=True, check=True, env=None, timeout=600):
        """``overcloud deploy -f json``; see :class:`Deployed`."""
        argv = ['overcloud', 'deploy', '--work-dir', str(work_dir),
                '-f', 'json']
        if heat_type:
            argv += ['--heat-type', heat_type]
        if stack_only:
            argv.append('--stack-only')
        elif not any(a in ('--dry-run', '--setup-only') for a in args):
            argv.append('-y')  # a deploy that runs Ansible asks first
        if port:
            argv += ['--heat-api-port', str(port)]
        return Deployed(self.run(*(argv + list(args)), check=check, env=env,
                                 timeout=timeout))


class Deployed:
    """A finished ``overcloud deploy -f json``: ``result`` is its output
    (None when it failed), ``progress`` its stderr."""

    def __init__(self, proc):
        self.proc = proc
        self.returncode = proc.returncode
        self.progress = proc.stderr
        # On success stdout is nothing but the result: it must parse.
        self.result = json.loads(proc.stdout) if proc.returncode == 0 \
            else None


class Layout:
    """A :class:`~tripleo_ephemeral.workdir.WorkDir` whose paths are
    :class:`pathlib.Path` objects."""

    def __init__(self, path, stack=workdir.DEFAULT_STACK):
        self.workdir = workdir.WorkDir(str(path), stack)

    def __getattr__(self, name):
        value = getattr(self.workdir, name)
        return pathlib.Path(value) if isinstance(value, str) else value

    @property
    def archives(self):
        """The install archives of the work dir."""
        return install_archives.Archives(self.workdir)


def stop_heat_in(heat_dir):
    """Stop whatever a test left running in ``heat_dir``, by its pid."""
    saved = launcher_state.LauncherState(str(heat_dir)).load()
    if saved.get('heat_type'):
        heat_launcher.get_launcher(saved['heat_type'], str(heat_dir),
                                   api_port=saved.get('api_port', 1)).kill()


def secrets_under(root):
    """``{text: where}`` of the secrets the commands of a test used: the
    values of every passwords file (``<stack>-passwords.yaml``) and every
    API secret (``api_secret``) under ``root``, in each form they are
    written in (8 characters and more: shorter ones are words)."""
    from tripleo_ephemeral.history import secrets as history_secrets
    from tripleo_ephemeral import secret_forms

    found = {}
    root = pathlib.Path(root)
    for path in root.rglob('*-passwords.yaml'):
        try:
            data = (yaml.safe_load(path.read_text()) or {}).get(
                'parameter_defaults') or {}
        except (OSError, ValueError, yaml.YAMLError, AttributeError):
            continue
        for name, value in history_secrets.leaves('', data):
            for fragment in history_secrets.fragments(value):
                found.setdefault(fragment, '%s %s' % (path.name, name[1:]))
    for path in root.rglob('api_secret'):
        try:
            found.setdefault(path.read_text().strip(), str(path))
        except OSError:
            continue
    return {form: where for text, where in found.items() if len(text) >= 8
            for form in secret_forms.forms(text) if len(form) >= 8}


def assert_no_secret_printed(cli, root):
    """No secret a test's commands used (:func:`secrets_under` ``root``)
    is in what they printed where none may be (every stderr, the stdout
    of a failed command: :attr:`Cli.printed`) nor in the logs of the
    Heats they ran (the heat dirs' ``log/``)."""
    secrets = secrets_under(root)
    if not secrets:
        return
    texts = [(command, out.stderr if isinstance(out, Running) else out)
             for command, out in cli.printed]
    for secret_file in pathlib.Path(root).rglob('api_secret'):
        for log in (secret_file.parent / 'log').glob('*'):
            if log.is_file():
                texts.append((str(log), log.read_text(errors='replace')))
    leaks = sorted({(where, what) for what, text in texts
                    for secret, where in secrets.items()
                    if text and secret in text})
    assert not leaks, 'secrets printed (secret, in): %s' % leaks


def one_line_error(proc):
    """The error a failed command ended with; no traceback before it."""
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines, proc.stderr
    return lines[-1]


def warnings(stderr):
    """The WARNING lines of a command's stderr, but the one about TripleO's
    Ansible not being installed (``openstack tripleo ansible install``, a
    one-time set-up of the machine, not an input)."""
    return [line for line in stderr.splitlines()
            if line.startswith('WARNING') and
            'tripleo ansible install' not in line]


def assert_no_heat_left(heat_dir, port=None, pid=None):
    """Nothing runs for ``heat_dir``: no live pid, nothing on ``port``."""
    saved = launcher_state.LauncherState(str(heat_dir)).load()
    assert not saved.get('running')
    for pid in (pid, saved.get('pid')):
        assert pid is None or not psutil.pid_exists(pid) or \
            psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    if port:
        listening = [c for c in psutil.net_connections('inet')
                     if c.status == psutil.CONN_LISTEN and
                     c.laddr.port == port]
        assert listening == []


def wait_for_stack(client, stack_id, timeout=120):
    """The stack once no longer IN_PROGRESS (heatclient ``client``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stack = client.stacks.get(stack_id, resolve_outputs=False)
        if not stack.stack_status.endswith('IN_PROGRESS'):
            return stack
        time.sleep(0.5)
    raise AssertionError('stack %s still in progress' % stack_id)


def host_servers_file(tmp_path, name, network, controllers, computes,
                      ssh_user='root'):
    """A servers file (--deployed-servers) of test hosts of ``network``
    (testhosts.py): Controller and Compute host names."""
    def entry(host):
        item = {'hostname': host, 'ctlplane_ip':
                network.hosts[host].address}
        if ssh_user:
            item['ssh_user'] = ssh_user
        return item
    path = tmp_path / name
    path.write_text(yaml.safe_dump({
        'Controller': [entry(h) for h in controllers],
        'Compute': [entry(h) for h in computes]}))
    return path


#: The bound on a stop the tests assert (generous for a loaded machine).
STOP_BOUND = 15.0
#: Where the measured stops are appended (one JSON line each), if set.
STOP_TIMES = os.environ.get('TRIPLEO_EPHEMERAL_STOP_TIMES')


class Running:
    """A command under test: its stderr read as it comes, signals sent at a
    chosen moment, and the time from the first signal to its exit."""

    def __init__(self, proc):
        self.proc = proc
        self.lines = []
        self._new = threading.Condition()
        self._stdout = []
        self._readers = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._read_out,
                                          daemon=True)]
        for reader in self._readers:
            reader.start()
        self.signalled = None

    def _read(self):
        for line in self.proc.stderr:
            with self._new:
                self.lines.append(line)
                self._new.notify_all()
        with self._new:
            self._new.notify_all()

    def _read_out(self):
        self._stdout.append(self.proc.stdout.read())

    @property
    def stderr(self):
        return ''.join(self.lines)

    def wait_for(self, pattern, timeout=240):
        """The first stderr line matching the regex ``pattern``."""
        regex = re.compile(pattern)
        end = time.monotonic() + timeout
        seen = 0
        with self._new:
            while True:
                for line in self.lines[seen:]:
                    if regex.search(line):
                        return line
                seen = len(self.lines)
                if self.proc.poll() is not None and not \
                        self._readers[0].is_alive():
                    raise AssertionError('exited (%s) before %r:\n%s' % (
                        self.proc.returncode, pattern, self.stderr))
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError('no %r within %ds:\n%s' % (
                        pattern, timeout, self.stderr))
                self._new.wait(min(left, 0.5))

    def send(self, *signals, gap=0.5):
        """Send ``signals`` (``gap`` seconds apart); the first starts the
        clock."""
        for index, sig in enumerate(signals):
            if index:
                time.sleep(gap)
            if self.signalled is None:
                self.signalled = time.monotonic()
            self.proc.send_signal(sig)

    def finish(self, point, bound=STOP_BOUND):
        """Wait for the exit; assert it came within ``bound`` seconds of
        the first signal and record the time. Returns (rc, stdout)."""
        try:
            self.proc.wait(timeout=bound + 60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        seconds = time.monotonic() - self.signalled
        for reader in self._readers:
            reader.join(10)
        load = os.getloadavg()[0]
        print('STOP %s: %.2fs (load %.2f)' % (point, seconds, load))
        if STOP_TIMES:
            with open(STOP_TIMES, 'a') as f:
                f.write(json.dumps({'point': point, 'seconds': round(
                    seconds, 2), 'load': round(load, 2)}) + '\n')
        assert seconds < bound, 'stop at %s took %.1fs:\n%s' % (
            point, seconds, self.stderr)
        return self.proc.returncode, ''.join(self._stdout)


def processes_naming(path):
    """Live processes (not zombies) whose command line names ``path``:
    what a test started for a heat dir (Heat, its watchdog, ssh masters)."""
    found = []
    for proc in psutil.process_iter(['pid', 'cmdline', 'status']):
        try:
            if proc.info['status'] == psutil.STATUS_ZOMBIE:
                continue
            if str(path) in ' '.join(proc.info['cmdline'] or ()):
                found.append(proc.info['pid'])
        except psutil.Error:
            continue
    return found


def wait_until_gone(path, timeout=STOP_BOUND):
    """Seconds until nothing names ``path``; fails after ``timeout``."""
    started = time.monotonic()
    while processes_naming(path):
        if time.monotonic() - started > timeout:
            raise AssertionError('still running for %s: %s' % (
                path, processes_naming(path)))
        time.sleep(0.1)
    return time.monotonic() - started


SIGNALS = {'SIGINT': signal.SIGINT, 'SIGTERM': signal.SIGTERM,
           'SIGHUP': signal.SIGHUP}


# -- adopted deployments ------------------------------------------------------

def next_deploy_args(work_dir, templates=None):
    """What README's "Adopting a deployment" has the operator type after
    an adoption: the same templates and the files the adoption wrote."""
    wd = Layout(work_dir)
    args = ['--stack', wd.workdir.stack]
    if templates:
        args += ['--templates', str(templates)]
    if wd.roles_data_file.exists():
        args += ['-r', str(wd.roles_data_file),
                 '-n', str(wd.network_data_file)]
    return args + ['--deployed-servers', str(wd.adopted_servers_file),
                   '-e', str(wd.adopted_environment_file)]


def redeploy_and_compare(cli, work_dir, snapshot_dir, port, templates=None,
                         timeout=600):
    """Deploy on native Heat in the adopted ``work_dir``; return the
    equivalence report of the new stack against the adopted one."""
    adopted = equivalence.Side.capture(str(work_dir), 'overcloud',
                                       copy_to=str(snapshot_dir))
    done = cli.deploy(work_dir, *next_deploy_args(work_dir, templates),
                      port=port, timeout=timeout)
    assert done.result['status'] == 'DEPLOY_SUCCESS', done.progress
    # The pre-deploy checks compared against the adoption's snapshot.
    assert 'No earlier successful deploy' not in done.progress
    report = equivalence.compare(
        adopted, equivalence.Side.capture(str(work_dir), 'overcloud'))
    print(yaml.safe_dump(report.summary()))
    return report


def assert_equivalent(report, outputs=10, files=90, deployments=6):
    """No difference, and at least this much compared."""
    assert report.differences == []
    assert report.compared['outputs'] >= outputs
    assert report.compared['config-download files'] >= files
    assert report.compared['deployments'] >= deployments
    assert report.compared['registry entries'] >= 10
    assert report.compared['parameters'] >= 10
    assert report.normalised['<DeployIdentifier>'] > 0


_AS_OTHER = """
import sys, urllib.error, urllib.request
method, url, read = sys.argv[1:4]
if read:
    try:
        open(read).read()
        print('readable')
    except OSError:
        print('unreadable')
    sys.exit()
try:
    urllib.request.urlopen(urllib.request.Request(url, method=method),
                           timeout=10)
    print(200)
except urllib.error.HTTPError as exc:
    print(exc.code)
"""


def as_other_user(method, url, read=None, user='nobody'):
    """What another local user gets: the HTTP status of ``method url``,
    or whether it can read the file ``read``. Runs the system python as
    ``user`` (setpriv drops every privilege)."""
    proc = subprocess.run(
        ['setpriv', '--reuid', user, '--regid', 'nogroup', '--clear-groups',
         '/usr/bin/python3', '-c', _AS_OTHER, method, url,
         str(read or '')], capture_output=True, text=True, timeout=30,
        cwd='/', env={'PATH': '/usr/bin:/bin'})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip()
    return int(out) if out.isdigit() else out
