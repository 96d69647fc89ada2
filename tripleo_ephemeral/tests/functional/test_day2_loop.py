"""The operator's day-2 loop, each point as a user meets it (issue 48).

The quick start keeps to a work dir of its own and books its venv apart;
a deploy keeps the per-deployment choices of the last successful one and
names a change; exactly the commands that change servers ask; status tells
a render from an applied version; a refused run is no run; ``--dry-run``
keeps nothing and says so; a table reads in 100 columns; and the recap of
a ``node delete`` of a dead host says it was unreachable.
"""

import json
import os
import subprocess
import sys

import yaml

from tripleo_ephemeral.tests.functional import docs_run
from tripleo_ephemeral.tests.functional import helpers

NOT_CONFIRMED = 'not confirmed: stdin is not a terminal; pass -y to confirm'


def _users(work_dir):
    inventory = yaml.safe_load(helpers.Layout(work_dir).config_download_dir
                               .joinpath('tripleo-ansible-inventory.yaml')
                               .read_text())
    return {body['vars']['ansible_ssh_user'] for body in inventory.values()
            if isinstance(body, dict) and 'ansible_ssh_user' in (
                body.get('vars') or {})}


def test_the_quick_start_keeps_to_its_own_work_dir(cli, tmp_path):
    """tools/dev.py deploy: the stack "sample" in ~/overcloud-deploy/sample,
    its time before the exec booked as venv; a real deploy into the default
    work dir right after is not refused."""
    proc = subprocess.run(
        [sys.executable, os.path.join(docs_run.ROOT, 'tools', 'dev.py'),
         'deploy', '-f', 'json', '-c', 'work_dir', '-c', 'phase_seconds'],
        env=dict(cli.env, TRIPLEO_EPHEMERAL_VENV=sys.prefix),
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    home = cli.env['HOME']
    assert result['work_dir'] == os.path.join(home, 'overcloud-deploy',
                                              'sample')
    assert list(result['phase_seconds'])[:2] == ['venv', 'startup']
    assert 'deploying the bundled sample as stack sample into ' \
        '~/overcloud-deploy/sample' in proc.stderr
    real = cli.json('overcloud', 'deploy', '--stack-only')
    assert real['work_dir'] == os.path.join(home, 'overcloud-deploy',
                                            'overcloud')
    assert real['status'] == 'DEPLOY_SUCCESS'


def test_choices_are_kept_and_a_change_is_named(cli, work_dir, port,
                                                tmp_path):
    key = tmp_path / 'key'
    subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f',
                    str(key)], check=True)
    first = cli.deploy(work_dir, '--overcloud-ssh-user', 'cloud-admin',
                       '--overcloud-ssh-key', str(key),
                       '--deployment-python-interpreter', '/usr/bin/python3',
                       port=port)
    assert _users(work_dir) == {'cloud-admin'}
    assert 'Kept from' not in first.progress
    # Left out: kept, and said so; the render is the same.
    again = cli.deploy(work_dir, port=port)
    assert ('Kept from the last successful deploy: --overcloud-ssh-user '
            'cloud-admin, --overcloud-ssh-key %s, '
            '--deployment-python-interpreter /usr/bin/python3' % key) \
        in again.progress
    assert _users(work_dir) == {'cloud-admin'}
    status = cli.json('overcloud', 'status', '--work-dir', str(work_dir))[0]
    assert status['Deployment Status'] == 'DEPLOY_SUCCESS'
    assert status['Applied Version'] == (
        'none (no version applied yet: rendered only)')
    # Given again with another value: named before Heat, and in the diff.
    changed = cli.deploy(work_dir, '--overcloud-ssh-user', 'tripleo-admin',
                         port=port)
    assert ('option changed:      --overcloud-ssh-user cloud-admin -> '
            'tripleo-admin') in changed.progress
    assert _users(work_dir) == {'tripleo-admin'}
    diff = cli.json('overcloud', 'config', 'diff', '--work-dir',
                    str(work_dir), '--from', 'HEAD~1')
    assert [(row['Kind'], row['Name']) for row in diff
            if row['Kind'] == 'parameter'] == [
                ('parameter', '--overcloud-ssh-user')]


