"""`openstack overcloud deploy` of the bundled templates on real Heat."""

import os
import stat

import psutil
import pytest
import yaml

from tripleo_ephemeral.heat_launcher import state as launcher_state

SERVERS = {
    'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.0.2.10'}],
    'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '192.0.2.20'},
                {'hostname': 'cmp-1', 'ctlplane_ip': '192.0.2.21'}],
}


@pytest.fixture
def work_dir(tmp_path):
    from tripleo_ephemeral.tests.functional.conftest import stop_heat_in
    path = tmp_path / 'overcloud-deploy'
    yield path
    stop_heat_in(path / 'heat-launcher')


@pytest.fixture
def servers_file(tmp_path):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump(SERVERS))
    return path


def deploy(cli, work_dir, port, *args, check=True):
    return cli.run('overcloud', 'deploy', '--heat-type', 'native',
                   '--stack-only', '--work-dir', str(work_dir),
                   '--heat-api-port', str(port), *args, check=check)


def assert_no_heat_left(work_dir, port):
    saved = launcher_state.LauncherState(
        str(work_dir / 'heat-launcher')).load()
    assert not saved.get('running')
    pid = saved.get('pid')
    assert pid is None or not psutil.pid_exists(pid)
    listening = [c for c in psutil.net_connections('inet')
                 if c.status == psutil.CONN_LISTEN and c.laddr.port == port]
    assert listening == []


def test_deploy_bundled_templates(cli, work_dir, port, servers_file):
    proc = deploy(cli, work_dir, port, '--deployed-servers',
                  str(servers_file))
    assert 'resources complete' in proc.stdout
    assert 'DEPLOY_SUCCESS' in proc.stdout
    assert_no_heat_left(work_dir, port)

    status = yaml.safe_load((work_dir /
                             'overcloud-deployment_status.yaml').read_text())
    assert status == {'deployment_status': 'DEPLOY_SUCCESS'}

    cd = work_dir / 'config-download' / 'overcloud'
    assert (cd / 'deploy_steps_playbook.yaml').is_file()
    assert (cd / 'Controller').is_dir() and (cd / 'Compute').is_dir()
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    assert sorted(inventory['Compute']['hosts']) == ['cmp-0', 'cmp-1']
    host = inventory['Controller']['hosts']['ctrl-0']
    assert host['ansible_host'] == '192.0.2.10'
    assert host['ctlplane_ip'] == '192.0.2.10'
    assert 'allovercloud' in inventory

    heat_dir = work_dir / 'heat-launcher'
    for name in ('heat.conf', 'api-paste.ini', 'token_file.json',
                 'heat-db-dump.sql.gz'):
        assert (heat_dir / name).exists(), name
    assert (heat_dir / 'log' / 'heat.log').stat().st_size > 0
    passwords = work_dir / 'overcloud-passwords.yaml'
    archives = list(work_dir.glob('overcloud-install-*.tar.gz'))
    assert len(archives) == 1
    for secret in (passwords, archives[0], heat_dir / 'token_file.json',
                   heat_dir / 'heat-db-dump.sql.gz'):
        assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600, secret

    # A second deploy creates a fresh stack and reuses the passwords.
    before = passwords.read_text()
    deploy(cli, work_dir, port, '--deployed-servers', str(servers_file))
    assert passwords.read_text() == before
    assert_no_heat_left(work_dir, port)

    # Re-render from the saved outputs, without Heat.
    (cd / 'deploy_steps_playbook.yaml').unlink()
    cli.run('overcloud', 'deploy', '--config-download-only', '--work-dir',
            str(work_dir))
    assert (cd / 'deploy_steps_playbook.yaml').is_file()


def _one_line_error(proc):
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr
    lines = [line for line in proc.stderr.splitlines()
             if line.strip() and 'Could not load' not in line
             and 'eventlet' not in line.lower()]
    return lines[-1]


