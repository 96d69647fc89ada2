import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import deployed_servers as ds

ROLES = [
    {'name': 'Controller', 'tags': ['primary'],
     'HostnameFormatDefault': '%stackname%-controller-%index%'},
    {'name': 'Compute'},
    {'name': 'Storage'},
]
SERVERS = {
    'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.10',
                    'ssh_user': 'admin'}],
    'Compute': [{'hostname': 'n0', 'ctlplane_ip': '192.0.2.20',
                 'ctlplane_cidr': 25},
                {'hostname': 'n1', 'ctlplane_ip': '192.0.2.21'}],
}


def test_load_servers_with_networks(tmp_path):
    path = tmp_path / 'servers.yaml'
    path.write_text(yaml.safe_dump({'Controller': [dict(
        SERVERS['Controller'][0], networks={'internal_api': '172.16.2.11'})]}))
    host = ds.load_servers(str(path))['Controller'][0]
    assert host == {'hostname': 'c0', 'ctlplane_ip': '192.0.2.10',
                    'ctlplane_cidr': '192.0.2.0/24', 'ssh_user': 'admin',
                    'networks': {'internal_api': '172.16.2.11'}}
    assert ds.validate_servers(SERVERS)['Compute'][0]['networks'] == {}


def test_unknown_role_names_role_and_roles_file():
    with pytest.raises(exceptions.DeployedServersError) as e:
        ds.check_roles({'Networker': []}, ROLES, 's.yaml', 'roles_data.yaml')
    message = str(e.value)
    assert 'Networker' in message and 'roles_data.yaml' in message
    assert '\n' not in message


@pytest.mark.parametrize('data, fragment', [
    ({'Controller': [{'hostname': 'c0'}]}, 'ctlplane_ip'),
    ({'Controller': [{'ctlplane_ip': '192.0.2.1'}]}, 'needs a hostname'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'sshuser': 'x'}]}, 'unknown key'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1'},
                     {'hostname': 'c0', 'ctlplane_ip': '192.0.2.2'}]},
     'listed twice'),
    ({'Controller': [{'hostname': 'C0', 'ctlplane_ip': '192.0.2.1'}]},
     "hostname 'C0' of role Controller has capitals, which "
     "tripleo-heat-templates do not find .*: write 'c0'$"),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.255'}]},
     'ctlplane_ip 192.0.2.255 is the broadcast address of 192.0.2.0/24'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.0',
                      'ctlplane_cidr': 25}]},
     'ctlplane_ip 192.0.2.0 is the network address of 192.0.2.0/25'),
    ({'Compute': [{'hostname': 'n%d' % i, 'ctlplane_ip': '192.0.2.%d' % i}
                  for i in range(250, 255)] +
      [{'hostname': 'n256', 'ctlplane_ip': '192.0.3.1'}]},
     r'hosts n250 \(192.0.2.250\) and n256 \(192.0.3.1\) fall in two '
     'control plane subnets, 192.0.2.0/24 and 192.0.3.0/24, by the default '
     '/24: give ctlplane_cidr: 23 if they share one subnet, or '
     'ctlplane_cidr: 24 on a host of each if they are routed apart'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1'},
                     {'hostname': 'c1', 'ctlplane_ip': '192.0.2.1'}]},
     'used by both'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'ctlplane_cidr': '10.0.0.0/8'}]}, 'outside'),
    ([], 'must map role names'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'networks': ['internal_api']}]}, 'networks must map'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'networks': {'tenant': '172.16.0.300'}}]},
     'its tenant address .* is not an IP'),
    ({'Controller': [{'hostname': 'c0', 'ctlplane_ip': '192.0.2.1',
                      'networks': {'ctlplane': '192.0.2.1'}}]},
     'as ctlplane_ip'),
    ({'Controller': [{'hostname': 'bad host', 'ctlplane_ip': '192.0.2.1'}]},
     'not a valid DNS label'),
    ({'Controller': [{'hostname': '-c0', 'ctlplane_ip': '192.0.2.1'}]},
     'not a valid DNS label'),
    ({'Controller': [{'hostname': 'c' * 64, 'ctlplane_ip': '192.0.2.1'}]},
     'not a valid DNS label'),
    ({'Controller': [{'hostname': 'c0.example.com',
                      'ctlplane_ip': '192.0.2.1'}]}, 'short name'),
])
def test_invalid_servers(data, fragment):
    with pytest.raises(exceptions.DeployedServersError, match=fragment):
        ds.validate_servers(data, 's.yaml')


def test_ssh_users():
    servers = ds.validate_servers(SERVERS)
    assert ds.ssh_users(servers) == {'c0': 'admin', 'n0': 'tripleo-admin',
                                     'n1': 'tripleo-admin'}
    assert ds.ssh_users(servers, default=None) == {'c0': 'admin'}
    assert ds.ssh_users(None, default=None) == {}


def test_hosts_given_their_subnets_may_cross_a_boundary():
    servers = ds.validate_servers({'Compute': [
        {'hostname': 'n0', 'ctlplane_ip': '192.0.2.254'},
        {'hostname': 'n1', 'ctlplane_ip': '192.0.3.1', 'ctlplane_cidr': 23},
    ]})
    assert {h['ctlplane_cidr'] for h in servers['Compute']} == {
        '192.0.2.0/23'}
    routed = ds.validate_servers({'Compute': [
        {'hostname': 'n0', 'ctlplane_ip': '192.0.2.254', 'ctlplane_cidr': 24},
        {'hostname': 'n1', 'ctlplane_ip': '192.0.3.1', 'ctlplane_cidr': 24},
        {'hostname': 'n2', 'ctlplane_ip': '192.0.3.2'},
    ]})
    assert [h['ctlplane_cidr'] for h in routed['Compute']] == [
        '192.0.2.0/24', '192.0.3.0/24', '192.0.3.0/24']


def test_removed_hosts():
    before = ds.validate_servers(SERVERS)
    # Names compare in any case (a work dir of an older release).
    after = {'Controller': before['Controller'],
             'Compute': [{'hostname': 'N0', 'ctlplane_ip': '192.0.2.20'},
                         {'hostname': 'n2', 'ctlplane_ip': '192.0.2.22'}]}
    removed = ds.removed_hosts(before, after)
    assert [(role, host['hostname']) for role, host in removed] == [
        ('Compute', 'n1')]
    assert ds.removed_hosts(None, after) == []
    assert len(ds.removed_hosts(before, None)) == 3
    text = ds.REMOVED_HOST_WARNING % {'host': 'n1', 'role': 'Compute',
                                      'ip': '192.0.2.21'}
    assert 'power it off' in text and 'reprovision' in text
