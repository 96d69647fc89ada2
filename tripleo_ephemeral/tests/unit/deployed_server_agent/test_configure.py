import os
import stat

from tripleo_ephemeral.deployed_server_agent import configure
from tripleo_ephemeral.deployed_server_agent import servers
from tripleo_ephemeral.tests.unit import fakes
from tripleo_ephemeral import workdir


def _server(role, index, url=None):
    return servers.Server(role, index, '%s-%d' % (role.lower(), index),
                          'id', 'nested', 'sid', 'deployed-server', url,
                          servers.FROM_HEAT_API)


def test_write_then_push_each_server_to_its_host(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'wd'), 'overcloud')
    request = configure.AgentConfigRequest(
        workdir=wd, polling_interval=5, ssh_user='admin',
        role_hosts={'Compute': ['10.0.0.7', '10.0.0.8']})
    written = configure.write(request, [
        _server('Compute', 0, 'http://h/0'),
        _server('Compute', 1, 'http://h/1'),
        _server('Controller', 0, 'http://h/c')])
    assert [(s.role, s.index, s.host, s.pushed) for s in written] == [
        ('Compute', 0, None, False), ('Compute', 1, None, False),
        ('Controller', 0, None, False)]
    for server in written:
        assert server.config_file == wd.agent_config_file(server.role,
                                                          server.index)
        assert stat.S_IMODE(os.stat(server.config_file).st_mode) == 0o600
        text = open(server.config_file).read()
        assert 'metadata_url = %s' % server.metadata_url in text
        assert 'polling_interval = 5' in text

    # The second host refuses: the first is still configured.
    runner = fakes.FakeRunner(
        answers=[(['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=10',
                   '-o', 'StrictHostKeyChecking=accept-new', '-o',
                   'UserKnownHostsFile=%s' % wd.agent_known_hosts,
                   'admin@10.0.0.8'], 255, b'')], check_exit=True)
    failures = configure.push(request, written, runner=runner)
    assert failures == ['10.0.0.8: ssh failed']
    assert [(s.host, s.pushed) for s in written] == [
        ('10.0.0.7', True), ('10.0.0.8', False), (None, False)]
    assert [argv[argv.index('-o', 6) + 1] for argv in runner.calls] == [
        'UserKnownHostsFile=%s' % wd.agent_known_hosts] * 2
    assert runner.inputs[0] == open(written[0].config_file, 'rb').read()
