"""The overcloud's whole life on the test hosts, as the README tells it.

deploy, update prepare, update run on one role, upgrade prepare, upgrade
run, the external runs, node delete of a compute, a deploy that leaves the
deleted node and a blacklisted one out, --config-download-only, credentials,
export (and a second stack from it), status, admin authorize and delete:
each command as a user runs it (``openstack ... -y -f json``), each step
timed (the times are printed: ``pytest -s``).
"""

import os
import pathlib
import stat
import subprocess
import time

import yaml

from tripleo_ephemeral.tests.functional import helpers

MARKERS = helpers.TEST_HOST_MARKERS


class Steps:
    """Runs the steps and keeps their wall times."""

    def __init__(self):
        self.times = []

    def run(self, name, func, *args, **kwargs):
        started = time.monotonic()
        try:
            return func(*args, **kwargs)
        finally:
            self.times.append((name, time.monotonic() - started))
            print('STEP %-34s %6.1fs' % (name, self.times[-1][1]))

    def report(self):
        print('\n'.join('%-36s %6.1fs' % t for t in self.times))
        print('%-36s %6.1fs' % ('total', sum(t for _, t in self.times)))


def marker(host, name):
    """The marker file ``name`` of ``host`` as a dict, or None."""
    text = host.read('%s/%s' % (MARKERS, name))
    if text is None:
        return None
    return dict(line.split('=', 1) for line in text.splitlines() if line)


def git(cd, *args):
    """git in config-download (a repository of every render)."""
    return subprocess.run(['git', '-C', str(cd)] + list(args), check=True,
                          capture_output=True, text=True).stdout


def identifier(cd):
    return str(yaml.safe_load((cd / 'global_vars.yaml').read_text())[
        'deploy_identifier'])


