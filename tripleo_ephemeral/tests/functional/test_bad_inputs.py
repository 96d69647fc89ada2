"""Each bad input: one line naming it and the fix, no traceback, no Heat."""

import gzip
import os
import shutil

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import heat_sqlite
from tripleo_ephemeral import tht

_error = helpers.one_line_error


def _nothing_running(heat_dir):
    helpers.assert_no_heat_left(heat_dir)


def test_missing_templates_dir(cli, work_dir, port, tmp_path):
    missing = tmp_path / 'no-templates'
    done = cli.deploy(work_dir, '--templates', str(missing), port=port,
                      check=False)
    assert str(missing) in _error(done.proc)
    _nothing_running(helpers.Layout(work_dir).heat_dir)


def test_tht_without_tripleo_ansible_fails_before_heat(cli, work_dir,
                                                       port, tmp_path):
    try:
        templates = tht.find()
    except exceptions.TemplatesNotFoundError as exc:
        pytest.skip(str(exc))
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump({
        'Controller': [{'hostname': 'overcloud-controller-0',
                        'ctlplane_ip': '192.0.2.10'}],
        'Compute': [{'hostname': 'overcloud-novacompute-0',
                     'ctlplane_ip': '192.0.2.20'}]}))
    nowhere = tmp_path / 'no-ansible'
    done = cli.deploy(work_dir, '--templates', templates,
                      '--deployed-servers', str(servers), port=port,
                      stack_only=False, check=False,
                      env={'TRIPLEO_EPHEMERAL_ANSIBLE': str(nowhere)})
    error = _error(done.proc)
    assert error.startswith("TripleO's Ansible (tripleo-ansible 6.0.0 on "
                            'ansible-core 2.14.18) is not installed in %s'
                            % nowhere), error
    assert error.endswith('install it with "openstack tripleo ansible '
                          'install"')
    assert 'Launching Heat' not in done.progress
    assert not work_dir.exists()
    _nothing_running(helpers.Layout(work_dir).heat_dir)


def test_environment_referring_to_a_missing_file(cli, work_dir, port,
                                                 tmp_path):
    env = tmp_path / 'env.yaml'
    env.write_text(yaml.safe_dump({'resource_registry': {
        'OS::TripleO::Services::Marker': 'does-not-exist.yaml'}}))
    done = cli.deploy(work_dir, '-e', str(env), port=port, check=False)
    assert 'does-not-exist.yaml' in _error(done.proc)
    _nothing_running(helpers.Layout(work_dir).heat_dir)


def test_malformed_roles_file(cli, work_dir, port, tmp_path):
    roles = tmp_path / 'roles.yaml'
    roles.write_text('- name: Controller\n  CountDefault: [1\n')
    done = cli.deploy(work_dir, '-r', str(roles), port=port, check=False)
    assert 'roles.yaml' in _error(done.proc)


def test_corrupt_dump(cli, heat_dir, port):
    heat_dir.mkdir(mode=0o700)
    (heat_dir / dumps.DUMP_NAME).write_bytes(b'\x1f\x8b garbage')
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', str(port), '--restore-db', check=False)
    assert 'corrupt' in _error(proc)
    _nothing_running(heat_dir)


def test_dump_from_an_incompatible_schema(cli, heat_dir, port, tmp_path):
    # A Heat database from a newer Heat: alembic does not know its revision.
    heat_dir.mkdir(mode=0o700)
    db = heat_sqlite.stack_db(tmp_path / 'future.sqlite', rows=(),
                              alembic_revision='ffffffffffff')
    with gzip.open(heat_dir / dumps.DUMP_NAME, 'wt') as f:
        f.write(heat_sqlite.dump_text(db))
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                   '--heat-api-port', str(port), '--restore-db', check=False)
    err = _error(proc)
    assert 'Heat exited while starting' in err
    assert 'ffffffffffff' in err or 'revision' in err.lower()
    _nothing_running(heat_dir)


