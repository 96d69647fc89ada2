"""The container and pod Heat types on real podman, through the CLI.

The image comes from the session fixture ``heat_image`` (built once, then
reused: its tag is a fingerprint of the code it holds). The tests skip,
saying why, only when podman cannot run containers at all.
"""

import json
import time

import psutil
import pytest

from tripleo_ephemeral.heat_launcher import pod
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import podman_env

HEAT = {'OS_CLOUD': 'heat'}


@pytest.fixture
def launch(cli, heat_dir, heat_image):
    """``tripleo launch heat`` in ``heat_dir`` with the session's image."""
    def _launch(*args):
        return cli.json('tripleo', 'launch', 'heat', '--heat-dir',
                        str(heat_dir), '--heat-container-image', heat_image,
                        *args)
    return _launch


def _stacks(cli):
    return [(s['Stack Name'], s['Stack Status'])
            for s in cli.json('stack', 'list', env=HEAT)]


def _outputs(cli):
    return cli.json('stack', 'output', 'show', 'demo', 'values',
                    env=HEAT)['output_value']


def _create_demo(cli, demo_templates, count=3):
    cli.run('stack', 'create', '-t', str(demo_templates / 'demo.yaml'),
            '--parameter', 'count=%d' % count, 'demo', '--wait', env=HEAT)
    return _outputs(cli)


def state_ports(heat_dir):
    state = json.loads((heat_dir / 'launcher-state.json').read_text())
    return dict(state['pod_ports'], api=state['api_port'])


def _pod_pids(heat_dir):
    name = pod.PodHeatLauncher(str(heat_dir)).pod_name
    pids = set()
    for part in pod.SERVICES + pod.HEAT:
        pids |= podman_env.container_pids('%s-%s' % (name, part))
    return pids


def _pod_listeners(heat_dir):
    """Listening sockets on the pod's ports or of its processes."""
    ports = set(state_ports(heat_dir).values())
    pids = _pod_pids(heat_dir)
    return ports, [c for c in psutil.net_connections('inet')
                   if c.status == psutil.CONN_LISTEN and
                   (c.laddr.port in ports or c.pid in pids)]


def _wait_for_epmd_monitor(heat_dir):
    """Until RabbitMQ's epmd monitor has first tried to revive epmd.

    It does so every minute from the broker's boot, by running an
    ``erl -sname``, which starts epmd unless told not to. The wait counts
    from the container's start, with a margin for the boot.
    """
    name = pod.PodHeatLauncher(str(heat_dir)).pod_name + '-rabbitmq'
    pid = podman_env.podman('inspect', '--format', '{{.State.Pid}}', name)
    started = psutil.Process(int(pid.stdout)).create_time()
    time.sleep(max(0, started + 60 + 20 - time.time()))


def _process_names(pids):
    names = set()
    for pid in pids:
        try:
            names.add(psutil.Process(pid).name())
        except psutil.NoSuchProcess:
            pass
    return names


def test_pod_create_kill_restore(cli, launch, heat_dir, port,
                                 demo_templates):
    info = launch('--heat-type', 'pod', '--heat-api-port', str(port),
                  '--heat-engine-workers', '2')
    assert info['status'] == 'running'
    assert (heat_dir / 'heat-pod.yaml').exists()
    assert 'password' not in info['database']
    services = [s for s in cli.json('orchestration', 'service', 'list',
                                    env=HEAT)
                if s['Binary'] == 'heat-engine' and s['Status'] == 'up']
    assert len(services) >= 2
    ports, listeners = _pod_listeners(heat_dir)
    assert {c.laddr.port for c in listeners} >= ports
    assert {c.laddr.ip for c in listeners} == {'127.0.0.1'}
    before = _create_demo(cli, demo_templates)
    # No epmd, not even after RabbitMQ tried to start one.
    _wait_for_epmd_monitor(heat_dir)
    assert {c.laddr.ip for c in _pod_listeners(heat_dir)[1]} == {'127.0.0.1'}
    assert 'epmd' not in _process_names(_pod_pids(heat_dir))

    killed = launch('--kill')
    assert killed['status'] == 'stopped'
    assert killed['dump'].endswith('heat-db-dump.sql.gz')
    assert podman_env.leftovers_of(heat_dir) == []

    creds = (heat_dir / pod.CREDENTIALS_FILE).read_text()
    secret = (heat_dir / 'api_secret').read_text()
    restored = launch('--restore-db')
    # Same port; new secrets (API, MariaDB, RabbitMQ) for every launch.
    assert restored['api_url'] == info['api_url']
    assert (heat_dir / 'api_secret').read_text() != secret
    assert (heat_dir / pod.CREDENTIALS_FILE).read_text() != creds
    assert helpers.as_other_user(
        'GET', 'http://127.0.0.1:%d/v1/admin/stacks' % port) == 401
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    assert _outputs(cli) == before
    launch('--kill')
    assert podman_env.leftovers_of(heat_dir) == []

    # The pod's MySQL dump, into SQLite through a scratch MariaDB.
    launch('--heat-type', 'native', '--restore-db')
    assert podman_env.leftovers_of(heat_dir) == []
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    assert _outputs(cli) == before
    launch('--kill')


