"""Two deploys at once without choosing ports; deploying again onto an
installed (long-lived) Heat updates its stack."""

import socket

import yaml

from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.tests.functional import helpers


def _hold(port):
    """Listen on ``port`` if nothing does yet (else someone else holds
    it): either way a launch must pick another port."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(('127.0.0.1', port))
        sock.listen()
    except OSError:
        sock.close()
        return None
    return sock


def test_two_stacks_at_once(cli, tmp_path):
    held = _hold(base.DEFAULT_API_PORT)
    dirs = [tmp_path / 'a', tmp_path / 'b']
    try:
        runs = [cli.running('overcloud', 'deploy', '--stack-only', '--stack',
                            'oc-%s' % d.name, '--work-dir', str(d), '-f',
                            'json') for d in dirs]
        for run in runs:
            assert run.proc.wait(600) == 0, run.stderr
            assert 'Heat listens on port' in run.stderr
    finally:
        if held is not None:
            held.close()
        for d in dirs:
            helpers.stop_heat_in(helpers.Layout(d).heat_dir)
    ports = []
    for d in dirs:
        heat_dir = helpers.Layout(d).heat_dir
        saved = launcher_state.LauncherState(str(heat_dir)).load()
        ports.append(saved['api_port'])
        clouds = yaml.safe_load((heat_dir / 'clouds.yaml').read_text())
        assert ':%d/' % saved['api_port'] in str(clouds)
        assert helpers.Layout(d, 'oc-%s' % d.name).status() == \
            'DEPLOY_SUCCESS'
    assert len(set(ports)) == 2 and base.DEFAULT_API_PORT not in ports


def test_installed_heat_updates_its_stack(cli, heat_dir, work_dir):
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir))
    try:
        first = cli.deploy(work_dir, heat_type='installed',
                           env={'OS_CLOUD': 'heat'})
        assert first.result['stack_status'] == 'CREATE_COMPLETE'
        second = cli.deploy(work_dir, heat_type='installed',
                            env={'OS_CLOUD': 'heat'})
    finally:
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill')
    assert second.result['status'] == 'DEPLOY_SUCCESS'
    assert second.result['stack_status'] == 'UPDATE_COMPLETE'
    assert second.result['stack_id'] == first.result['stack_id']
    assert 'Updating stack overcloud' in second.progress
    assert 'UPDATE_IN_PROGRESS' in second.progress
    assert 'Stack overcloud UPDATE_COMPLETE' in second.progress
    # Only the update's events are shown, not the create's again.
    assert 'CREATE_IN_PROGRESS' not in second.progress
    assert second.result['resources'] == first.result['resources']
