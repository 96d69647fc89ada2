"""The playbook check: ansible-core's own loader walks what a run would
load (here the product's ansible-core, on playbooks made for the test)."""

import os

import pytest
import yaml

from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.ansible import environment
from tripleo_ephemeral.ansible import missing
from tripleo_ephemeral.ansible import search_paths


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data))


INVENTORY = {
    'Controller': {'hosts': {'ctrl-0': {}},
                   'vars': {'tripleo_role_name': 'Controller'}},
    'Compute': {'hosts': {'cmp-0': {}},
                'vars': {'tripleo_role_name': 'Compute'}},
    'overcloud': {'children': {'Controller': {}, 'Compute': {}}}}


@pytest.fixture
def config_dir(tmp_path):
    """A config-download shaped like THT's: per-role plays importing the
    role's step files, a play of every host including per-role task files
    by a templated path, a role, a TLS-only role, modules nobody has."""
    _write(tmp_path / 'tripleo-ansible-inventory.yaml', INVENTORY)
    _write(tmp_path / 'global_vars.yaml', {'enable_internal_tls': False})
    _write(tmp_path / 'roles' / 'present' / 'tasks' / 'main.yml', [
        {'name': 'Role task', 'debug': {'msg': 'hi'}},
        {'include_tasks': 'more.yml'}])
    _write(tmp_path / 'roles' / 'present' / 'tasks' / 'more.yml', [
        {'name': 'Needs rdo', 'rdo_only_module': {'resource': 'x'}}])
    _write(tmp_path / 'Controller' / 'update_tasks_step1.yaml', [
        {'name': 'Disable haproxy', 'pacemaker_resource': {
            'resource': 'haproxy-bundle', 'state': 'disable'}},
        {'name': 'Stop it', 'rdo_only_module': {'state': 'x'},
         'when': 'step|int == 1'},
        {'name': 'Not at this step', 'step_two_module': {},
         'when': 'step|int == 2'},
        {'block': [{'include_role': {
            'name': 'linux-system-roles.certificate'}}],
         'when': ['step|int == 1', 'enable_internal_tls']},
        {'include_role': {'name': 'absent_role'}, 'name': 'Absent'}])
    _write(tmp_path / 'Compute' / 'update_tasks_step1.yaml', [
        {'name': 'Fine', 'command': 'true'}])
    _write(tmp_path / 'Controller' / 'host_prep_tasks.yaml', [
        {'name': 'Prep', 'controller_prep_module': {}}])
    _write(tmp_path / 'Compute' / 'host_prep_tasks.yaml', [
        {'name': 'Prep', 'command': 'true'}])
    _write(tmp_path / 'update_steps_playbook.yaml', [
        {'hosts': 'overcloud', 'name': 'Host prep', 'gather_facts': False,
         'tasks': [{'include_tasks': '{{ _task_file_path }}',
                    'vars': {'_task_file_path':
                             '{{ tripleo_role_name }}/host_prep_tasks.yaml'}}
                   ]}] + [
        {'hosts': role, 'name': 'Run update', 'gather_facts': False,
         'roles': ['present'] if role == 'Controller' else [],
         'tasks': [{'import_tasks': '%s/update_tasks_step1.yaml' % role,
                    'vars': {'step': '1'}}]}
        for role in ('Controller', 'Compute')])
    _write(tmp_path / 'broken_playbook.yaml', '- hosts: all\n  tasks: [\n')
    return tmp_path


def _env(config_dir, **options):
    return environment.PlaybookEnvironment(
        str(config_dir), ansible_run.AnsibleOptions(**options))


def _found(report):
    return {(m['kind'], m['name']): m['uses'] for m in report.missing}


