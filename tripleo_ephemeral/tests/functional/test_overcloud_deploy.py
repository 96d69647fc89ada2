"""`openstack overcloud deploy` of the bundled templates on real Heat."""

import json
import os
import stat
import subprocess

import yaml

from tripleo_ephemeral.tests.functional import helpers

SERVERS = {
    'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.0.2.10'}],
    'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '192.0.2.20'},
                {'hostname': 'cmp-1', 'ctlplane_ip': '192.0.2.21'}],
}


def servers_file(tmp_path):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump(SERVERS))
    return path


def _git(path, *args):
    return subprocess.run(['git', '-C', str(path)] + list(args),
                          capture_output=True, text=True, check=True).stdout


def test_deploy_bundled_templates(cli, work_dir, port, tmp_path):
    wd = helpers.Layout(work_dir)
    servers = servers_file(tmp_path)
    # The work dir is inside someone's git repository (a dotfiles $HOME).
    _git(tmp_path, 'init', '-q')
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '--overcloud-ssh-user', 'operator', port=port)
    # The result is the output (pure JSON); progress went to stderr.
    result = done.result
    assert result['status'] == 'DEPLOY_SUCCESS'
    assert result['stack'] == 'overcloud'
    assert result['stack_status'] == 'CREATE_COMPLETE'
    assert result['resources'] > 10 and result['stack_seconds'] > 0
    assert result['ansible_seconds'] is None  # --stack-only
    # The tunings in force are in the result; none refused (issue 37).
    assert 'fast_create' in result['engine_tunings']['installed']
    assert result['engine_tunings']['refused'] == {}
    assert 'WARNING: engine tuning' not in done.progress
    assert result['work_dir'] == str(work_dir)
    assert result['config_download'] == str(wd.config_download_dir)
    assert result['dump'] == str(wd.heat_dump)
    assert 'resources complete' in done.progress
    assert 'Heat ready in' in done.progress
    assert 'Creating stack overcloud' not in json.dumps(result)
    helpers.assert_no_heat_left(wd.heat_dir, port)
    assert wd.status() == 'DEPLOY_SUCCESS'

    cd = wd.config_download_dir
    assert (cd / 'deploy_steps_playbook.yaml').is_file()
    assert (cd / 'Controller').is_dir() and (cd / 'Compute').is_dir()
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    assert sorted(inventory['Compute']['hosts']) == ['cmp-0', 'cmp-1']
    host = inventory['Controller']['hosts']['ctrl-0']
    assert host['ansible_host'] == '192.0.2.10'
    assert host['ctlplane_ip'] == '192.0.2.10'
    # --overcloud-ssh-user is kept with --stack-only.
    assert inventory['Controller']['vars']['ansible_ssh_user'] == 'operator'
    assert 'allovercloud' in inventory

    # --stack-only leaves what a run by hand needs, for plain ansible-core
    # (these playbooks need no tripleo-ansible), and it loads.
    script = (cd / 'ansible-playbook-command.sh').read_text()
    assert 'export ANSIBLE_REMOTE_USER=operator\n' in script
    assert 'ANSIBLE_BECOME' not in script
    assert 'StrictHostKeyChecking=accept-new' in (
        cd / 'ansible.cfg').read_text()
    checked = subprocess.run(['bash', 'ansible-playbook-command.sh',
                              '--syntax-check'], cwd=str(cd),
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    assert 'playbook: %s' % (cd / 'deploy_steps_playbook.yaml') in \
        checked.stdout

    heat_dir = wd.heat_dir
    for name in ('heat.conf', 'api-paste.ini', 'token_file.json',
                 'heat-db-dump.sql.gz'):
        assert (heat_dir / name).exists(), name
    assert (heat_dir / 'log' / 'heat.log').stat().st_size > 0
    passwords = wd.passwords_file
    assert wd.archives.all() == [result['archive']]
    for secret in (passwords, result['archive'],
                   heat_dir / 'token_file.json', wd.heat_dump):
        assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600, secret

    # A second deploy creates a fresh stack and reuses the passwords. The
    # same request again: its size is known before, so is the share done.
    assert 'resources, as the last deploy' not in done.progress
    before = passwords.read_text()
    # A hand edit is kept as the operator's version, then rendered over.
    with open(cd / 'group_vars' / 'Controller', 'a') as f:
        f.write('hotfix: 1\n')
    again = cli.deploy(work_dir, '--deployed-servers', str(servers),
                       port=port)
    kept = _git(cd, 'rev-parse', 'HEAD~1').strip()[:12]
    assert ('config-download had hand edits (1 modified: '
            'group_vars/Controller (modified)): kept as version %s, which '
            'this render replaces; carry them over with "git -C %s '
            'cherry-pick -n %s"' % (kept, cd, kept)) in again.progress
    assert 'hotfix' not in (cd / 'group_vars' / 'Controller').read_text()
    assert again.result['stack_id'] != result['stack_id']
    assert again.result['resources'] == result['resources']
    expected = ('Creating stack overcloud (%d resources, as the last deploy '
                'of the same request)' % result['resources'])
    assert expected in again.progress
    assert passwords.read_text() == before
    helpers.assert_no_heat_left(wd.heat_dir, port)

    # Re-render from the saved outputs and run it, without Heat (limited
    # to this machine: the servers are TEST-NET addresses), config-download's
    # .git damaged: git must not take the repository around it for its.
    (cd / 'deploy_steps_playbook.yaml').unlink()
    (cd / '.git' / 'HEAD').unlink()
    again = cli.deploy(work_dir, '--config-download-only', '--limit',
                       'undercloud', heat_type=None, stack_only=False)
    rendered = again.result
    assert "WARNING: config-download's git history is damaged (.git/HEAD " \
        "is missing): moved to %s.git-damaged-" % cd in again.progress
    assert rendered['config_version'] == _git(
        cd, 'rev-parse', '--short=12', 'HEAD').strip()
    assert _git(tmp_path, 'rev-list', '--all') == ''
    assert rendered['status'] == 'DEPLOY_SUCCESS'
    assert rendered['stack_id'] is None and rendered['ansible_seconds'] > 0
    assert rendered['config_download'] == str(cd)
    assert (cd / 'deploy_steps_playbook.yaml').is_file()


def test_bad_inputs_are_one_line_errors(cli, work_dir, port, tmp_path):
    wd = helpers.Layout(work_dir)
    servers = servers_file(tmp_path)
    missing = tmp_path / 'missing.yaml'
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '-e', str(missing), port=port, check=False)
    assert str(missing) in helpers.one_line_error(done.proc)
    assert done.proc.stdout == ''
    helpers.assert_no_heat_left(wd.heat_dir, port)

    malformed = tmp_path / 'malformed.yaml'
    malformed.write_text('parameter_defaults: [unclosed\n')
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '-e', str(malformed), port=port, check=False)
    assert 'malformed.yaml' in helpers.one_line_error(done.proc)
    helpers.assert_no_heat_left(wd.heat_dir, port)

    unknown = tmp_path / 'unknown-type.yaml'
    unknown.write_text(yaml.safe_dump({'resource_registry': {
        'OS::TripleO::Services::Heartbeat': 'OS::Nope::Nothing'}}))
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      '-e', str(unknown), port=port, check=False)
    assert 'could not be found' in helpers.one_line_error(done.proc)
    helpers.assert_no_heat_left(wd.heat_dir, port)
    # Heat refused the create: the status is as it was (issue 29), and
    # this work dir has never had a deploy.
    assert wd.status() is None

    stray = tmp_path / 'stray-role.yaml'
    stray.write_text(yaml.safe_dump({'Storage': [
        {'hostname': 's-0', 'ctlplane_ip': '192.0.2.30'}]}))
    done = cli.deploy(work_dir, '--deployed-servers', str(stray), port=port,
                      check=False)
    assert 'Storage' in helpers.one_line_error(done.proc)
    helpers.assert_no_heat_left(wd.heat_dir, port)


