"""Fixtures that run the real CLI and the real Heat, and clean up after."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.tests.functional import testhosts

BIN = os.path.dirname(sys.executable)
TEMPLATES = os.path.join(os.path.dirname(__file__), 'templates')


class Cli:
    """Runs ``openstack`` as a user would, with a private HOME."""

    def __init__(self, home):
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith('OS_')}
        self.env['HOME'] = home
        self.env['PATH'] = BIN + os.pathsep + self.env.get('PATH', '')

    def run(self, *args, check=True, env=None, timeout=600):
        proc = subprocess.run(
            [os.path.join(BIN, 'openstack')] + list(args),
            env=dict(self.env, **(env or {})), capture_output=True,
            text=True, timeout=timeout)
        if check and proc.returncode != 0:
            raise AssertionError('openstack %s failed (%d):\n%s\n%s' % (
                ' '.join(args), proc.returncode, proc.stdout, proc.stderr))
        return proc

    def json(self, *args, **kwargs):
        return json.loads(self.run(*(args + ('-f', 'json')), **kwargs).stdout)


@pytest.fixture
def cli(tmp_path):
    home = tmp_path / 'home'
    home.mkdir()
    return Cli(str(home))


def stop_heat_in(heat_dir):
    """Stop whatever a test left running in ``heat_dir``, by its pid."""
    saved = launcher_state.LauncherState(str(heat_dir)).load()
    if saved.get('heat_type'):
        heat_launcher.get_launcher(saved['heat_type'], str(heat_dir),
                                   api_port=saved.get('api_port', 1)).kill()


@pytest.fixture
def heat_dir(tmp_path):
    path = tmp_path / 'heat-launcher'
    yield path
    stop_heat_in(path)


@pytest.fixture
def port():
    return readiness.free_port()


@pytest.fixture
def demo_templates(tmp_path):
    dest = tmp_path / 'templates'
    shutil.copytree(TEMPLATES, dest)
    return dest


@pytest.fixture
def hosts(tmp_path):
    """ctrl-0, cmp-0 and cmp-1: SSH test hosts, removed afterwards."""
    reason = testhosts.unavailable_reason()
    if reason:
        pytest.skip('No test hosts: %s' % reason)
    network = testhosts.TestHostNetwork(str(tmp_path / 'testhosts'))
    try:
        network.start()
        for name in ('ctrl-0', 'cmp-0', 'cmp-1'):
            network.add(name)
        yield network
    finally:
        problems = network.stop()
        assert not problems, problems


@pytest.fixture(scope='session')
def heat_image(tmp_path_factory):
    """The project's Heat image, built once (cached by its fingerprint).

    Tests pass it explicitly, so a rebuild by someone else for other code
    does not change what a running session uses.
    """
    from tripleo_ephemeral.tests.functional import podman_env

    reason = podman_env.unavailable_reason()
    if reason:
        pytest.skip(reason)
    cli = Cli(str(tmp_path_factory.mktemp('image-home')))
    cli.env['HOME'] = os.path.expanduser('~')  # keep the build cache
    return cli.json('tripleo', 'heat', 'image', 'build',
                    timeout=1800)['image']


@pytest.fixture
def dumped(cli, tmp_path, port, demo_templates):
    """A work dir whose heat-launcher holds a dump of the demo stack
    (a ResourceGroup of 3 nested templates); Heat is stopped."""
    work_dir = tmp_path / 'work'
    heat_dir = work_dir / 'heat-launcher'
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--heat-api-port', str(port))
    try:
        cli.run('stack', 'create', '-t', str(demo_templates / 'demo.yaml'),
                '--parameter', 'count=3', 'demo', '--wait',
                env={'OS_CLOUD': 'heat'})
    finally:
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill')
    return work_dir