@pytest.mark.starts_process
def test_names_each_missing_module_and_role_with_its_tasks(config_dir):
    report = missing.walk(_env(config_dir), [
        str(config_dir / 'update_steps_playbook.yaml')])
    assert _found(report) == {
        ('module', 'controller_prep_module'): [
            'Controller/host_prep_tasks.yaml: "Prep"'],
        ('module', 'rdo_only_module'): [
            'roles/present/tasks/more.yml: "Needs rdo"',
            'Controller/update_tasks_step1.yaml: "Stop it"'],
        ('role', 'absent_role'): [
            'Controller/update_tasks_step1.yaml: "Absent"']}
    # Step 2's use (step is 1 there) and the TLS role's (behind
    # enable_internal_tls: false) are left out.
    assert report.skipped == 2
    counts = report.playbooks[str(config_dir / 'update_steps_playbook.yaml')]
    assert counts == {'plays': 3, 'files': 6, 'tasks': 14}
    assert report.errors == []
    # pacemaker_resource: the product's own, said so.
    assert report.which == {'pacemaker_resource': os.path.join(
        search_paths.FALLBACK_MODULES, 'pacemaker_resource.py')}
    assert missing.which(report) == [
        "Using tripleo-ephemeral's own pacemaker_resource (%s): no other is "
        "found where this run looks (ANSIBLE_LIBRARY, ansible.cfg's library,"
        " ~/.ansible/plugins/modules, /usr/share/ansible/plugins/modules, "
        "where ansible-pacemaker's RPM puts them)" %
        search_paths.FALLBACK_MODULES]


@pytest.mark.starts_process
def test_a_compute_only_run_is_not_refused_for_a_controller_s_module(
        config_dir):
    """--limit Compute: the Controller's plays do not run, and the play of
    every host includes the Compute's task file only."""
    report = missing.check(_env(config_dir, limit='Compute'), [
        str(config_dir / 'update_steps_playbook.yaml')])
    assert report.plays_skipped == ['Run update (hosts: Controller)']
    assert report.which == {}
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        missing.check(_env(config_dir, limit='Controller'), [
            str(config_dir / 'update_steps_playbook.yaml')])
    lines = str(exc.value).splitlines()
    assert lines[0].startswith('update_steps_playbook.yaml --limit '
                               'Controller cannot run with the Ansible in ')
    assert [line.split(' (')[0] for line in lines[1:]] == [
        'module controller_prep_module', 'module rdo_only_module',
        'role absent_role']
    # A host by name.
    report = missing.walk(_env(config_dir, limit='ctrl-0'), [
        str(config_dir / 'update_steps_playbook.yaml')])
    assert sorted(_found(report)) == [
        ('module', 'controller_prep_module'), ('module', 'rdo_only_module'),
        ('role', 'absent_role')]


@pytest.mark.starts_process
def test_tags_judge_as_ansible_does(tmp_path):
    _write(tmp_path / 'tripleo-ansible-inventory.yaml', INVENTORY)
    _write(tmp_path / 'tagged.yaml', [
        {'name': 'Dynamic include', 'tags': ['inc'],
         'include_tasks': 'included.yaml'},
        {'name': 'Static import', 'tags': ['imp'],
         'import_tasks': 'imported.yaml'},
        {'name': 'Applied include', 'tags': ['app'], 'include_tasks': {
            'file': 'applied.yaml', 'apply': {'tags': ['app']}}}])
    _write(tmp_path / 'applied.yaml', [{'name': 'Applied', 'm_applied': {}}])
    _write(tmp_path / 'included.yaml', [
        {'name': 'Included untagged', 'm_included_untagged': {}},
        {'name': 'Included own', 'm_included_own': {}, 'tags': ['own']}])
    _write(tmp_path / 'imported.yaml', [
        {'name': 'Imported', 'm_imported': {}}])
    _write(tmp_path / 'deploy_steps_playbook.yaml', [
        {'hosts': 'overcloud', 'gather_facts': False, 'tasks': [
            {'name': 'Untagged', 'm_untagged': {}},
            {'name': 'Always', 'm_always': {}, 'tags': 'always'},
            {'name': 'Never', 'm_never': {}, 'tags': ['never', 'debug']},
            {'name': 'Pcs', 'm_pcs': {}, 'tags': 'pcs,update'},
            {'name': 'Templated', 'm_templated': {}, 'tags': '{{ t }}'},
            {'import_tasks': 'tagged.yaml'}]}])
    playbook = [str(tmp_path / 'deploy_steps_playbook.yaml')]

    def names(**options):
        report = missing.walk(_env(tmp_path, **options), playbook)
        return sorted(m['name'][2:] for m in report.missing)

    everything = ['always', 'applied', 'imported', 'included_own',
                  'included_untagged', 'pcs', 'templated', 'untagged']
    assert names() == everything
    assert names(tags='pcs') == ['always', 'pcs', 'templated']
    # A dynamic include's own tags are not its tasks' (its "apply" is).
    assert names(tags='inc') == ['always', 'templated']
    assert names(tags='app') == ['always', 'applied', 'templated']
    assert names(tags='imp') == ['always', 'imported', 'templated']
    assert names(tags='own') == ['always', 'templated']
    assert names(tags='debug') == ['always', 'never', 'templated']
    assert names(skip_tags='pcs') == sorted(set(everything) - {'pcs'})
    assert names(skip_tags='all') == ['always', 'templated']
    assert names(tags='untagged') == ['always', 'templated', 'untagged']


