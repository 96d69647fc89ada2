"""Where Ansible looks: the product's, the operator's, Ansible's defaults.

The order is checked as written, and as ansible-core reads it back (the
product's own ansible-core: its config manager, its module loader)."""

import configparser
import os
import subprocess
import sys

import pytest

from tripleo_ephemeral.ansible import environment
from tripleo_ephemeral.ansible import install
from tripleo_ephemeral.ansible import project
from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.ansible import search_paths

SHARE = os.path.join('share', 'ansible')


@pytest.fixture
def operator(tmp_path, monkeypatch):
    """No operator setting but what a test gives: a HOME of its own."""
    home = tmp_path / 'home'
    home.mkdir()
    monkeypatch.setenv('HOME', str(home))
    for setting in search_paths.SETTINGS:
        for name in setting.env:
            monkeypatch.delenv(name, raising=False)
    for name in ('ANSIBLE_CONFIG', 'ANSIBLE_HOME'):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(search_paths, 'OPERATOR_CFGS', ('~/.ansible.cfg',))
    return home


def _tripleo(tmp_path):
    ansible = install.AnsibleInstall(str(tmp_path / 'venv'))
    (tmp_path / 'venv' / 'lib' / 'python3.11' / 'site-packages').mkdir(
        parents=True)
    return ansible


def test_product_then_operator_then_defaults_then_fallbacks(
        tmp_path, operator, monkeypatch):
    ansible = _tripleo(tmp_path)
    (operator / '.ansible.cfg').write_text(
        '[defaults]\nlibrary = /opt/cfg-modules:relative\n'
        'roles_path = /opt/cfg-roles\ncollections_paths = /opt/cfg-coll\n')
    monkeypatch.setenv('ANSIBLE_LIBRARY', '/opt/env-modules')
    monkeypatch.setenv('ANSIBLE_COLLECTIONS_PATHS', '/opt/env-coll')
    search = search_paths.SearchPaths(ansible, [
        search_paths.operator_cfg(os.environ)])
    values = search.variables()
    assert values['ANSIBLE_LIBRARY'].split(':') == [
        os.path.join(ansible.path, SHARE, 'plugins', 'modules'),
        '/opt/env-modules', '/opt/cfg-modules',
        str(operator / 'relative'),  # relative to the ansible.cfg
        '~/.ansible/plugins/modules', '/usr/share/ansible/plugins/modules',
        search_paths.FALLBACK_MODULES]
    assert values['ANSIBLE_ROLES_PATH'].split(':') == [
        os.path.join(ansible.path, SHARE, 'roles'), '/opt/cfg-roles',
        '~/.ansible/roles', '/usr/share/ansible/roles', '/etc/ansible/roles']
    assert values['ANSIBLE_COLLECTIONS_PATH'].split(':') == [
        str(tmp_path / 'venv' / 'lib' / 'python3.11' / 'site-packages'),
        '/opt/env-coll', '/opt/cfg-coll', '~/.ansible/collections',
        '/usr/share/ansible/collections']
    assert values['ANSIBLE_TEST_PLUGINS'].split(':')[0] == os.path.join(
        ansible.path, SHARE, 'plugins', 'tests')
    # The files hold no variable of the operator's (read over them).
    assert search.cfg_values()['library'].split(':')[1] == '/opt/cfg-modules'


def test_the_product_s_own_ansible_core_has_no_tripleo_ansible(operator):
    values = search_paths.SearchPaths(None, []).variables()
    assert values['ANSIBLE_LIBRARY'].split(':') == [
        '~/.ansible/plugins/modules', '/usr/share/ansible/plugins/modules',
        search_paths.FALLBACK_MODULES]


def test_ansible_home_moves_the_defaults(operator, monkeypatch):
    monkeypatch.setenv('ANSIBLE_HOME', '/srv/ah/')
    values = search_paths.SearchPaths(None, []).variables()
    assert values['ANSIBLE_ROLES_PATH'].split(':')[0] == '/srv/ah/roles'


def test_the_operator_s_ansible_cfg_is_ansible_s_own_choice(
        tmp_path, operator, monkeypatch):
    own = tmp_path / 'cd' / 'ansible.cfg'
    assert search_paths.operator_cfg(os.environ, str(own)) is None
    (operator / '.ansible.cfg').write_text('[defaults]\n')
    assert search_paths.operator_cfg(os.environ) == str(
        operator / '.ansible.cfg')
    named = tmp_path / 'named.cfg'
    named.write_text('[defaults]\n')
    monkeypatch.setenv('ANSIBLE_CONFIG', str(named))
    assert search_paths.operator_cfg(os.environ) == str(named)
    # config-download's own, named by a run's environment, is not theirs.
    monkeypatch.setenv('ANSIBLE_CONFIG', str(own))
    assert search_paths.operator_cfg(os.environ, str(own)) == str(
        operator / '.ansible.cfg')


