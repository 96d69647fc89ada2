import pytest

from tripleo_ephemeral.commands import deployed_server_agent as command


def test_role_hosts_from_options_and_env():
    assert command._role_hosts_arg('Compute=a,b c') == ('Compute',
                                                        ['a', 'b', 'c'])
    with pytest.raises(ValueError):
        command._role_hosts_arg('Compute')
    assert command.role_hosts_from_env({
        'OVERCLOUD_ROLES': 'Controller Compute',
        'Controller_hosts': '10.0.0.1 10.0.0.2', 'Compute_hosts': ''}) == {
        'Controller': ['10.0.0.1', '10.0.0.2'], 'Compute': []}