def _rows(out):
    """``{field: value}`` of a ShowOne table."""
    return {line.split('|')[1].strip(): line.split('|')[2].strip()
            for line in out.splitlines() if line.startswith('| ')}


def test_asking_tables_and_refused_runs(cli, work_dir, port):
    """Only the commands that change servers ask; a table reads in 100
    columns (summarised values, whole with --long); a playbook refused
    before Ansible starts (a module that is not installed) is not recorded
    as a run."""
    table = _rows(cli.run('overcloud', 'deploy', '--stack-only',
                          '--work-dir', str(work_dir), '--heat-api-port',
                          str(port)).stdout)
    for name in ('phase_seconds', 'engine_tunings', 'undeployed_changes'):
        assert len(table[name]) <= 72, table[name]
    assert table['engine_tunings'].endswith('in force')
    before = helpers.Layout(work_dir).status()
    for argv in (['overcloud', 'deploy', '--config-download-only'],
                 ['overcloud', 'admin', 'authorize']):
        proc = cli.run(*argv, '--work-dir', str(work_dir), check=False)
        assert proc.returncode == 1
        assert NOT_CONFIRMED in proc.stderr.strip().splitlines()[-1], \
            proc.stderr
    assert helpers.Layout(work_dir).status() == before
    # A prepare touches no server: it asks nothing. --long: whole values.
    prepared = _rows(cli.run('overcloud', 'update', 'prepare', '--long',
                             '--work-dir', str(work_dir), '--heat-api-port',
                             str(port)).stdout)
    assert prepared['status'] == 'DEPLOY_SUCCESS'
    assert prepared['engine_tunings'].startswith('in force: ')
    assert 'startup=' in prepared['phase_seconds']

    cd = helpers.Layout(work_dir).config_download_dir
    playbook = cd / 'update_steps_playbook.yaml'
    plays = yaml.safe_load(playbook.read_text())
    for play in plays:  # the check reads the plays of the --limit hosts
        play['tasks'] = [{'name': 'Not installed',
                          'tripleo_no_such_module': {}}] + list(
            play.get('tasks') or [])
    playbook.write_text(yaml.safe_dump(plays))
    proc = cli.run('overcloud', 'update', 'run', '--limit', 'Compute', '-y',
                   '--work-dir', str(work_dir), check=False)
    assert proc.returncode == 1
    assert 'tripleo_no_such_module' in proc.stderr
    history = cli.json('overcloud', 'config', 'history', '--work-dir',
                       str(work_dir))
    assert [row['Runs'] for row in history if row['Runs']] == []


def test_a_dry_run_says_it_keeps_no_address(cli, work_dir):
    proc = cli.run('overcloud', 'deploy', '--dry-run', '--work-dir',
                   str(work_dir))
    assert 'Would allocate VIPs: ctlplane 192.0.2.2 (--dry-run keeps ' \
        'nothing)' in proc.stderr
    assert 'kept in' not in proc.stderr
    assert not helpers.Layout(work_dir).ip_allocations_file.exists()


# Opt-in: alone it passes (3 runs of 3, also in a CI clone's venv and
# HOME); in the whole parallel suite its node delete twice saw cmp-0's
# fact gathering fail ("modules failed to execute") instead of
# unreachable, a cause not found yet.
@helpers.LONG_OPT_IN
def test_the_recap_of_a_dead_host_says_unreachable(cli, work_dir, port,
                                                   hosts, tmp_path):
    servers = helpers.host_servers_file(tmp_path, 'servers.yaml', hosts,
                                        ['ctrl-0'], ['cmp-0'])
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '--overcloud-ssh-key', hosts.key, port=port,
                      stack_only=False)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    assert hosts.hosts['cmp-0'].stop() == []
    proc = cli.run('overcloud', 'node', 'delete', 'cmp-0', '-y',
                   '--work-dir', str(work_dir), '-f', 'json')
    assert json.loads(proc.stdout)['unreachable'] == ['cmp-0']
    recap = [line.split() for line in proc.stderr.splitlines()
             if line.strip().startswith('cmp-0 ') and 'ok=' in line]
    assert recap and 'unreachable=1' in recap[-1], proc.stderr
