"""The pure parts of the lifecycle commands."""

import pytest
import yaml

from tripleo_ephemeral.ansible import ansible_cfg
from tripleo_ephemeral.deploy import deleted_hosts
from tripleo_ephemeral.lifecycle import run as lifecycle
from tripleo_ephemeral.lifecycle import node_delete
from tripleo_ephemeral.lifecycle import ssh_admin
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import inventory
from tripleo_ephemeral.tests.unit import fakes
from tripleo_ephemeral import workdir


def test_resolve_playbooks(tmp_path):
    (tmp_path / 'upgrade_steps_playbook.yaml').write_text('[]')
    with pytest.raises(exceptions.AnsibleError,
                       match='overcloud upgrade prepare'):
        lifecycle.resolve_playbooks(str(tmp_path), 'upgrade')
    assert lifecycle.resolve_playbooks(
        str(tmp_path), 'upgrade', ['upgrade_steps_playbook.yaml']) == [
            str(tmp_path / 'upgrade_steps_playbook.yaml')]


def test_merge_cfg(tmp_path):
    override = tmp_path / 'mine.cfg'
    override.write_text('[defaults]\nforks = 50\n[new]\nkey = %(x)s\n')
    text = ansible_cfg.merge_cfg('[defaults]\nforks = 5\ntimeout = 30\n',
                                 str(override))
    assert 'forks = 50' in text and 'timeout = 30' in text
    assert '[new]' in text and 'key = %(x)s' in text
    with pytest.raises(exceptions.AnsibleError,
                       match='--override-ansible-cfg'):
        ansible_cfg.merge_cfg('', str(tmp_path / 'missing.cfg'))


def _rendered(excluded=()):
    return inventory.build(fakes.outputs(), 'overcloud',
                           excluded_hosts=excluded)


def test_node_delete_checks_the_names():
    found = node_delete.check_hosts(_rendered(), ['C0'], 'overcloud')
    assert found == [('c0', 'Controller', '192.0.2.10')]
    with pytest.raises(exceptions.DeployError,
                       match=r'Host nope is not in the deployment of '
                             r'overcloud \(hosts: c0\)'):
        node_delete.check_hosts(_rendered(), ['nope'], 'overcloud')


def test_excluded_hosts_leave_the_inventory():
    rendered = _rendered(excluded=['c0'])
    assert 'Controller' not in rendered and 'overcloud' not in rendered


def test_deleted_hosts_are_left_out(tmp_path):
    wd = workdir.WorkDir(str(tmp_path), 'overcloud').create()
    deleted_hosts.add(wd, [{'hostname': 'cmp-1', 'role': 'Compute',
                            'ctlplane_ip': '10.0.0.12',
                            'scale_playbook': 'ran'}])
    assert deleted_hosts.names(wd) == {'cmp-1'}
    said = []
    servers = {'Compute': [{'hostname': 'cmp-0'}, {'hostname': 'CMP-1'}],
               'Controller': [{'hostname': 'ctrl-0'}]}
    kept = deleted_hosts.leave_out(wd, servers, said.append)
    assert kept == {'Compute': [{'hostname': 'cmp-0'}],
                    'Controller': [{'hostname': 'ctrl-0'}]}
    assert len(said) == 1 and said[0].startswith(
        'CMP-1 left out: deleted by "openstack overcloud node delete" on ')
    record = yaml.safe_load(open(wd.deleted_hosts_file))['deleted_hosts'][0]
    assert record['role'] == 'Compute' and record['deleted_at']


def test_ssh_admin_initial_inventory():
    rendered = {'Compute': {'hosts': {'n0': {'ansible_ssh_user': 'root'},
                                      'n1': {}},
                            'vars': {'ansible_ssh_user': 'tripleo-admin'}},
                'Undercloud': {'hosts': {'undercloud': {}},
                               'vars': {'ansible_connection': 'local'}}}
    assert ssh_admin.initial_inventory(rendered) == rendered
    changed = ssh_admin.initial_inventory(rendered, 'cloud-admin', '/k')
    assert changed['Compute']['hosts']['n0']['ansible_ssh_user'] == \
        'cloud-admin'
    assert changed['Compute']['vars']['ansible_ssh_user'] == 'cloud-admin'
    assert changed['Undercloud'] == rendered['Undercloud']
    assert changed['all']['vars']['ansible_ssh_private_key_file'] == '/k'
    plays = ssh_admin.playbook('overcloud', '/w/ssh_private_key')
    assert plays[1]['vars']['ansible_user'] == 'tripleo-admin'


@pytest.mark.starts_process
def test_renders_keep_the_deploys_settings(tmp_path, monkeypatch):
    from tripleo_ephemeral.deploy import rendering

    wd = workdir.WorkDir(str(tmp_path), 'overcloud').create()
    rendered = []
    monkeypatch.setattr(rendering.config_download, 'render',
                        lambda *a, **kw: rendered.append(kw))
    first = rendering.settings(servers={'Compute': [
        {'hostname': 'n0', 'ssh_user': 'root'}]}, python_interpreter='/py')
    rendering.render(wd, {}, [], first, lambda line: None)
    monkeypatch.setattr(rendering.stack_outputs, 'load',
                        lambda *a: ({'RoleData': {}}, []))
    rendering.render_saved(wd, lambda line: None)
    assert rendered[-1]['host_ssh_users'] == {'n0': 'root'}
    assert rendered[-1]['ansible_python_interpreter'] == '/py'
    rendering.render_saved(wd, lambda line: None, ssh_user='cloud-admin')
    assert rendered[-1]['ssh_user'] == 'cloud-admin'
    assert 'host_ssh_users' not in rendered[-1]


def test_ansible_cfg_paths_read_back_by_ansible_as_written(tmp_path):
    """Issue 36: "%" (Ansible's configparser interpolates) and spaces (its
    ssh_args are split like a shell line, then by ssh) in a work dir."""
    import configparser
    import shlex

    from tripleo_ephemeral.ansible import run as ansible_run
    config_dir = str(tmp_path / '50% of "my" deploys' / 'overcloud')
    key = str(tmp_path / '50% of "my" deploys' / 'id_rsa')
    text = ansible_cfg.text(config_dir, ansible_run.AnsibleOptions(
        ssh_key=key))
    parser = configparser.ConfigParser(inline_comment_prefixes=(';',))
    parser.read_string(text)  # as ansible-core's config manager reads it
    assert parser['defaults']['log_path'] == config_dir + '/ansible.log'
    assert parser['defaults']['private_key_file'] == key
    ssh_args = shlex.split(parser['ssh_connection']['ssh_args'])
    known = next(a for a in ssh_args if a.startswith('UserKnownHostsFile'))
    assert shlex.split(known.replace('=', ' ', 1)) == [
        'UserKnownHostsFile', config_dir + '/ssh_known_hosts']
    (tmp_path / '50% of "my" deploys' / 'overcloud').mkdir(parents=True)
    with open(config_dir + '/ansible.cfg', 'w') as f:
        f.write(text)
    assert ansible_cfg.saved_ssh_key(config_dir) == key
