import configparser

import pytest

from tripleo_ephemeral.commands import deployed_server_agent as command
from tripleo_ephemeral.deployed_server_agent import push as agent_push
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.deployed_server_agent import servers as agent_config
from tripleo_ephemeral.tests.unit import fakes


def server(role, index, **kw):
    return agent_config.Server(role, index, '%s-%d' % (role, index),
                               'id-%s-%d' % (role, index), 'nested', 'sid',
                               'deployed-server', **kw)


def test_render_conf_reads_back():
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_string(agent_config.render_conf(
        'http://h:8080/v1/x?temp_url_sig=a%2Fb&temp_url_expires=1', 10))
    assert conf['DEFAULT']['collectors'] == 'request'
    assert conf['DEFAULT']['polling_interval'] == '10'
    assert conf['DEFAULT']['command'] == 'os-refresh-config'
    assert conf['request']['metadata_url'].endswith('a%2Fb&temp_url_expires=1')


def test_request_url_and_fallback():
    meta = {'os-collect-config': {'request': {'metadata_url': 'http://u'}}}
    assert agent_config.request_url(meta) == 'http://u'
    assert agent_config.request_url({'os-collect-config': {
        'collectors': ['heat']}}) is None
    assert agent_config.heat_api_metadata_url(
        'http://127.0.0.1:8006/v1/admin/', server('Compute', 0)) == (
        'http://127.0.0.1:8006/v1/admin/stacks/nested/sid/resources/'
        'deployed-server/metadata')


def test_assign_hosts_in_index_order():
    servers = [server('Compute', 1), server('Controller', 0),
               server('Compute', 0)]
    pairs = agent_config.assign_hosts(servers, {'Compute': ['a', 'b']})
    assert [(s.role, s.index, h) for s, h in pairs] == [
        ('Compute', 0, 'a'), ('Compute', 1, 'b')]
    with pytest.raises(exceptions.DeployedServersError, match='2 deployed'):
        agent_config.assign_hosts(servers, {'Compute': ['a']})
    with pytest.raises(exceptions.DeployedServersError, match='Storage'):
        agent_config.assign_hosts(servers, {'Storage': ['a']})


def test_role_hosts_from_options_and_env():
    assert command._role_hosts_arg('Compute=a,b c') == ('Compute',
                                                        ['a', 'b', 'c'])
    with pytest.raises(ValueError):
        command._role_hosts_arg('Compute')
    assert command.role_hosts_from_env({
        'OVERCLOUD_ROLES': 'Controller Compute',
        'Controller_hosts': '10.0.0.1 10.0.0.2', 'Compute_hosts': ''}) == {
        'Controller': ['10.0.0.1', '10.0.0.2'], 'Compute': []}


def test_push_argv():
    runner = fakes.FakeRunner()
    agent_push.push('10.0.0.5', 'TEXT', user='admin', key='/k',
                    known_hosts='/kh', runner=runner)
    argv, = runner.calls
    kwargs, = runner.kwargs
    assert argv[0] == 'ssh' and 'admin@10.0.0.5' in argv
    assert argv[argv.index('-i') + 1] == '/k'
    assert 'UserKnownHostsFile=/kh' in argv
    assert kwargs['input'] == b'TEXT'
    assert '/etc/os-collect-config.conf.new' in argv[-1]
    assert argv[-1].endswith("sudo -n sh -c 'systemctl restart "
                             "os-collect-config'")
    assert 'systemctl' not in agent_push.remote_script(restart='')
