"""Container and pod Heats: a lost deploy's watchdog removes them by the
names our code gave them; a signal stops them within 15 s."""

import os
import signal
import time

import pytest

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import podman_env


def _wait_until_removed(heat_dir, timeout=helpers.STOP_BOUND + 30):
    end = time.monotonic() + timeout
    while podman_env.leftovers_of(heat_dir):
        assert time.monotonic() < end, podman_env.leftovers_of(heat_dir)
        time.sleep(0.2)


@pytest.mark.parametrize('heat_type', ['container', 'pod'])
def test_lost_deploy_then_signal(cli, work_dir, heat_image, heat_type):
    wd = helpers.Layout(work_dir)
    args = ('overcloud', 'deploy', '--stack-only', '--work-dir',
            str(work_dir), '--heat-type', heat_type,
            '--heat-container-image', heat_image)
    # 1. The deploy is killed: its watchdog removes the container or pod.
    run = cli.running(*args, '--heat-api-port', str(readiness.free_port()))
    run.wait_for(r'^Creating stack', timeout=400)
    assert podman_env.leftovers_of(wd.heat_dir)
    run.send(signal.SIGKILL)
    run.proc.wait(30)
    _wait_until_removed(wd.heat_dir)
    print('STOP %s, lost terminal, watchdog: %.2fs (load %.2f)' % (
        heat_type, time.monotonic() - run.signalled, os.getloadavg()[0]))
    helpers.assert_no_heat_left(wd.heat_dir)
    assert helpers.processes_naming(wd.path) == []
    assert wd.heat_dump.exists()
    # 2. The next deploy says so, and a SIGTERM stops it in order.
    run = cli.running(*args, '--heat-api-port', str(readiness.free_port()))
    run.wait_for(r'^Creating stack', timeout=400)
    run.send(signal.SIGTERM)
    rc, out = run.finish('%s, stack create' % heat_type)
    assert rc != 0 and 'Traceback' not in run.stderr
    assert 'its watchdog stopped it' in run.stderr
    assert 'Interrupted (SIGTERM)' in run.stderr
    assert podman_env.leftovers_of(wd.heat_dir) == []
    helpers.assert_no_heat_left(wd.heat_dir)
    assert wd.status() == 'DEPLOY_FAILED'
