"""`openstack overcloud deploy` onto real servers over SSH.

Three test hosts (the ``hosts`` fixture: network namespaces running sshd,
see testhosts.py) in two roles get the bundled templates deployed onto
them; a second deploy with a changed parameter changes them; a third one
swaps a compute host for a new one: the removed host is dropped with the
seed's warning, the new one is configured.
"""

import os
import re
import stat
import time

import yaml

from tripleo_ephemeral.tests.functional import helpers

MARKERS = helpers.TEST_HOST_MARKERS
CONFIG = '/etc/tripleo-ephemeral-test'
servers_file = helpers.host_servers_file


def deploy(cli, work_dir, port, network, servers, *args, check=True):
    started = time.monotonic()
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '--overcloud-ssh-key', network.key, *args, port=port,
                      stack_only=False, check=check)
    print('deploy took %.1fs:\n%s' % (time.monotonic() - started,
                                      done.progress[-1500:]))
    return done


def markers(host):
    """Return {step: {key: value}} of the host's step marker files."""
    result = {}
    for step in range(1, 6):
        text = host.read('%s/step%d' % (MARKERS, step))
        if text is not None:
            result[step] = dict(line.split('=', 1)
                                for line in text.splitlines())
    return result


def heartbeat_pid(host):
    return int(host.read('%s/heartbeat.pid' % MARKERS).strip())


def check_configured(host, role, all_hosts, identifier):
    steps = markers(host)
    assert sorted(steps) == [1, 2, 3, 4, 5], host.name
    for step, values in steps.items():
        assert values == {'role': role, 'host': host.name,
                          'step': str(step),
                          'deploy_identifier': identifier}, (host.name, step)
    role_yaml = yaml.safe_load(host.read('%s/role.yaml' % CONFIG))
    assert role_yaml['role'] == role
    assert 'bootstrapped' in host.run('ls', MARKERS).stdout
    hosts_file = host.read('/etc/hosts')
    for other in all_hosts:
        assert re.search(r'^%s %s\.localdomain %s$' % (
            re.escape(other.address), other.name, other.name),
            hosts_file, re.M), (host.name, other.name)
    assert host.read('/etc/puppet/hieradata/service_configs.json')


@helpers.LONG_OPT_IN
def test_deploy_onto_test_hosts(cli, work_dir, port, hosts, tmp_path):
    ctrl, cmp0, cmp1 = (hosts.hosts[n] for n in ('ctrl-0', 'cmp-0',
                                                 'cmp-1'))
    first = servers_file(tmp_path, 'servers.yaml', hosts, ['ctrl-0'],
                         ['cmp-0', 'cmp-1'])
    machine_hosts = open('/etc/hosts').read()

    # 1. Deploy: per-host ssh_user from the servers file.
    wd = helpers.Layout(work_dir)
    done = deploy(cli, work_dir, port, hosts, first)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    assert done.result['ansible_seconds'] > 0
    assert re.search(r'PLAY Deploy step 5: .*failed=0', done.progress)
    assert wd.status() == 'DEPLOY_SUCCESS'
    cd = wd.config_download_dir
    assert done.result['config_download'] == str(cd)
    assert 'ctrl-0' in (cd / 'ansible.log').read_text()
    assert [p for p in (cd / 'artifacts').iterdir() if p.is_dir()]
    identifier = str(yaml.safe_load(
        (cd / 'global_vars.yaml').read_text())['deploy_identifier'])

    for host in (cmp0, cmp1):
        check_configured(host, 'Compute', [ctrl, cmp0, cmp1], identifier)
        assert host.read('%s/admin-credentials' % CONFIG) is None
        assert host.read('%s/heartbeat.pid' % MARKERS) is None
    check_configured(ctrl, 'Controller', [ctrl, cmp0, cmp1], identifier)
    password = yaml.safe_load(wd.passwords_file.read_text())[
        'parameter_defaults']['AdminPassword']
    assert 'OS_PASSWORD=%s\n' % password in ctrl.read(
        '%s/admin-credentials' % CONFIG)
    mode = ctrl.run('stat', '-c', '%a', '%s/admin-credentials' % CONFIG)
    assert mode.stdout.strip() == '600'
    assert ctrl.read('%s/heartbeat.conf' % CONFIG) == 'interval=5\n'
    pid = heartbeat_pid(ctrl)
    assert ctrl.process_alive(pid)
    assert 'sleep 5' in ctrl.cmdline(pid)
    assert ctrl.read('%s/heartbeat' % MARKERS).strip().isdigit()
    # Nothing leaked onto this machine.
    assert open('/etc/hosts').read() == machine_hosts
    assert not os.path.exists(MARKERS)

    # 2. A changed parameter changes the servers; --overcloud-ssh-user
    # stands in for the ssh_user the servers file no longer has.
    env = tmp_path / 'faster-heartbeat.yaml'
    env.write_text(yaml.safe_dump({'parameter_defaults': {
        'HeartbeatInterval': 2}}))
    plain = servers_file(tmp_path, 'servers-plain.yaml', hosts, ['ctrl-0'],
                         ['cmp-0', 'cmp-1'], ssh_user=None)
    done = deploy(cli, work_dir, port, hosts, plain, '-e', str(env),
                  '--overcloud-ssh-user', 'root')
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    second = str(yaml.safe_load(
        (cd / 'global_vars.yaml').read_text())['deploy_identifier'])
    assert second != identifier
    assert ctrl.read('%s/heartbeat.conf' % CONFIG) == 'interval=2\n'
    new_pid = heartbeat_pid(ctrl)
    assert new_pid != pid and not ctrl.process_alive(pid)
    assert ctrl.process_alive(new_pid)
    assert 'sleep 2' in ctrl.cmdline(new_pid)
    for host in (ctrl, cmp0, cmp1):
        assert markers(host)[5]['deploy_identifier'] == second, host.name

    # 3. Scale: cmp-1 leaves, the new cmp-2 joins.
    cmp2 = hosts.add('cmp-2')
    swapped = servers_file(tmp_path, 'servers-swapped.yaml', hosts,
                           ['ctrl-0'], ['cmp-0', 'cmp-2'])
    # The environment is passed again: the pre-deploy checks want it.
    done = deploy(cli, work_dir, port, hosts, swapped, '-e', str(env))
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    warning = [line for line in done.progress.splitlines()
               if line.startswith('WARNING: cmp-1 ')]
    assert len(warning) == 1, done.progress
    assert 'power it off' in warning[0] and 'reprovision' in warning[0]
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    assert sorted(inventory['Compute']['hosts']) == ['cmp-0', 'cmp-2']
    third = str(yaml.safe_load(
        (cd / 'global_vars.yaml').read_text())['deploy_identifier'])
    check_configured(cmp2, 'Compute', [ctrl, cmp0, cmp2], third)
    check_configured(ctrl, 'Controller', [ctrl, cmp0, cmp2], third)
    assert 'cmp-1' not in ctrl.read('/etc/hosts')
    assert ctrl.read('%s/heartbeat.conf' % CONFIG) == 'interval=2\n'
    assert heartbeat_pid(ctrl) == new_pid  # unchanged config: not restarted
    # The removed host was left alone, as the warning says.
    assert markers(cmp1)[5]['deploy_identifier'] == second
    saved = yaml.safe_load(wd.deploy_inputs_file.read_text())
    assert [h['hostname'] for h in
            saved['deployed_servers_data']['Compute']] == ['cmp-0', 'cmp-2']
    key_mode = stat.S_IMODE(os.stat(cd / 'ansible.cfg').st_mode)
    assert key_mode == 0o600
