"""`openstack overcloud deployed server agent config` on a running Heat.

(The deploy that creates the stack also checks that a failed Ansible play
fails the deploy.)

The stack is created on a Heat launched with `tripleo launch heat` (reached
as OS_CLOUD=heat); the command writes each server's os-collect-config.conf
and pushes it to the SSH test hosts. The real os-collect-config then polls
the URL once. It runs on this machine, not on the test hosts: the Heat API
listens on 127.0.0.1 only and the test hosts have no route to it.
"""

import json
import os
import shutil
import stat
import subprocess

import pytest
import yaml

from tripleo_ephemeral.tests.functional import helpers

HEAT = {'OS_CLOUD': 'heat'}
RESTARTED = '/var/lib/os-collect-config/restarted'


def test_agent_config(cli, heat_dir, work_dir, port, hosts, tmp_path):
    occ = os.path.join(helpers.BIN, 'os-collect-config')
    if not os.access(occ, os.X_OK):
        pytest.skip('os-collect-config is not installed (pip install '
                    '.[test])')
    addr = {name: host.address for name, host in hosts.hosts.items()}
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump({
        'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': addr['ctrl-0']}],
        'Compute': [{'hostname': n, 'ctlplane_ip': addr[n]}
                    for n in ('cmp-0', 'cmp-1')]}))
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--heat-api-port', str(port))
    # The stack stays on this Heat; Ansible cannot log in as nobody (its
    # key is not for that user), which fails the deploy with one line.
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '--overcloud-ssh-key', hosts.key,
                      '--overcloud-ssh-user', 'nobody', env=HEAT,
                      heat_type='installed', stack_only=False, check=False)
    error = helpers.one_line_error(done.proc)
    assert error.startswith('Ansible failed on '), error
    assert 'Permission denied' in error and 'ansible.log' in error
    wd = helpers.Layout(work_dir)
    assert wd.status() == 'DEPLOY_FAILED'

    rows = cli.json(
        'overcloud', 'deployed', 'server', 'agent', 'config',
        '--work-dir', str(work_dir), '--polling-interval', '10',
        '--role-hosts', 'Controller=%s' % addr['ctrl-0'],
        '--role-hosts', 'Compute=%s,%s' % (addr['cmp-0'], addr['cmp-1']),
        '--overcloud-ssh-user', 'root', '--overcloud-ssh-key', hosts.key,
        '--restart-command', 'mkdir -p %s && touch %s' % (
            os.path.dirname(RESTARTED), RESTARTED),
        env=HEAT)
    assert [(r['Role'], r['Index'], r['Hostname']) for r in rows] == [
        ('Compute', 0, 'cmp-0'), ('Compute', 1, 'cmp-1'),
        ('Controller', 0, 'ctrl-0')]
    for row in rows:
        host = hosts.hosts[row['Hostname']]
        assert row['Host'] == host.address and row['Pushed'] is True
        assert row['Metadata URL'].startswith('http://127.0.0.1:%d/' % port)
        assert row['Source'] == 'heat api'
        path = row['Config File']
        assert path == str(wd.agent_config_file(row['Role'], row['Index']))
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        text = open(path).read()
        assert 'collectors = request' in text
        assert 'polling_interval = 10' in text
        assert 'metadata_url = %s' % row['Metadata URL'] in text
        assert host.read('/etc/os-collect-config.conf') == text
        assert host.read(RESTARTED) is not None

    # The real agent fetches its own server's metadata from the Heat.
    ctrl = [r for r in rows if r['Role'] == 'Controller'][0]
    cache = tmp_path / 'occ-cache'
    proc = subprocess.run(
        [occ, '--config-file', ctrl['Config File'], '--one-time', '--print',
         '--cachedir', str(cache), '--backup-cachedir',
         str(tmp_path / 'occ-backup')],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    collected = json.loads(proc.stdout)['request']['metadata']
    names = {d['name'] for d in collected['deployments']}
    assert 'ControllerDeployment' in names
    assert 'ComputeDeployment' not in names
    shutil.rmtree(cache, ignore_errors=True)

    # The guide's variables pick the hosts when --role-hosts is not given.
    hosts.hosts['cmp-0'].run('rm', '/etc/os-collect-config.conf')
    rows = cli.json(
        'overcloud', 'deployed', 'server', 'agent', 'config',
        '--work-dir', str(work_dir), '--overcloud-ssh-user', 'root',
        '--overcloud-ssh-key', hosts.key, '--restart-command', '',
        env=dict(HEAT, OVERCLOUD_ROLES='Controller',
                 Controller_hosts=addr['ctrl-0']))
    assert [r['Pushed'] for r in rows] == [False, False, True]
    assert hosts.hosts['cmp-0'].read('/etc/os-collect-config.conf') is None
