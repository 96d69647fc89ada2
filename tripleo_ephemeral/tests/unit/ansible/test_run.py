"""run_config_download against this machine (local connection only)."""

import sys

import pytest
import yaml

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral import exceptions


def config_dir(tmp_path, tasks):
    (tmp_path / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'overcloud': {'hosts': {'node-0': {}}, 'vars': {
            'ansible_connection': 'local',
            'ansible_python_interpreter': sys.executable}}}))
    (tmp_path / 'deploy_steps_playbook.yaml').write_text(yaml.safe_dump([
        {'hosts': 'overcloud', 'name': 'Steps', 'gather_facts': False,
         'tasks': tasks}]))
    return tmp_path


@pytest.mark.starts_process
def test_success_streams_a_line_per_play(tmp_path):
    marker = tmp_path / 'marker'
    cd = config_dir(tmp_path, [
        {'name': 'touch', 'file': {'path': str(marker), 'state': 'touch'},
         'tags': ['touch']},
        {'name': 'skipped by tag', 'command': 'false', 'tags': ['never']}])
    lines = []
    seconds = ansible_run.run_config_download(
        str(cd), ansible_run.AnsibleOptions(forks=2, skip_tags='never'),
        lines.append)
    assert seconds > 0
    assert marker.exists()
    assert any(line.endswith(')') and 'PLAY Steps: ok=0 changed=1' in line
               for line in lines), lines
    assert (cd / 'ansible.log').read_text()
    # The run's environment is the command script's (one source).
    script = (cd / 'ansible-playbook-command.sh').read_text()
    assert 'export ANSIBLE_FORKS=2\n' in script
    assert '--skip-tags never' in script
    assert [p for p in (cd / 'artifacts').iterdir()]


@pytest.mark.starts_process
def test_failed_task_is_one_line(tmp_path):
    cd = config_dir(tmp_path, [
        {'name': 'Break it', 'command': 'sh -c "echo nope >&2; exit 4"'}])
    with pytest.raises(exceptions.AnsibleError) as exc:
        ansible_run.run_config_download(
            str(cd), ansible_run.AnsibleOptions(), lambda line: None)
    message = str(exc.value)
    assert '\n' not in message
    assert 'node-0' in message and 'Break it' in message
    assert 'nope' in message and 'ansible.log' in message


def test_missing_playbook(tmp_path):
    with pytest.raises(exceptions.AnsibleError, match='playbook'):
        ansible_run.run_config_download(
            str(tmp_path), ansible_run.AnsibleOptions(), lambda line: None)


@pytest.mark.starts_process
def test_unreachable_hosts_can_be_tolerated(tmp_path):
    """node delete of a dead node: it is reported, the run succeeds."""
    (tmp_path / 'tripleo-ansible-inventory.yaml').write_text(yaml.safe_dump(
        {'overcloud': {'hosts': {
            'dead': {'ansible_host': '127.0.0.1', 'ansible_port': 1},
            'live': {'ansible_connection': 'local'}},
            'vars': {'ansible_python_interpreter': sys.executable}}}))
    playbook = tmp_path / 'scale_playbook.yaml'
    playbook.write_text(yaml.safe_dump([{
        'hosts': 'overcloud', 'gather_facts': False,
        'ignore_unreachable': True,
        'tasks': [{'name': 'ping', 'ping': {}}]}]))
    run = ansible_run.run_playbook(
        str(tmp_path), str(playbook), ansible_run.AnsibleOptions(),
        lambda line: None, tolerate_unreachable=True)
    assert run.unreachable == ['dead']


def test_ssh_key_must_be_a_readable_private_key(tmp_path):
    key = tmp_path / 'id'
    key.write_text('-----BEGIN OPENSSH PRIVATE KEY-----\nx\n')
    ansible_run.check_options(ansible_run.AnsibleOptions(ssh_key=str(key)))
    for path, message in ((tmp_path / 'missing', 'cannot be read'),
                          (tmp_path, 'cannot be read'),
                          (tmp_path / 'id.pub', 'not a private key')):
        if path.name == 'id.pub':
            path.write_text('ssh-ed25519 AAAA x\n')
        with pytest.raises(exceptions.AnsibleError, match=message):
            ansible_run.check_options(
                ansible_run.AnsibleOptions(ssh_key=str(path)))
