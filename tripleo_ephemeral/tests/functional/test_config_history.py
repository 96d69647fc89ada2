"""config-download's history on the test hosts: what a deploy will change.

Deploy the bundled templates onto two test hosts (a real Ansible run),
change one parameter and render again with --stack-only: the diff names
exactly the files and the host the parameter reaches, the noise of a fresh
stack counted apart; status reports the undeployed change until
--config-download-only applies it. Then a backup restored elsewhere keeps
the history.
"""

import subprocess
import time

import yaml

from tripleo_ephemeral.tests.functional import helpers

#: What HeartbeatInterval reaches in the bundled templates (the heartbeat
#: service runs on the Controller only).
HEARTBEAT_FILES = {'Controller/ansible_group_vars.yaml',
                   'Controller/config_settings.yaml',
                   'Controller/ctrl-0/ControllerDeployment',
                   'group_vars/Controller'}


def git(cd, *args):
    return subprocess.run(['git', '-C', str(cd)] + list(args), check=True,
                          capture_output=True, text=True).stdout


def status(cli, work_dir):
    return cli.json('overcloud', 'status', '--work-dir', str(work_dir))[0]


@helpers.LONG_OPT_IN
def test_config_history_on_test_hosts(cli, work_dir, port, hosts, tmp_path):
    servers = helpers.host_servers_file(tmp_path, 'servers.yaml', hosts,
                                        ['ctrl-0'], ['cmp-0'])
    key = hosts.key
    cd = helpers.Layout(work_dir).config_download_dir

    # 1. A deploy that runs Ansible applies what it rendered.
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '--overcloud-ssh-key', key, port=port,
                      stack_only=False)
    first = done.result['config_version']
    assert first and done.result['undeployed_changes'] is None
    shown = status(cli, work_dir)
    assert shown['Config Version'] == shown['Applied Version'] == first
    assert shown['Undeployed Changes'] == 'none'
    # What the run left there is not versioned.
    assert git(cd, 'status', '--porcelain') == ''
    tracked = git(cd, 'ls-files').split()
    assert 'deploy_steps_playbook.yaml' in tracked
    assert not [f for f in tracked if f.startswith(('artifacts/',
                                                   'ansible.'))]

    # 2. One parameter changed, rendered only: the next run's changes.
    env = tmp_path / 'heartbeat.yaml'
    env.write_text(yaml.safe_dump({'parameter_defaults': {
        'HeartbeatInterval': 2}}))
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '-e', str(env), port=port)
    second = done.result['config_version']
    assert second != first
    assert 'HeartbeatInterval' in done.result['undeployed_changes']
    assert 'The next Ansible run would change 4 file(s) on 1 host(s) ' \
        '(ctrl-0)' in done.progress
    started = time.monotonic()
    rows = cli.json('overcloud', 'config', 'diff', '--work-dir',
                    str(work_dir))
    print('config diff took %.1fs' % (time.monotonic() - started))
    files = {r['Name']: r for r in rows if r['Kind'] == 'file'}
    assert set(files) == HEARTBEAT_FILES
    assert all(r['Hosts'] == ['ctrl-0'] for r in files.values())
    assert files['group_vars/Controller']['Added'] == 1
    assert [(r['Kind'], r['Name'], r['Detail']) for r in rows
            if r['Kind'] != 'file'] == [
        ('parameter', 'HeartbeatInterval', '(unset) -> 2')]
    proc = cli.run('overcloud', 'config', 'diff', '--work-dir',
                   str(work_dir), '--unified')
    assert '-tripleo_ephemeral_test_heartbeat_interval: 5\n' \
        '+tripleo_ephemeral_test_heartbeat_interval: 2\n' in proc.stdout
    assert 'noise line(s)' in proc.stderr
    # The noise is there, hidden: ids and the identifier of a new stack.
    noisy = cli.json('overcloud', 'config', 'diff', '--work-dir',
                     str(work_dir), '--show-noise')
    noise = [r for r in noisy if r['Change'] == 'noise']
    assert noise and not HEARTBEAT_FILES & {r['Name'] for r in noise}
    hidden = {r['Name'] for r in noisy if r['Kind'] == 'parameter'}
    assert {'DeployIdentifier', 'HeartbeatInterval'} <= hidden
    shown = status(cli, work_dir)
    assert shown['Config Version'] == second
    assert shown['Applied Version'] == first
    assert 'HeartbeatInterval' in shown['Undeployed Changes']
    assert shown['Undeployed Since']

    # 3. --config-download-only applies it; nothing is left undeployed.
    done = cli.deploy(work_dir, '--config-download-only', heat_type=None,
                      stack_only=False)
    assert done.result['undeployed_changes'] is None
    shown = status(cli, work_dir)
    assert shown['Applied Version'] == shown['Config Version'] == second
    assert shown['Undeployed Changes'] == 'none'
    versions = cli.json('overcloud', 'config', 'history', '--work-dir',
                        str(work_dir))
    assert [v['Version'] for v in versions] == [second, first]
    assert versions[0]['Applied'] and not versions[1]['Applied']
    assert [len(v['Runs']) for v in versions] == [1, 1]
    assert 'Command: openstack overcloud deploy' in git(cd, 'log', '-1')
    assert len(git(cd, 'tag', '-l', 'applied-*').split()) == 2

    # 4. A backup restored elsewhere keeps the history.
    backup = tmp_path / 'backup.tar.gz'
    cli.run('tripleo', 'backup', 'create', '--work-dir', str(work_dir),
            '--output', str(backup))
    restored = tmp_path / 'restored'
    cli.run('tripleo', 'backup', 'restore', '--work-dir', str(restored),
            str(backup))
    again = cli.json('overcloud', 'config', 'history', '--work-dir',
                     str(restored))
    assert [v['Version'] for v in again] == [second, first]
    assert status(cli, restored)['Undeployed Changes'] == 'none'
