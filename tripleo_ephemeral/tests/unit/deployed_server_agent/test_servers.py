import pytest

from tripleo_ephemeral.deployed_server_agent import servers as agent_config
from tripleo_ephemeral import exceptions


def server(role, index, **kw):
    return agent_config.Server(role, index, '%s-%d' % (role, index),
                               'id-%s-%d' % (role, index), 'nested', 'sid',
                               'deployed-server', **kw)


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
