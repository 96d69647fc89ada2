"""One environment for the command script and the product's runs."""

import os
import subprocess

import pytest

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.ansible import environment
from tripleo_ephemeral.ansible import install
from tripleo_ephemeral.ansible import search_paths
from tripleo_ephemeral.ansible import ssh_masters


def _options(**kwargs):
    return ansible_run.AnsibleOptions(**kwargs)


def test_tripleo_playbooks_get_tripleoclient_s_environment(tmp_path):
    ansible = install.AnsibleInstall(str(tmp_path / 'venv'))
    env = environment.PlaybookEnvironment(
        str(tmp_path / 'overcloud'), _options(), ansible, plan='overcloud')
    values = env.variables()
    share = os.path.join(ansible.path, 'share', 'ansible')
    assert values['ANSIBLE_BECOME'] == 'True'
    assert values['ANSIBLE_REMOTE_USER'] == 'tripleo-admin'
    # tripleo-ansible's first (search_paths: then the operator's, then
    # Ansible's defaults).
    assert values['ANSIBLE_ROLES_PATH'].split(':')[0] == os.path.join(
        share, 'roles')
    assert values['ANSIBLE_STRATEGY_PLUGINS'].split(':')[0] == os.path.join(
        share, 'plugins', 'strategy')
    assert values['ANSIBLE_CALLBACKS_ENABLED'] == (
        'tripleo_dense,tripleo_profile_tasks,tripleo_states')
    assert values['ANSIBLE_GATHER_SUBSET'] == '!all,min'
    assert values['ANSIBLE_CACHE_PLUGIN_CONNECTION'] == os.path.join(
        str(tmp_path / 'overcloud'), '.ansible', 'fact_cache')
    assert values['ANSIBLE_FORKS'] == str(environment.default_forks())
    assert env.bin_dir == ansible.bin_dir


def test_plain_playbooks_get_the_product_s_ansible_core(tmp_path):
    env = environment.PlaybookEnvironment(
        str(tmp_path), _options(ssh_user='stack', forks=3))
    values = env.variables()
    assert 'ANSIBLE_BECOME' not in values
    # No tripleo-ansible: the operator's, Ansible's defaults, the
    # product's fallbacks.
    assert values['ANSIBLE_LIBRARY'].split(':')[-1] == (
        search_paths.FALLBACK_MODULES)
    assert 'tripleo-ephemeral/ansible' not in values['ANSIBLE_ROLES_PATH']
    assert values['ANSIBLE_REMOTE_USER'] == 'stack'
    assert values['ANSIBLE_FORKS'] == '3'


@pytest.mark.starts_process
def test_script_exports_the_variables_and_passes_arguments(tmp_path):
    env = environment.PlaybookEnvironment(
        str(tmp_path), _options(limit='a:b', tags='x y',
                                extravars={'k': "it's"}))
    script = tmp_path / 'run.sh'
    script.write_text(env.script(str(tmp_path / 'p.yaml')).replace(
        'exec ', 'exec echo '))
    out = subprocess.run(['bash', str(script), '--syntax-check'],
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == [
        os.path.join(env.bin_dir, 'ansible-playbook'), '-i',
        str(tmp_path / 'tripleo-ansible-inventory.yaml'), '--limit', 'a:b',
        '--tags', 'x', 'y', '-e', '{"k":', '"it\'s"}',
        str(tmp_path / 'p.yaml'), '--syntax-check']


def test_which_playbooks_need_tripleo_ansible(tmp_path):
    (tmp_path / 'deploy_steps_playbook.yaml').write_text(
        '- hosts: all\n  strategy: tripleo_free\n')
    assert environment.config_download_uses_tripleo_ansible(str(tmp_path))
    (tmp_path / 'common').mkdir()
    assert not environment.templates_use_tripleo_ansible(str(tmp_path))
    (tmp_path / 'common' / 'deploy-steps.j2').write_text(
        '  strategy: tripleo_linear\n')
    assert environment.templates_use_tripleo_ansible(str(tmp_path))
    assert not environment.config_download_uses_tripleo_ansible(
        str(tmp_path / 'common'))


@pytest.mark.starts_process
def test_script_runs_another_playbook_when_named(tmp_path):
    env = environment.PlaybookEnvironment(str(tmp_path), _options())
    script = tmp_path / 'run.sh'
    script.write_text(env.script(str(tmp_path / 'p.yaml')).replace(
        'exec ', 'exec echo '))
    out = subprocess.run(
        ['bash', str(script), '--syntax-check'], capture_output=True,
        text=True, check=True, env=dict(
            os.environ, TRIPLEO_PLAYBOOK='update_steps_playbook.yaml'))
    assert out.stdout.split()[-2:] == ['update_steps_playbook.yaml',
                                       '--syntax-check']


@pytest.mark.starts_process
def test_script_finds_a_playbook_whose_path_has_spaces_and_quotes(tmp_path):
    """Issue 36: a work dir "my deploys" left the default playbook quoted
    inside double quotes (the quotes became part of the path)."""
    config_dir = tmp_path / "my deploys" / "it's $HOME 50%" / 'overcloud'
    config_dir.mkdir(parents=True)
    env = environment.PlaybookEnvironment(str(config_dir), _options())
    script = config_dir / 'run.sh'
    script.write_text(env.script(str(config_dir / 'p.yaml')).replace(
        'exec ', "exec printf '%s\\n' "))
    out = subprocess.run(['bash', str(script)], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[-1] == str(config_dir / 'p.yaml')
    assert out[2] == str(config_dir / 'tripleo-ansible-inventory.yaml')


@pytest.mark.starts_process
def test_script_keeps_ssh_masters_where_the_next_command_sweeps(tmp_path):
    """A HOME long enough made ~/.ansible/cp/<hash>.<random> longer than a
    socket path may be (the docs' hand re-run failed): the script's masters
    live in a short te-ssh-<pid>- directory that sweep_stale closes and
    removes once the run is gone; the operator's own directory is kept."""
    env = environment.PlaybookEnvironment(str(tmp_path), _options())
    script = tmp_path / 'run.sh'
    script.write_text(env.script(str(tmp_path / 'p.yaml')).replace(
        'exec ', 'echo "$ANSIBLE_SSH_CONTROL_PATH_DIR" #'))
    temp = tmp_path / 't'
    temp.mkdir()
    out = subprocess.run(['bash', str(script)], capture_output=True,
                         text=True, check=True,
                         env=dict(os.environ, TMPDIR=str(temp))).stdout
    made = out.strip()
    assert os.path.dirname(made) == str(temp)
    assert os.path.basename(made).startswith(ssh_masters.PREFIX)
    assert ssh_masters.sweep_stale(parent=str(temp)) == [made]
    assert not os.path.exists(made)
    mine = subprocess.run(
        ['bash', str(script)], capture_output=True, text=True, check=True,
        env=dict(os.environ, ANSIBLE_SSH_CONTROL_PATH_DIR='/x/cp')).stdout
    assert mine.strip() == '/x/cp'
