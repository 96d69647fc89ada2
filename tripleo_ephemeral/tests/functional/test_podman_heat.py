"""The container and pod Heat types on real podman, through the CLI.

The image is built once (``openstack tripleo heat image build``) and then
reused across runs: its tag is a fingerprint of the code it holds. The
tests skip, saying why, only when podman cannot run containers at all.
"""

import json
import os
import subprocess

import pytest

from tripleo_ephemeral.heat_launcher import container
from tripleo_ephemeral.tests.functional import conftest

HEAT = {'OS_CLOUD': 'heat'}


def _podman(*args):
    return subprocess.run(['podman'] + list(args), capture_output=True,
                          text=True, timeout=120)


@pytest.fixture(scope='session')
def heat_image(tmp_path_factory):
    try:
        info = _podman('info', '--format', '{{.Host.OCIRuntime.Name}}')
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip('podman cannot run here: %s' % exc)
    if info.returncode != 0:
        pytest.skip('podman cannot run here: %s' % info.stderr.strip())
    cli = conftest.Cli(str(tmp_path_factory.mktemp('image-home')))
    cli.env['HOME'] = os.path.expanduser('~')  # keep the build cache
    built = cli.json('tripleo', 'heat', 'image', 'build', timeout=1800)
    _launch.image = built['image']
    return built['image']


def _leftovers(name):
    ctrs = _podman('ps', '-a', '--filter', 'name=%s' % name, '--format',
                   '{{.Names}}').stdout.split()
    pods = _podman('pod', 'ps', '--filter', 'name=%s' % name, '--format',
                   '{{.Name}}').stdout.split()
    return ctrs + pods


def _launch(cli, heat_dir, *args):
    # The image the session built, even if the code changes meanwhile.
    return cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                    '--heat-container-image', _launch.image, *args)


def _stacks(cli):
    return [(s['Stack Name'], s['Stack Status'])
            for s in cli.json('stack', 'list', env=HEAT)]


def _create_demo(cli, demo_templates, count=3):
    cli.run('stack', 'create', '-t', str(demo_templates / 'demo.yaml'),
            '--parameter', 'count=%d' % count, 'demo', '--wait', env=HEAT)
    return cli.json('stack', 'output', 'show', 'demo', 'values', env=HEAT)


def test_pod_create_kill_restore(cli, heat_dir, port, demo_templates,
                                 heat_image):
    info = _launch(cli, heat_dir, '--heat-type', 'pod', '--heat-api-port',
                   str(port), '--heat-engine-workers', '2')
    assert info['status'] == 'running'
    pod_name = container.podman_name('tripleo-heat-pod', str(heat_dir))
    assert (heat_dir / 'heat-pod.yaml').exists()
    assert 'password' not in info['database']
    services = [s for s in cli.json('orchestration', 'service', 'list',
                                    env=HEAT)
                if s['Binary'] == 'heat-engine' and s['Status'] == 'up']
    assert len(services) >= 2
    before = _create_demo(cli, demo_templates)

    killed = _launch(cli, heat_dir, '--kill')
    assert killed['status'] == 'stopped'
    assert killed['dump'].endswith('heat-db-dump.sql.gz')
    assert _leftovers(pod_name) == []

    restored = _launch(cli, heat_dir, '--restore-db')
    assert restored['api_url'] == info['api_url']
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    after = cli.json('stack', 'output', 'show', 'demo', 'values', env=HEAT)
    assert after['output_value'] == before['output_value']
    _launch(cli, heat_dir, '--kill')
    assert _leftovers(pod_name) == []


def test_stale_pod_is_replaced(cli, heat_dir, port, heat_image):
    _launch(cli, heat_dir, '--heat-type', 'pod', '--heat-api-port', str(port))
    pod_name = container.podman_name('tripleo-heat-pod', str(heat_dir))
    # A crash: the engines die and the launcher forgets the pod.
    _podman('kill', '%s-heat-engine' % pod_name)
    state = json.loads((heat_dir / 'launcher-state.json').read_text())
    state['running'] = False
    (heat_dir / 'launcher-state.json').write_text(json.dumps(state))
    again = _launch(cli, heat_dir, '--heat-type', 'pod')
    assert again['status'] == 'running'
    _launch(cli, heat_dir, '--kill')
    assert _leftovers(pod_name) == []


def test_container_create_kill_restore(cli, heat_dir, port, demo_templates,
                                       heat_image):
    _launch(cli, heat_dir, '--heat-type', 'container', '--heat-api-port',
            str(port))
    name = container.podman_name('tripleo-heat', str(heat_dir))
    assert _leftovers(name) == [name]
    _create_demo(cli, demo_templates, count=2)
    assert _launch(cli, heat_dir, '--kill')['status'] == 'stopped'
    assert _leftovers(name) == []
    _launch(cli, heat_dir, '--restore-db')
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    _launch(cli, heat_dir, '--kill')
    assert _leftovers(name) == []


def test_native_dump_restores_into_pod(cli, heat_dir, port, demo_templates,
                                       heat_image):
    _launch(cli, heat_dir, '--heat-type', 'native', '--heat-api-port',
            str(port))
    before = _create_demo(cli, demo_templates, count=2)
    _launch(cli, heat_dir, '--kill')
    _launch(cli, heat_dir, '--heat-type', 'pod', '--restore-db')
    assert _stacks(cli) == [('demo', 'CREATE_COMPLETE')]
    after = cli.json('stack', 'output', 'show', 'demo', 'values', env=HEAT)
    assert after['output_value'] == before['output_value']
    _launch(cli, heat_dir, '--kill')