@pytest.mark.starts_process
def test_ansible_cfg_and_the_script_say_the_same(tmp_path, operator,
                                                 monkeypatch):
    """The deploy's files: ansible.cfg's [defaults] and the script's
    exports name the same directories; the script puts the operator's
    variables, as set when it runs, after the product's; an
    --override-ansible-cfg's directories are kept, in the operator's
    place."""
    cd = tmp_path / 'overcloud'
    cd.mkdir()
    (cd / 'deploy_steps_playbook.yaml').write_text(
        '- hosts: all\n  strategy: tripleo_free\n')
    override = tmp_path / 'override.cfg'
    override.write_text('[defaults]\nlibrary = /opt/override\n'
                        'forks = 7\n')
    monkeypatch.setenv(install.ENV_VAR, str(tmp_path / 'venv'))
    project.write_files(str(cd), ansible_run.AnsibleOptions(
        override_cfg=str(override)), require=False)
    parser = configparser.ConfigParser()
    parser.read(str(cd / 'ansible.cfg'))
    library = parser['defaults']['library']
    assert parser['defaults']['forks'] == '7'
    assert library.split(':')[1] == '/opt/override'
    script = (cd / 'ansible-playbook-command.sh').read_text().replace(
        '\nexec ', '\nexec printenv ANSIBLE_LIBRARY ANSIBLE_ROLES_PATH #')
    (cd / 'print.sh').write_text(script)
    printed = subprocess.run(['bash', str(cd / 'print.sh')],
                             capture_output=True, text=True,
                             check=True).stdout.splitlines()
    assert printed == [library, parser['defaults']['roles_path']]
    printed = subprocess.run(
        ['bash', str(cd / 'print.sh')], capture_output=True, text=True,
        check=True, env=dict(os.environ, ANSIBLE_LIBRARY='/opt/mine')
    ).stdout.splitlines()
    first, rest = library.split(':', 1)
    assert printed[0] == '%s:/opt/mine:%s' % (first, rest)
    # A run reads them back from config-download's ansible.cfg.
    env = environment.PlaybookEnvironment.for_config_download(
        str(cd), ansible_run.AnsibleOptions(), require=False)
    assert env.variables()['ANSIBLE_LIBRARY'] == library


@pytest.mark.starts_process
def test_ansible_core_reads_the_generated_ansible_cfg(tmp_path, operator):
    """ansible-config (the product's ansible-core) reads every search
    path of the generated ansible.cfg as written."""
    cd = tmp_path / 'cd'
    cd.mkdir()
    project.write_files(str(cd), ansible_run.AnsibleOptions())
    out = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), 'ansible-config'),
         'dump', '--only-changed'], capture_output=True, text=True,
        check=True, env=dict(os.environ, ANSIBLE_CONFIG=str(
            cd / 'ansible.cfg'))).stdout
    home = os.path.expanduser('~')
    assert 'DEFAULT_MODULE_PATH(%s) = [%r, %r, %r]' % (
        cd / 'ansible.cfg', os.path.join(home, '.ansible/plugins/modules'),
        '/usr/share/ansible/plugins/modules',
        search_paths.FALLBACK_MODULES) in out, out
    assert 'COLLECTIONS_PATHS(%s)' % (cd / 'ansible.cfg') in out


def test_defaults_are_ansible_core_s(tmp_path):
    """What is written as Ansible's defaults is what ansible-core's own
    base.yml says (the product's ansible-core; 2.14's says the same)."""
    import ansible.config
    import yaml

    with open(os.path.join(os.path.dirname(ansible.config.__file__),
                           'base.yml')) as f:
        base = yaml.safe_load(f)
    by_env = {}
    for name, definition in base.items():
        for env in definition.get('env') or ():
            by_env[env['name']] = definition.get('default')
    for setting in search_paths.SETTINGS:
        default = by_env[setting.env[0]]
        assert default.replace('{{ ANSIBLE_HOME ~ "', '{home}').rstrip(
            '" }}') == ':'.join(setting.defaults), setting
