"""Fixtures that run the real CLI and the real Heat, and clean up after.

The helpers behind them are in helpers.py; test modules import that.
"""

import fcntl
import os
import shutil

import pytest

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.tests.functional import docs_run
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import testhosts


@pytest.fixture
def cli(tmp_path):
    """The CLI with a HOME of the test's own; after the test, no secret its
    commands used is in what they printed or in their Heats' logs
    (:func:`~.helpers.assert_no_secret_printed`)."""
    home = tmp_path / 'home'
    home.mkdir()
    cli = helpers.Cli(str(home))
    yield cli
    helpers.assert_no_secret_printed(cli, tmp_path)


@pytest.fixture
def heat_dir(tmp_path):
    """A heat dir of its own (``tripleo launch heat --heat-dir``)."""
    path = tmp_path / 'heat-dir'
    yield path
    helpers.stop_heat_in(path)


@pytest.fixture
def work_dir(tmp_path):
    """A deployment's work dir; whatever Heat it has is stopped after."""
    path = tmp_path / 'work'
    yield path
    helpers.stop_heat_in(helpers.Layout(path).heat_dir)


@pytest.fixture
def heat(tmp_path):
    """A heatclient of a native Heat of the test's own, killed after."""
    from heatclient import client as heat_client

    from tripleo_ephemeral import heat_launcher

    launcher = heat_launcher.get_launcher(
        'native', str(tmp_path / 'heat'), api_port=readiness.free_port(),
        tuning=heat_launcher.Tuning(leaf_trigger_delay=0.05))
    launcher.start()
    try:
        yield heat_client.Client('1', endpoint=launcher.endpoint, token='x')
    finally:
        launcher.kill()


@pytest.fixture
def adopted_dir(tmp_path):
    """The work dir an adoption writes; whatever Heat it has is stopped
    after."""
    path = tmp_path / 'adopted'
    yield path
    helpers.stop_heat_in(helpers.Layout(path).heat_dir)


@pytest.fixture
def port():
    return readiness.free_port()


@pytest.fixture
def demo_templates(tmp_path):
    dest = tmp_path / 'templates'
    shutil.copytree(helpers.TEMPLATES, dest)
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
    cli = helpers.Cli(str(tmp_path_factory.mktemp('image-home')))
    cli.env['HOME'] = os.path.expanduser('~')  # keep the build cache
    # With pytest-xdist every worker asks for the image: one builds it, the
    # others wait on the lock and then find it built (the same fingerprint).
    shared = tmp_path_factory.getbasetemp().parent
    with open(shared / 'heat-image.lock', 'a') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return cli.json('tripleo', 'heat', 'image', 'build',
                        timeout=1800)['image']


@pytest.fixture
def dumped(cli, work_dir, port, demo_templates):
    """A work dir whose heat dir holds a dump of the demo stack (a
    ResourceGroup of 3 nested templates); Heat is stopped."""
    cli.json('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
             '--heat-api-port', str(port))
    try:
        cli.run('stack', 'create', '-t', str(demo_templates / 'demo.yaml'),
                '--parameter', 'count=3', 'demo', '--wait',
                env={'OS_CLOUD': 'heat'})
    finally:
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
                '--kill')
    return work_dir


@pytest.fixture
def page_servers(tmp_path):
    """The servers the user pages deploy onto, at their addresses
    (:mod:`.docs_run`), with the pages' SSH user; one set at a time on this
    machine."""
    reason = testhosts.unavailable_reason()
    if reason:
        pytest.skip('No test hosts: %s' % reason)
    with open(docs_run.LOCK, 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if testhosts.subnet_in_use(docs_run.SUBNET):
            pytest.skip('%s is in use on this machine: the pages\' servers '
                        'cannot be made' % docs_run.SUBNET)
        network = testhosts.TestHostNetwork(str(tmp_path / 'servers'),
                                            subnet=docs_run.SUBNET)
        try:
            network.start()
            for name, address in docs_run.SERVERS:
                host = network.add(name, address)
                # The user's own authorized_keys: sshd reads the test
                # network's as the user, who cannot read the test's dir.
                user = docs_run.SSH_USER
                home = '/home/%s' % user
                for argv in (['useradd', '-m', user],
                             ['install', '-d', '-m', '700', '-o', user,
                              home + '/.ssh'],
                             ['install', '-m', '600', '-o', user,
                              network.key + '.pub',
                              home + '/.ssh/authorized_keys'],
                             ['sh', '-c', 'echo "%s ALL=(ALL) NOPASSWD:ALL" '
                              '> /etc/sudoers.d/%s && chmod 440 '
                              '/etc/sudoers.d/%s' % ((user,) * 3)]):
                    proc = host.run(*argv)
                    assert proc.returncode == 0, proc.stderr
            yield network
        finally:
            problems = network.stop()
            assert not problems, problems
