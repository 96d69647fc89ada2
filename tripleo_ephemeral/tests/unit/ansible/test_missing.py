"""The playbook check: ansible-core's own loader walks what a run would
load (here the product's ansible-core, on playbooks made for the test)."""

import os

import pytest
import yaml

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.ansible import environment
from tripleo_ephemeral.ansible import missing


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data))


@pytest.fixture
def config_dir(tmp_path):
    """A config-download shaped like THT's: a playbook including per-role
    task files by a templated path, a role, a TLS-only role."""
    _write(tmp_path / 'global_vars.yaml', {'enable_internal_tls': False})
    _write(tmp_path / 'roles' / 'present' / 'tasks' / 'main.yml', [
        {'name': 'Role task', 'debug': {'msg': 'hi'}},
        {'include_tasks': 'more.yml'}])
    _write(tmp_path / 'roles' / 'present' / 'tasks' / 'more.yml', [
        {'name': 'Needs pcs', 'pacemaker_resource': {'resource': 'x'}}])
    _write(tmp_path / 'Controller' / 'update_tasks_step1.yaml', [
        {'name': 'Disable haproxy', 'pacemaker_resource': {
            'resource': 'haproxy-bundle', 'state': 'disable'}},
        {'block': [{'include_role': {
            'name': 'linux-system-roles.certificate'}}],
         'when': ['step|int == 1', 'enable_internal_tls']},
        {'include_role': {'name': 'absent_role'}, 'name': 'Absent'}])
    _write(tmp_path / 'Compute' / 'update_tasks_step1.yaml', [
        {'name': 'Fine', 'command': 'true'}])
    _write(tmp_path / 'update_steps_playbook.yaml', [
        {'hosts': 'all', 'name': 'Update', 'gather_facts': False,
         'roles': ['present'],
         'tasks': [{'include_tasks': '{{ _task_file_path }}',
                    'vars': {'_task_file_path':
                             '{{ tripleo_role_name }}/update_tasks_step'
                             '{{ step }}.yaml'},
                    'with_sequence': 'start=0 end=5', 'loop_control': {
                        'loop_var': 'step'}}]}])
    _write(tmp_path / 'broken_playbook.yaml', '- hosts: all\n  tasks: [\n')
    return tmp_path


def _env(config_dir):
    return environment.PlaybookEnvironment(
        str(config_dir), ansible_run.AnsibleOptions())


def test_names_each_missing_module_and_role_with_its_tasks(config_dir):
    report = missing.walk(_env(config_dir), [
        str(config_dir / 'update_steps_playbook.yaml')])
    found = {(m['kind'], m['name']): m['uses'] for m in report.missing}
    assert found == {
        ('module', 'pacemaker_resource'): [
            'roles/present/tasks/more.yml: "Needs pcs"',
            'Controller/update_tasks_step1.yaml: "Disable haproxy"'],
        ('role', 'absent_role'): [
            'Controller/update_tasks_step1.yaml: "Absent"']}
    # The TLS role's use is behind enable_internal_tls: false.
    assert report.skipped == 1
    counts = report.playbooks[str(config_dir / 'update_steps_playbook.yaml')]
    assert counts == {'plays': 1, 'files': 4, 'tasks': 8}
    assert report.errors == []


def test_check_fails_with_one_line_per_missing_thing(config_dir):
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        missing.check(_env(config_dir), [
            str(config_dir / 'update_steps_playbook.yaml')])
    lines = str(exc.value).splitlines()
    assert lines[0].startswith('update_steps_playbook.yaml cannot run with '
                               'the Ansible in ')
    assert lines[1:] == [
        'module pacemaker_resource (from ansible-pacemaker (an RDO RPM, not '
        'on PyPI)) is not installed; used by roles/present/tasks/more.yml: '
        '"Needs pcs"; Controller/update_tasks_step1.yaml: "Disable haproxy"',
        'role absent_role (from no package known here) is not installed; '
        'used by Controller/update_tasks_step1.yaml: "Absent"']


def test_a_file_that_does_not_load_is_named(config_dir):
    report = missing.walk(_env(config_dir), [
        str(config_dir / 'broken_playbook.yaml')])
    assert [e['file'] for e in report.errors] == [
        str(config_dir / 'broken_playbook.yaml')]
    assert report.problems()[0].startswith(
        '%s does not load: ' % (config_dir / 'broken_playbook.yaml'))


def test_many_uses_are_counted(config_dir):
    report = missing.Report({'missing': [{
        'kind': 'module', 'name': 'm', 'uses': ['a', 'b', 'c', 'd', 'e']}]})
    assert report.problems() == [
        'module m (from no package known here) is not installed; used by '
        'a; b; c and 2 more']


def test_the_walker_runs_with_the_run_s_python_and_environment(tmp_path):
    calls = []

    class Runner:
        def run(self, argv, env=None, **kwargs):
            calls.append((argv, env))

            class Done:
                stdout = b'{"playbooks": {}, "missing": [], "errors": []}'
            return Done()

    env = _env(tmp_path)
    missing.check(env, ['p.yaml'], runner=Runner())
    argv, run_env = calls[0]
    assert argv == [env.python, missing.WALKER, 'p.yaml']
    assert run_env['ANSIBLE_CONFIG'] == os.path.join(str(tmp_path),
                                                     'ansible.cfg')
    assert run_env['PATH'].startswith(env.bin_dir + os.pathsep)