@helpers.LONG_OPT_IN
def test_lifecycle_on_test_hosts(cli, work_dir, port, hosts, tmp_path):
    ctrl, cmp0, cmp1 = (hosts.hosts[n] for n in ('ctrl-0', 'cmp-0',
                                                 'cmp-1'))
    servers = helpers.host_servers_file(tmp_path, 'servers.yaml', hosts,
                                        ['ctrl-0'], ['cmp-0', 'cmp-1'])
    deploy_args = ('--deployed-servers', str(servers),
                   '--overcloud-ssh-key', hosts.key)
    wd = helpers.Layout(work_dir)
    cd = wd.config_download_dir
    steps = Steps()

    def openstack(*args, **kwargs):
        return cli.json(*(args + ('--work-dir', str(work_dir))), **kwargs)

    # 1. Deploy; the rc file and the clouds.yaml entry come with it.
    done = steps.run('deploy', cli.deploy, work_dir, *deploy_args,
                     port=port, stack_only=False)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    rc = (work_dir / 'overcloudrc')
    assert stat.S_IMODE(rc.stat().st_mode) == 0o600
    assert 'export OS_CLOUDNAME=overcloud\n' in rc.read_text()
    clouds = yaml.safe_load((work_dir / 'clouds.yaml').read_text())
    # Keystone is on the control plane VIP, allocated from the pool.
    outputs = yaml.safe_load(helpers.Layout(work_dir).outputs_file
                             .read_text())
    vip = outputs['VipMap']['ctlplane']
    assert vip != ctrl.address
    assert clouds['clouds']['overcloud']['auth']['auth_url'] == (
        'http://%s:5000' % vip)

    # 2. Update prepare: a stack-only deploy with update-prepare.yaml first.
    prepared = steps.run(
        'update prepare', cli.json, 'overcloud', 'update', 'prepare', '-y',
        '--work-dir', str(work_dir), '--heat-api-port', str(port),
        *deploy_args)
    assert prepared['status'] == 'DEPLOY_SUCCESS'
    assert prepared['ansible_seconds'] is None  # no host touched
    global_vars = yaml.safe_load((cd / 'global_vars.yaml').read_text())
    assert global_vars['lifecycle_stage'] == 'update'
    update_id = identifier(cd)

    # 3. Update run on one role.
    ran = steps.run('update run --limit Compute', openstack, 'overcloud',
                    'update', 'run', '--limit', 'Compute', '-y')
    assert ran['status'] == 'UPDATE_RUN_SUCCESS'
    assert ran['playbooks'] == ['update_steps_playbook.yaml']
    for host in (cmp0, cmp1):
        assert marker(host, 'updated') == {
            'deploy_identifier': update_id, 'host': host.name,
            'lifecycle_stage': 'update'}, host.name
        assert marker(host, 'step5')['deploy_identifier'] == update_id
    assert marker(ctrl, 'updated') is None
    assert wd.status() == 'DEPLOY_SUCCESS'  # the runs leave it alone
    # A run of one role is partial: the applied version stays the deploy's.
    assert 'update_steps_playbook.yaml --limit Compute' in git(
        cd, 'tag', '-l', '-n1', 'partial-*')
    assert git(cd, 'rev-parse', 'refs/tripleo/applied') != git(
        cd, 'rev-parse', 'HEAD')

    # 4-5. Upgrade prepare, then upgrade run on every host.
    steps.run('upgrade prepare', cli.json, 'overcloud', 'upgrade',
              'prepare', '-y', '--work-dir', str(work_dir),
              '--heat-api-port', str(port), *deploy_args)
    upgrade_id = identifier(cd)
    assert upgrade_id != update_id
    ran = steps.run('upgrade run --limit overcloud', openstack,
                    'overcloud', 'upgrade', 'run', '--limit', 'overcloud',
                    '-y')
    assert ran['playbooks'] == ['upgrade_steps_playbook.yaml',
                                'deploy_steps_playbook.yaml',
                                'post_upgrade_steps_playbook.yaml']
    for host in (ctrl, cmp0, cmp1):
        for name in ('upgraded', 'post-upgraded', 'step5'):
            assert marker(host, name)['deploy_identifier'] == upgrade_id, (
                host.name, name)
    # --limit overcloud is every host: the upgrade is applied.
    assert git(cd, 'rev-parse', 'refs/tripleo/applied') == git(
        cd, 'rev-parse', 'HEAD')

    # 6. The external runs, on this machine.
    for kind in ('update', 'upgrade'):
        steps.run('external-%s run' % kind, openstack, 'overcloud',
                  'external-%s' % kind, 'run', '-y')
        assert (cd / ('external-%sd' % kind)).read_text() == (
            'deploy_identifier=%s\n' % upgrade_id)

    # 7. Node delete: scale-down tasks on cmp-1, then it leaves.
    proc = steps.run('node delete cmp-1', cli.run, 'overcloud', 'node',
                     'delete', 'cmp-1', '-y', '--work-dir', str(work_dir),
                     '-f', 'json')
    assert [line for line in proc.stderr.splitlines()
            if line.startswith('WARNING: cmp-1 (Compute, %s) was removed'
                               % cmp1.address)], proc.stderr
    assert marker(cmp1, 'scaled-down')['deploy_identifier'] == upgrade_id
    assert marker(cmp0, 'scaled-down') is None
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    assert sorted(inventory['Compute']['hosts']) == ['cmp-0']
    assert not (cd / 'host_vars' / 'cmp-1').exists()
    assert 'Command: openstack overcloud node delete' in git(cd, 'log',
                                                             '-1')

    # 8. The next deploy (same servers file) leaves cmp-1 out and says so;
    # the dropped upgrade-prepare.yaml is no check violation. cmp-0 is
    # blacklisted: the stack has it, the run leaves it out.
    blacklist = tmp_path / 'blacklist.yaml'
    blacklist.write_text(yaml.safe_dump({'parameter_defaults': {
        'DeploymentServerBlacklist': ['cmp-0']}}))
    done = steps.run('deploy (cmp-1 deleted, cmp-0 blacklisted)',
                     cli.deploy, work_dir, *deploy_args, '-e',
                     str(blacklist), port=port, stack_only=False)
    assert 'cmp-1 left out: deleted by "openstack overcloud node delete"' \
        in done.progress
    assert '--limit !cmp-0' in done.progress
    third = identifier(cd)
    assert marker(ctrl, 'step5')['deploy_identifier'] == third
    assert marker(cmp0, 'step5')['deploy_identifier'] == upgrade_id
    assert marker(cmp1, 'step5')['deploy_identifier'] == upgrade_id
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    assert sorted(inventory['Compute']['hosts']) == ['cmp-0']
    assert inventory['excluded_overcloud']['hosts'] == {'cmp-0': {}}

    # --config-download-only: no Heat, render again and run.
    (cd / 'deploy_steps_playbook.yaml').unlink()
    again = steps.run('deploy --config-download-only', cli.deploy,
                      work_dir, '--config-download-only', heat_type=None,
                      stack_only=False).result
    assert again['status'] == 'DEPLOY_SUCCESS'
    assert again['ansible_seconds'] > 0 and again['stack_id'] is None
    assert (cd / 'deploy_steps_playbook.yaml').is_file()

    # 9. Credentials, export, status.
    (work_dir / 'overcloudrc').unlink()
    shown = steps.run('credentials', openstack, 'overcloud', 'credentials')
    assert shown['rc_files'] == [str(work_dir / 'overcloudrc')]
    assert stat.S_IMODE(rc.stat().st_mode) == 0o600
    proc = steps.run('export', cli.run, 'overcloud', 'export',
                     '--work-dir', str(work_dir))
    exported = pathlib.Path(wd.export_file())
    assert str(exported) in proc.stdout
    params = yaml.safe_load(exported.read_text())['parameter_defaults']
    passwords = yaml.safe_load(wd.passwords_file.read_text())[
        'parameter_defaults']
    assert params['AdminPassword'] == passwords['AdminPassword']
    assert not [p for p in params if p.lower().startswith('ceph')]
    assert params['AuthCloudName'] == 'overcloud'
    assert params['AddVipsToEtcHosts'] is False
    assert sorted(params['AllNodesExtraMapData']['marker_short_node_names']
                  ) == ['cmp-0', 'ctrl-0']
    assert params['EndpointMapOverride']['KeystonePublic']['host'] == vip
    status = steps.run('status', openstack, 'overcloud', 'status')
    [status] = status
    assert (status['Stack Name'], status['Deployment Status']) == (
        'overcloud', 'DEPLOY_SUCCESS')
    # cmp-0 was left out of the last runs: what they applied is partial.
    assert status['Config Version'] == git(cd, 'rev-parse', 'HEAD')[:12]
    assert 'partly applied by deploy_steps_playbook.yaml --limit !cmp-0' \
        in status['Undeployed Changes']

    # 10. A second stack from the export (--stack-only).
    second = tmp_path / 'second'
    done = steps.run('second stack -e export --stack-only', cli.deploy,
                     second, '--stack', 'site1', '-e', str(exported),
                     port=port)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    second_vars = yaml.safe_load((helpers.Layout(second, 'site1')
                                  .config_download_dir /
                                  'global_vars.yaml').read_text())
    assert '%s ctrl-0.localdomain ctrl-0' % ctrl.address in \
        second_vars['hosts_entry']
    second_rc = (second / 'site1rc').read_text()
    assert 'export OS_PASSWORD=%s\n' % passwords['AdminPassword'] in \
        second_rc

    # 11. admin authorize: tripleo-admin with the work dir's key.
    shown = steps.run('admin authorize', openstack, 'overcloud', 'admin',
                      'authorize', '-y')
    key = shown['ssh_key']
    assert key == str(work_dir / 'ssh_private_key')
    public = (work_dir / 'ssh_private_key.pub').read_text().strip()
    for host in (ctrl, cmp0):
        assert host.read('/etc/sudoers.d/tripleo-admin') == \
            'tripleo-admin ALL=(ALL) NOPASSWD:ALL\n'
        mode = host.run('stat', '-c', '%a %U', '/etc/sudoers.d/tripleo-admin')
        assert mode.stdout.split() == ['440', 'root']
        assert public in host.read(
            '/home/tripleo-admin/.ssh/authorized_keys')
        login = subprocess.run(
            ['ssh', '-i', key, '-o', 'BatchMode=yes',
             '-o', 'StrictHostKeyChecking=no',
             '-o', 'UserKnownHostsFile=/dev/null',
             'tripleo-admin@%s' % host.address, 'sudo -n true && id -un'],
            capture_output=True, text=True, timeout=60)
        assert login.stdout.strip() == 'tripleo-admin', login.stderr
    assert not os.path.exists('/home/tripleo-admin')  # nothing leaked

    # 12. Delete: Heat gone, the work dir archived and removed, the
    # servers untouched.
    proc = steps.run('delete', cli.run, 'overcloud', 'delete', '-y',
                     '--work-dir', str(work_dir), '-f', 'json')
    assert 'nothing on its servers was stopped' in proc.stderr
    assert not work_dir.exists()
    archives = list(work_dir.parent.glob('overcloud-deleted-*.tar.gz'))
    assert len(archives) == 1
    assert stat.S_IMODE(archives[0].stat().st_mode) == 0o600
    assert marker(ctrl, 'step5')['deploy_identifier'] == third
    helpers.assert_no_heat_left(wd.heat_dir, port)
    steps.report()