def test_installed_heat(cli, work_dir, heat_dir, port, tmp_path):
    """--heat-type installed uses a Heat found through clouds.yaml."""
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--heat-api-port', str(port), '--cloud-name', 'undercloud')
    try:
        done = cli.deploy(work_dir, '--deployed-servers',
                          str(servers_file(tmp_path)),
                          heat_type='installed',
                          env={'OS_CLOUD': 'undercloud'})
        assert done.result['dump'] is None  # not ours to stop or dump
        stacks = cli.json('stack', 'list', env={'OS_CLOUD': 'undercloud'})
        assert [s['Stack Name'] for s in stacks] == ['overcloud']
        assert not (helpers.Layout(work_dir).heat_dir / 'heat.conf').exists()
    finally:
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill')


def test_pre_deploy_checks_against_the_last_success(cli, work_dir, port,
                                                    tmp_path):
    wd = helpers.Layout(work_dir)
    iso = tmp_path / 'network-isolation.yaml'
    iso.write_text(yaml.safe_dump({'parameter_defaults': {
        'CephClusterFSID': '4b5c8c0a-ff60-454b-a1b4-9747aa737d19'}}))
    cli.deploy(work_dir, '-e', str(iso), port=port)
    # Dropping the environment is stopped before Heat is launched.
    done = cli.deploy(work_dir, port=port, check=False)
    err = helpers.one_line_error(done.proc)
    assert 'network-isolation-kept' in err and str(iso) in err
    assert 'environment removed: %s' % iso in done.progress
    helpers.assert_no_heat_left(wd.heat_dir, port)
    assert not (wd.heat_dir / 'heat.sqlite').exists()
    # So is a new Ceph fsid.
    changed = tmp_path / 'other' / 'network-isolation.yaml'
    changed.parent.mkdir()
    changed.write_text(yaml.safe_dump({'parameter_defaults': {
        'CephClusterFSID': '00000000-0000-0000-0000-000000000000'}}))
    done = cli.deploy(work_dir, '-e', str(changed), port=port, check=False)
    assert 'ceph-fsid-unchanged' in helpers.one_line_error(done.proc)
    # An operator can go on.
    done = cli.deploy(work_dir, '-e', str(changed), '--skip-check',
                      'ceph-fsid-unchanged', port=port)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    done = cli.deploy(work_dir, '--disable-validations', port=port)
    assert 'skipped (--disable-validations)' in done.progress