def test_missing_image(cli, heat_dir, port):
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'container',
                   '--heat-dir', str(heat_dir), '--heat-api-port', str(port),
                   '--heat-container-image', 'localhost/no-such-image:1',
                   check=False)
    err = _error(proc)
    assert 'localhost/no-such-image:1' in err and 'image build' in err
    _nothing_running(heat_dir)


def test_podman_missing(cli, heat_dir, port):
    # Only the venv on PATH: no podman.
    proc = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'pod',
                   '--heat-dir', str(heat_dir), '--heat-api-port', str(port),
                   check=False, env={'PATH': helpers.BIN})
    err = _error(proc)
    assert 'podman is not installed' in err and '--heat-type native' in err
    _nothing_running(heat_dir)


NETWORKS = [{'name': 'InternalApi', 'name_lower': 'internal_api', 'vip': True,
             'subnets': {'internal_api_subnet': {
                 'ip_subnet': '172.16.2.0/24', 'allocation_pools': [
                     {'start': '172.16.2.4', 'end': '172.16.2.5'}]}}},
            {'name': 'Tenant', 'subnets': {'tenant_subnet': {
                'ip_subnet': '172.16.0.0/24'}}}]


def _host(name, ip, **networks):
    return {'hostname': name, 'ctlplane_ip': ip, 'networks': networks}


# (servers, VIP data or None, what the one line must say)
BAD_NETWORK_INPUTS = {
    'pool exhausted': (
        {'Controller': [_host('c0', '192.0.2.10')],
         'Compute': [_host('n0', '192.0.2.20')]}, None,
        'host n0 needs an address on internal_api (subnet '
        'internal_api_subnet, pool 172.16.2.4-172.16.2.5) and the pool is '
        'exhausted'),
    'outside the subnet': (
        {'Controller': [_host('c0', '192.0.2.10',
                              internal_api='172.16.9.9')]}, None,
        'host c0: its internal_api address 172.16.9.9 is outside'),
    'two hosts, one address': (
        {'Controller': [_host('c0', '192.0.2.10', tenant='172.16.0.9')],
         'Compute': [_host('n0', '192.0.2.20', tenant='172.16.0.9',
                           internal_api='172.16.2.9')]}, None,
        'host c0 and host n0 both have 172.16.0.9 (tenant of host n0)'),
    'VIP without vip: true': (
        {'Controller': [_host('c0', '192.0.2.10')]},
        [{'network': 'tenant'}],
        'network tenant has no VIP (the networks data does not set vip: true '
        'on Tenant)'),
    # Issue 36: addresses no host can have, a run past a /24, capitals.
    'a network address': (
        {'Controller': [_host('c0', '192.0.2.10',
                              internal_api='172.16.2.0')]}, None,
        'host c0: its internal_api address 172.16.2.0 is the network '
        'address of subnet internal_api_subnet (172.16.2.0/24), which no '
        'host can have: give another address'),
    'a broadcast VIP': (
        {'Controller': [_host('c0', '192.0.2.10')]},
        [{'network': 'internal_api', 'ip_address': '172.16.2.255'}],
        'the internal_api VIP 172.16.2.255 is the broadcast address of '
        'subnet internal_api_subnet (172.16.2.0/24)'),
    'a broadcast ctlplane_ip': (
        {'Controller': [_host('c0', '192.0.2.255')]}, None,
        'host c0: ctlplane_ip 192.0.2.255 is the broadcast address of '
        '192.0.2.0/24, which no host can have'),
    'a run of hosts past a /24': (
        {'Controller': [_host('c0', '192.0.2.254')],
         'Compute': [_host('n0', '192.0.3.1')]}, None,
        'hosts c0 (192.0.2.254) and n0 (192.0.3.1) fall in two control '
        'plane subnets, 192.0.2.0/24 and 192.0.3.0/24, by the default /24'),
    'a hostname with capitals': (
        {'Controller': [_host('Overcloud-Controller-0', '192.0.2.10')]},
        None, "hostname 'Overcloud-Controller-0' of role Controller has "
        "capitals, which tripleo-heat-templates do not find"),
    'role not in the roles file': (
        {'Controller': [_host('c0', '192.0.2.10')],
         'Networker': [_host('x0', '192.0.2.30')]}, None,
        'names role Networker, which roles data file'),
}


