from tripleo_ephemeral.deployed_server_agent import push as agent_push
from tripleo_ephemeral.tests.unit import fakes


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