def test_stale_pod_is_replaced(launch, heat_dir, port):
    launch('--heat-type', 'pod', '--heat-api-port', str(port))
    pod_name = podman.podman_name('tripleo-heat-pod', str(heat_dir))
    # A crash: the engines die and the launcher forgets the pod.
    podman_env.podman('kill', '%s-heat-engine' % pod_name)
    state = json.loads((heat_dir / 'launcher-state.json').read_text())
    state['running'] = False
    (heat_dir / 'launcher-state.json').write_text(json.dumps(state))
    again = launch('--heat-type', 'pod')
    assert again['status'] == 'running'
    launch('--kill')
    assert podman_env.leftovers_of(heat_dir) == []


def test_container_create_kill_restore(cli, launch, heat_dir, port,
                                       demo_templates):
    launch('--heat-type', 'container', '--heat-api-port', str(port))
    name = podman.podman_name('tripleo-heat', str(heat_dir))
    assert podman_env.leftovers_of(heat_dir) == [name]
    _create_demo(cli, demo_templates, count=2)
    assert helpers.as_other_user(
        'DELETE', 'http://127.0.0.1:%d/v1/admin/stacks/demo' % port) == 401
    assert launch('--kill')['status'] == 'stopped'
    assert podman_env.leftovers_of(heat_dir) == []
    launch('--restore-db')
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    launch('--kill')
    assert podman_env.leftovers_of(heat_dir) == []


@helpers.LONG_OPT_IN
def test_native_dump_restores_into_pod(cli, launch, heat_dir, port,
                                       demo_templates):
    launch('--heat-type', 'native', '--heat-api-port', str(port))
    before = _create_demo(cli, demo_templates, count=2)
    launch('--kill')
    launch('--heat-type', 'pod', '--restore-db')
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    assert _outputs(cli) == before
    launch('--kill')
    assert podman_env.leftovers_of(heat_dir) == []


@pytest.mark.parametrize('heat_type', ['pod', 'container'])
def test_sigterm_while_starting_leaves_nothing(cli, heat_dir, heat_image,
                                               port, heat_type):
    """SIGTERM while the containers start: all of them are removed."""
    import signal

    proc = cli.spawn('tripleo', 'launch', 'heat', '--heat-type', heat_type,
                     '--heat-dir', str(heat_dir), '--heat-api-port',
                     str(port), '--heat-container-image', heat_image)
    end = time.monotonic() + 120
    while time.monotonic() < end and not podman_env.leftovers_of(heat_dir):
        time.sleep(0.1)
    assert podman_env.leftovers_of(heat_dir), 'nothing was started'
    time.sleep(1)  # inside the start-up
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=180)
    assert proc.returncode != 0
    assert 'Interrupted' in err and 'Traceback' not in err
    assert podman_env.leftovers_of(heat_dir) == []
    # The next launch works without clean-up.
    info = cli.json('tripleo', 'launch', 'heat', '--heat-type', heat_type,
                    '--heat-dir', str(heat_dir), '--heat-api-port',
                    str(port), '--heat-container-image', heat_image)
    assert info['status'] == 'running'
    cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
            '--kill')
    assert podman_env.leftovers_of(heat_dir) == []