@pytest.mark.parametrize('case', sorted(BAD_NETWORK_INPUTS))
def test_bad_network_inputs_fail_before_anything_is_written(
        cli, tmp_path, port, case):
    """Each bad input of a network-isolated deploy: one line naming the
    host and the network, before Heat starts and before the work dir is
    written (it is not even created)."""
    servers, vips, expected = BAD_NETWORK_INPUTS[case]
    bundled = template_processing.bundled_templates_dir()
    with open(os.path.join(bundled, 'roles_data.yaml')) as f:
        role_data = yaml.safe_load(f)
    for role in role_data:
        role['networks'] = ['ctlplane', 'InternalApi', 'Tenant']
    files = {'roles.yaml': role_data, 'networks.yaml': NETWORKS,
             'servers.yaml': servers, 'vips.yaml': vips}
    for name, data in files.items():
        (tmp_path / name).write_text(yaml.safe_dump(data))
    work_dir = tmp_path / 'work'
    args = ['-r', str(tmp_path / 'roles.yaml'),
            '-n', str(tmp_path / 'networks.yaml'),
            '--deployed-servers', str(tmp_path / 'servers.yaml')]
    if vips is not None:
        args += ['--vip-file', str(tmp_path / 'vips.yaml')]
    done = cli.deploy(work_dir, *args, port=port, check=False)
    assert expected in _error(done.proc)
    assert not work_dir.exists()
    _nothing_running(helpers.Layout(work_dir).heat_dir)


def test_network_data_v1_and_j2_environment(cli, tmp_path, port):
    v1 = tmp_path / 'network_data_v1.yaml'
    v1.write_text(yaml.safe_dump([{'name': 'InternalApi',
                                   'ip_subnet': '172.16.2.0/24'}]))
    done = cli.deploy(tmp_path / 'work', '-n', str(v1), port=port,
                      check=False)
    assert 'network data v1' in _error(done.proc)
    env = os.path.join(template_processing.bundled_templates_dir(),
                       'environments', 'x.j2.yaml')
    done = cli.deploy(tmp_path / 'work', '-e', env, port=port, check=False)
    assert 'did you mean' in _error(done.proc)
    assert env[:-len('.j2.yaml')] + '.yaml' in _error(done.proc)
    assert not (tmp_path / 'work').exists()