def test_role_network_missing_from_the_networks_data(cli, work_dir, port,
                                                     tmp_path):
    from tripleo_ephemeral.overcloud import template_processing

    roles = yaml.safe_load(open(os.path.join(
        template_processing.bundled_templates_dir(), 'roles_data.yaml')))
    roles[1]['networks'] = {'ctlplane': {}, 'Tenant': {
        'subnet': 'tenant_subnet'}}
    roles_file = tmp_path / 'roles.yaml'
    roles_file.write_text(yaml.safe_dump(roles))
    networks = tmp_path / 'networks.yaml'
    networks.write_text(yaml.safe_dump([{'name': 'InternalApi'}]))
    done = cli.deploy(work_dir, '-r', str(roles_file), '-n', str(networks),
                      port=port, check=False)
    err = helpers.one_line_error(done.proc)
    assert 'role Compute uses network Tenant' in err and 'roles.yaml' in err
    helpers.assert_no_heat_left(helpers.Layout(work_dir).heat_dir, port)


def test_ipv6_control_plane(cli, work_dir, port, tmp_path):
    """Issue 29 case 6: an IPv6 control plane is the hosts' /64 (it was a
    /24, 2001:d00::/24, with the VIP outside the hosts' network); the VIP
    and the rc file follow."""
    servers = tmp_path / 'v6.yaml'
    servers.write_text(yaml.safe_dump({
        'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '2001:db8::10'}],
        'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '2001:db8::20'}]}))
    done = cli.deploy(work_dir, '--deployed-servers', str(servers),
                      port=port)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    wd = helpers.Layout(work_dir)
    assert yaml.safe_load(wd.ip_allocations_file.read_text())['vips'] == {
        'ctlplane': '2001:db8::2'}
    generated = wd.deployed_servers_file.read_text()
    assert '2001:db8::/64' in generated and '/24' not in generated
    assert "OS_AUTH_URL='http://[2001:db8::2]:5000'" in \
        wd.rc_file.read_text()
    inventory = yaml.safe_load((wd.config_download_dir /
                                'tripleo-ansible-inventory.yaml').read_text())
    assert inventory['Controller']['hosts']['ctrl-0']['ansible_host'] == \
        '2001:db8::10'