def test_bad_inputs_are_one_line_errors(cli, work_dir, port, servers_file,
                                        tmp_path):
    missing = tmp_path / 'missing.yaml'
    proc = deploy(cli, work_dir, port, '--deployed-servers',
                  str(servers_file), '-e', str(missing), check=False)
    assert str(missing) in _one_line_error(proc)
    assert_no_heat_left(work_dir, port)

    malformed = tmp_path / 'malformed.yaml'
    malformed.write_text('parameter_defaults: [unclosed\n')
    proc = deploy(cli, work_dir, port, '--deployed-servers',
                  str(servers_file), '-e', str(malformed), check=False)
    assert 'malformed.yaml' in _one_line_error(proc)
    assert_no_heat_left(work_dir, port)

    unknown = tmp_path / 'unknown-type.yaml'
    unknown.write_text(yaml.safe_dump({'resource_registry': {
        'OS::TripleO::Services::Heartbeat': 'OS::Nope::Nothing'}}))
    proc = deploy(cli, work_dir, port, '--deployed-servers',
                  str(servers_file), '-e', str(unknown), check=False)
    assert 'could not be found' in _one_line_error(proc)
    assert_no_heat_left(work_dir, port)
    status = yaml.safe_load((work_dir /
                             'overcloud-deployment_status.yaml').read_text())
    assert status == {'deployment_status': 'DEPLOY_FAILED'}

    stray = tmp_path / 'stray-role.yaml'
    stray.write_text(yaml.safe_dump({'Storage': [
        {'hostname': 's-0', 'ctlplane_ip': '192.0.2.30'}]}))
    proc = deploy(cli, work_dir, port, '--deployed-servers', str(stray),
                  check=False)
    assert 'Storage' in _one_line_error(proc)
    assert_no_heat_left(work_dir, port)


def test_installed_heat(cli, work_dir, tmp_path, port, servers_file):
    """--heat-type installed uses a Heat found through clouds.yaml."""
    heat_dir = tmp_path / 'long-lived-heat'
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--heat-api-port', str(port), '--cloud-name', 'undercloud')
    try:
        cli.run('overcloud', 'deploy', '--heat-type', 'installed',
                '--stack-only', '--work-dir', str(work_dir),
                '--deployed-servers', str(servers_file),
                env={'OS_CLOUD': 'undercloud'})
        stacks = cli.json('stack', 'list', env={'OS_CLOUD': 'undercloud'})
        assert [s['Stack Name'] for s in stacks] == ['overcloud']
        assert not (work_dir / 'heat-launcher' / 'heat.conf').exists()
    finally:
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill')


def test_pre_deploy_checks_against_the_last_success(cli, work_dir, port,
                                                    tmp_path):
    iso = tmp_path / 'network-isolation.yaml'
    iso.write_text(yaml.safe_dump({'parameter_defaults': {
        'CephClusterFSID': '4b5c8c0a-ff60-454b-a1b4-9747aa737d19'}}))
    deploy(cli, work_dir, port, '-e', str(iso))
    # Dropping the environment is stopped before Heat is launched.
    proc = deploy(cli, work_dir, port, check=False)
    err = _one_line_error(proc)
    assert 'network-isolation-kept' in err and str(iso) in err
    assert 'environment removed: %s' % iso in proc.stdout
    assert_no_heat_left(work_dir, port)
    assert not (work_dir / 'heat-launcher' / 'heat.sqlite').exists()
    # So is a new Ceph fsid.
    changed = tmp_path / 'other' / 'network-isolation.yaml'
    changed.parent.mkdir()
    changed.write_text(yaml.safe_dump({'parameter_defaults': {
        'CephClusterFSID': '00000000-0000-0000-0000-000000000000'}}))
    proc = deploy(cli, work_dir, port, '-e', str(changed), check=False)
    assert 'ceph-fsid-unchanged' in _one_line_error(proc)
    # An operator can go on.
    done = deploy(cli, work_dir, port, '-e', str(changed), '--skip-check',
                  'ceph-fsid-unchanged')
    assert 'DEPLOY_SUCCESS' in done.stdout
    done = deploy(cli, work_dir, port, '--disable-validations')
    assert 'skipped (--disable-validations)' in done.stdout