def _snapshot(work_dir):
    """Every file of the work dir (but the lock) with its bytes' digest
    and mtime: what "nothing written" compares."""
    import hashlib
    import os

    found = {}
    for root, dirs, files in os.walk(str(work_dir)):
        for name in files + [d for d in dirs
                             if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            if name == '.tripleo-ephemeral.lock':
                continue
            with open(path, 'rb') as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            found[os.path.relpath(path, str(work_dir))] = (
                digest, os.stat(path).st_mtime_ns)
        found.update({os.path.relpath(os.path.join(root, d), str(work_dir)):
                      'dir' for d in dirs})
    return found


@helpers.LONG_OPT_IN
def test_bad_input_changes_nothing(cli, work_dir, tmp_path):
    """Each bad input: a one-line error before Heat naming it and the fix;
    the work dir of the last good deploy is left exactly as it was (its
    status, templates copy, generated files and archives)."""
    typo = tmp_path / 'typo.yaml'
    typo.write_text(yaml.safe_dump({'parameter_defaults': {
        'HeartbeatIntervall': 3}}))
    good = cli.deploy(work_dir, '-e', str(typo))
    assert good.result['status'] == 'DEPLOY_SUCCESS'
    assert ('%s sets HeartbeatIntervall, which no template of this '
            'deployment declares' % typo) in good.progress
    before = _snapshot(work_dir)
    outside = sorted(os.listdir(str(tmp_path.parent)))
    wd = helpers.Layout(work_dir)

    def bad(name, content):
        path = tmp_path / name
        path.write_text(content if isinstance(content, str)
                        else yaml.safe_dump(content))
        return str(path)

    host = {'hostname': 'overcloud-controller-0', 'ctlplane_ip':
            '192.0.2.10'}
    key_pub = bad('key.pub', 'ssh-ed25519 AAAA test\n')
    cases = [
        (['--deployed-servers', bad('list.yaml', [host])],
         'must map role names to lists of hosts'),
        (['--deployed-servers', bad('space.yaml', {'Controller': [
            dict(host, hostname='bad host')]})],
         "hostname 'bad host' of role Controller is not a valid DNS label"),
        (['--timeout', '0'], '--timeout: 0 is not a whole number above 0'),
        (['--timeout', '-5'], '--timeout: -5 is not a whole number above'),
        (['-r', bad('roles.yaml', [{'name': 'Controller'},
                                   {'name': 'Controller'}])],
         'role Controller is defined twice'),
        (['--strict'], 'sets HeartbeatIntervall, which no template'),
        (['--overcloud-ssh-key', str(tmp_path / 'no-key')],
         'cannot be read (No such file or directory): check '
         '--overcloud-ssh-key'),
        (['--overcloud-ssh-key', key_pub], 'is not a private key'),
        (['--limit', 'overcloud-controller-9'],
         '--limit overcloud-controller-9 names no host of the inventory'),
    ] + _issue_29_cases(bad, tmp_path) + _issue_36_cases(bad, tmp_path)
    for args, message in cases:
        stack_only = not any(a.startswith(('--overcloud-ssh', '--limit'))
                             for a in args)
        done = cli.deploy(work_dir, '-e', str(typo), *args, check=False,
                          stack_only=stack_only)
        err = _error(done.proc)
        assert message in err, (args, done.proc.stderr)
        assert 'Launching Heat' not in done.progress, args
        assert _snapshot(work_dir) == before, args
        assert sorted(os.listdir(str(tmp_path.parent))) == outside, args
    assert wd.status() == 'DEPLOY_SUCCESS'
    assert len(wd.archives.all()) == 1
    _nothing_running(wd.heat_dir)


def _issue_29_cases(bad, tmp_path):
    """Issue 29's inputs that reached Heat (and overwrote the good state):
    each now (args, what the one line says), before Heat. One per numbered
    case; their variants are unit tests (test_strict_inputs.py,
    test_config_options.py, test_workdir.py)."""
    servers = {'Controller': [{'hostname': 'overcloud-controller-0',
                               'ctlplane_ip': '192.0.2.10'}]}
    twice = bad('twice.yaml', 'Controller:\n- hostname: c0\n  ctlplane_ip: '
                '192.0.2.10\nController:\n- hostname: c1\n  ctlplane_ip: '
                '192.0.2.11\n')
    latin1 = tmp_path / 'latin1.yaml'
    latin1.write_bytes(yaml.safe_dump(servers).replace(
        'overcloud-controller-0', 'ctrl-\xe9').encode('latin-1'))
    cases = [
        # 1: Heat's engine refused it with "Internal Error".
        (['-e', bad('ntp.yaml', 'parameter_defaults:\n  # NtpServer: x\n')],
         'section parameter_defaults is empty (only comments under it?), '
         'which Heat refuses'),
        # 1, 5: Heat's stack-name rule; no path out of the work dir.
        (['--stack', '1site'], "--stack '1site' is not a valid stack name"),
        (['--stack', '../../evil'], "--stack '../../evil' is not a valid"),
        # 1, 10: overrides typed by the option they set, typos refused.
        (['--heat-config-override', 'ephemeral_heat.fast_create=maybe'],
         'ephemeral_heat.fast_create=maybe: the option takes true or false'),
        (['--heat-config-override', 'ephemeral_heat.fast_creat=true'],
         '[ephemeral_heat] has no option fast_creat (did you mean '
         'fast_create?)'),
        # 7: a key given twice.
        (['--deployed-servers', twice],
         'gives the key Controller twice (lines 1 and 4): keep one'),
        # 8: types and encodings, each naming the file.
        (['-e', bad('env-list.yaml', 'parameter_defaults: [a]\n')],
         'section parameter_defaults is a list; it must be a mapping'),
        (['--deployed-servers', str(latin1)],
         '%s is not UTF-8 (byte 0xe9 on line 3): save it as UTF-8' % latin1),
        # 10: --skip-check ids.
        (['--skip-check', 'role-kept'],
         '--skip-check role-kept names no check'),
    ]
    if shutil.which('podman'):
        # 1: the image of --heat-type container, before anything is written.
        cases.append((['--heat-type', 'container', '--heat-container-image',
                       'localhost/no-such-image:1'],
                      'localhost/no-such-image:1 is not available locally; '
                      'build it with "openstack tripleo heat image build"'))
    return cases


def _issue_36_cases(bad, tmp_path):
    """Hostile or impossible input, by class: each (args, what the one line
    says), before anything is written. Their variants are unit tests
    (test_yaml_limits.py, test_deployed_servers.py, test_network_data.py,
    test_config.py, test_input_options.py)."""
    from tripleo_ephemeral.tests.unit.overcloud import test_yaml_limits
    laughs = bad('laughs.yaml', test_yaml_limits.billion_laughs())
    deep = bad('deep.yaml', 'Controller: ' + '[' * 50000 + ']' * 50000)
    big = tmp_path / 'big.yaml'
    with open(big, 'wb') as f:
        f.truncate(9 << 20)
    return [
        # YAML that expands, nests past libyaml's stack, or is too large.
        (['-e', laughs], 'Environment file %s is refused: its aliases '
         '(*name) expand its 12 mappings and lists to ' % laughs),
        (['--deployed-servers', deep], 'Deployed servers file %s is '
         'refused: it nests mappings and lists over 1000 deep: flatten it'
         % deep),
        (['-e', str(big)], 'Environment file %s is refused: 9.0 MiB, over '
         'the 8.0 MiB a YAML file may be: split it' % big),
        # A config value that would write new lines into heat.conf.
        (['--heat-config-override',
          'DEFAULT.host=x\n[database]\nconnection=sqlite://'],
         "the value holds a line break or another control character, which "
         "heat.conf cannot hold: give it on one line"),
        # Empty names and paths.
        (['--stack', ''], 'argument --stack: an empty value names nothing: '
         'give one'),
        # Work dirs whose path Heat's parts read as something else.
        (['--work-dir', str(tmp_path / 'deploy #1')],
         'holds a "#", which Paste reads in the path of the API\'s '
         'api-paste.ini'),
    ]


def test_a_work_dir_with_spaces_and_quotes_deploys_and_its_script_runs(
        cli, tmp_path, port):
    """Issue 36: the command script could not find its playbook in a work
    dir whose path holds a space (the default was quoted inside quotes)."""
    import subprocess
    work_dir = tmp_path / 'my deploys' / 'it\'s "the" one'
    done = cli.deploy(work_dir, port=port)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    config_dir = helpers.Layout(work_dir).config_download_dir
    proc = subprocess.run(
        ['bash', str(config_dir / 'ansible-playbook-command.sh'),
         '--syntax-check'], cwd=str(config_dir), capture_output=True,
        text=True, env=dict(os.environ, PATH=helpers.BIN + ':' +
                            os.environ.get('PATH', '')))
    assert proc.returncode == 0, proc.stderr
    assert 'playbook: %s' % (config_dir / 'deploy_steps_playbook.yaml') in \
        proc.stdout


def test_bad_input_in_a_new_work_dir_creates_nothing(cli, tmp_path):
    work_dir = tmp_path / 'new'
    done = cli.deploy(work_dir, '-r', str(tmp_path / 'missing.yaml'),
                      check=False)
    assert 'missing.yaml' in _error(done.proc)
    assert not work_dir.exists()
    if shutil.which('podman'):
        # Issue 29: the image is checked before the work dir is made.
        done = cli.deploy(work_dir, '--heat-type', 'container',
                          '--heat-container-image',
                          'localhost/no-such-image:1', check=False)
        assert 'openstack tripleo heat image build' in _error(done.proc)
        assert not work_dir.exists()