@pytest.mark.starts_process
def test_extra_vars_and_play_vars_decide_a_when(tmp_path):
    _write(tmp_path / 'tripleo-ansible-inventory.yaml', INVENTORY)
    _write(tmp_path / 'deploy_steps_playbook.yaml', [
        {'hosts': 'Compute', 'gather_facts': False,
         'vars': {'mode': 'update'}, 'tasks': [
             {'name': 'On upgrade', 'm_upgrade': {},
              'when': "mode == 'upgrade'"},
             {'name': 'Unless skipped', 'm_extra': {},
              'when': 'not (skip_it | default(false) | bool)'}]}])
    playbook = [str(tmp_path / 'deploy_steps_playbook.yaml')]
    report = missing.walk(_env(tmp_path), playbook)
    assert [m['name'] for m in report.missing] == ['m_extra']
    report = missing.walk(_env(tmp_path, extravars={'skip_it': True,
                                                    'mode': 'upgrade'}),
                          playbook)
    assert [m['name'] for m in report.missing] == ['m_upgrade']


@pytest.mark.starts_process
def test_tasks_that_cannot_but_fail_are_warned_of(tmp_path):
    """tripleo-ansible 6.0.0's tripleo_nova_migration_target upgrade
    includes a file it does not have; THT 18.0.0's podman upgrade renders
    an empty set_fact without an insecure registry: the run will fail
    there (it still runs: the fault is not this machine's)."""
    _write(tmp_path / 'roles' / 'r' / 'tasks' / 'upgrade.yaml', [
        {'name': 'cleanup', 'include_tasks': 'not_there.yaml'}])
    _write(tmp_path / 'p.yaml', [{'hosts': 'all', 'tasks': [
        {'include_role': {'name': 'r', 'tasks_from': 'upgrade'}},
        {'name': 'Set a fact', 'set_fact': {}},
        {'name': 'Not this step', 'set_fact': {}, 'when': 'step == 2'},
        {'name': 'Set one', 'set_fact': {'a': 1}}],
        'vars': {'step': 1}}])
    report = missing.walk(_env(tmp_path), [str(tmp_path / 'p.yaml')])
    assert missing.warnings(report) == [
        'WARNING: roles/r/tasks/upgrade.yaml: "cleanup" includes '
        'not_there.yaml, which is not there: the run will fail at that task',
        'WARNING: p.yaml: "Set a fact" sets no fact (an empty set_fact): '
        'the run will fail at that task']
    assert report.problems() == []


@pytest.mark.starts_process
def test_check_fails_with_one_line_per_missing_thing(config_dir):
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        missing.check(_env(config_dir), [
            str(config_dir / 'update_steps_playbook.yaml')])
    lines = str(exc.value).splitlines()
    assert lines[0].startswith('update_steps_playbook.yaml cannot run with '
                               'the Ansible in ')
    assert lines[2:] == [
        'module rdo_only_module (from no package known here) is not '
        'installed; used by roles/present/tasks/more.yml: "Needs rdo"; '
        'Controller/update_tasks_step1.yaml: "Stop it"',
        'role absent_role (from no package known here) is not installed; '
        'used by Controller/update_tasks_step1.yaml: "Absent"']


@pytest.mark.starts_process
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

    env = _env(tmp_path, limit='Compute', tags='a', skip_tags='b')
    (tmp_path / 'tripleo-ansible-inventory.yaml').write_text('{}')
    missing.check(env, ['p.yaml'], runner=Runner())
    argv, run_env = calls[0]
    assert argv == [env.python, missing.WALKER,
                    '--which', 'pacemaker_cluster',
                    '--which', 'pacemaker_resource',
                    '--inventory', str(tmp_path /
                                       'tripleo-ansible-inventory.yaml'),
                    '--limit', 'Compute', '--tags', 'a', '--skip-tags', 'b',
                    'p.yaml']
    assert run_env['ANSIBLE_CONFIG'] == os.path.join(str(tmp_path),
                                                     'ansible.cfg')
    assert run_env['PATH'].startswith(env.bin_dir + os.pathsep)
