"""What the functional tests share: the CLI as a user runs it, and checks.

Test modules import this module, never each other or conftest.py (which
only turns these into fixtures).
"""

import json
import os
import pathlib
import subprocess
import sys

import psutil
import yaml

from tripleo_ephemeral.deploy import equivalence
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import workdir

BIN = os.path.dirname(sys.executable)
TEMPLATES = os.path.join(os.path.dirname(__file__), 'templates')


class Cli:
    """Runs ``openstack`` as a user would, with a private HOME."""

    def __init__(self, home):
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith('OS_')}
        self.env['HOME'] = home
        self.env['PATH'] = BIN + os.pathsep + self.env.get('PATH', '')

    def argv(self, *args):
        return [os.path.join(BIN, 'openstack')] + list(args)

    def run(self, *args, check=True, env=None, timeout=600):
        proc = subprocess.run(
            self.argv(*args), env=dict(self.env, **(env or {})),
            capture_output=True, text=True, timeout=timeout)
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

    def deploy(self, work_dir, *args, port=None, heat_type='native',
               stack_only=True, check=True, env=None, timeout=600):
        """``overcloud deploy -f json``; see :class:`Deployed`."""
        argv = ['overcloud', 'deploy', '--work-dir', str(work_dir),
                '-f', 'json']
        if heat_type:
            argv += ['--heat-type', heat_type]
        if stack_only:
            argv.append('--stack-only')
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


def stop_heat_in(heat_dir):
    """Stop whatever a test left running in ``heat_dir``, by its pid."""
    saved = launcher_state.LauncherState(str(heat_dir)).load()
    if saved.get('heat_type'):
        heat_launcher.get_launcher(saved['heat_type'], str(heat_dir),
                                   api_port=saved.get('api_port', 1)).kill()


def one_line_error(proc):
    """The error a failed command ended with; no traceback before it."""
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines, proc.stderr
    return lines[-1]


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
