"""config-download as a git repository: commits, runs and diffs, with the
real git and no git configuration (a fresh HOME)."""

import os
import subprocess
import uuid

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import changes
from tripleo_ephemeral.history import hooks
from tripleo_ephemeral.history import runs
from tripleo_ephemeral.history import versions

INVENTORY = {
    'Controller': {'hosts': {'ctrl-0': {}},
                   'vars': {'tripleo_role_name': 'Controller'}},
    'Compute': {'hosts': {'cmp-0': {}, 'cmp-1': {}},
                'vars': {'tripleo_role_name': 'Compute'}},
    'allovercloud': {'children': {'Controller': {}, 'Compute': {}}},
}


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    home = tmp_path / 'home'
    home.mkdir()
    monkeypatch.setenv('HOME', str(home))
    monkeypatch.delenv('XDG_CONFIG_HOME', raising=False)


def render(cd, identifier='100', interval=5, hosts=None, extra=None):
    """Write a small config-download into ``cd``."""
    inventory = yaml.safe_load(yaml.safe_dump(INVENTORY))
    if hosts is not None:
        inventory['Compute']['hosts'] = {h: {} for h in hosts}
    files = {
        'global_vars.yaml': 'deploy_identifier: %s\n' % identifier,
        'tripleo-ansible-inventory.yaml': yaml.safe_dump(inventory),
        'deploy_steps_playbook.yaml': '- hosts: all\n',
        'Controller/config_settings.yaml': 'interval: %d\n' % interval,
        'Compute/config_settings.yaml': 'role: Compute\n',
        'Compute/cmp-0/ComputeDeployment':
            'id: %s\nvalue: %s\n' % (uuid.uuid4(), identifier),
        'host_vars/cmp-1': 'a: 1\n',
    }
    files.update(extra or {})
    for rel, text in files.items():
        path = cd / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def git(cd, *args):
    return subprocess.run(['git', '-C', str(cd)] + list(args), check=True,
                          capture_output=True, text=True).stdout


@pytest.mark.starts_process
def test_one_commit_per_render_and_none_when_unchanged(tmp_path):
    cd = tmp_path / 'oc'
    render(cd)
    history = versions.ConfigHistory(str(cd))
    first = history.commit('oc', command='openstack overcloud deploy',
                           parameters={'Interval': 5})
    assert first and history.head() == first
    assert history.commit('oc', command='again') is None
    (cd / 'ansible.log').write_text('run\n')
    (cd / 'artifacts').mkdir()
    (cd / 'artifacts' / 'x').write_text('x')
    assert history.commit('oc', command='again') is None
    assert not history.dirty()
    [version] = history.versions()
    assert (version.stack, version.deploy_identifier, version.command) == (
        'oc', '100', 'openstack overcloud deploy')
    assert 'oc rendered by overcloud deploy' in version.subject
    assert history.parameters(first) == {'Interval': 5}
    assert git(cd, 'log', '-1', '--format=%an <%ae>').strip() == \
        'tripleo-ephemeral <tripleo-ephemeral@localhost>'


@pytest.mark.starts_process
def test_runs_move_the_applied_version(tmp_path):
    cd = tmp_path / 'oc'
    render(cd)
    history = versions.ConfigHistory(str(cd))
    first = history.commit('oc', command='deploy')
    playbook = str(cd / 'deploy_steps_playbook.yaml')
    with hooks.recording_run(str(cd), playbook, limit='ctrl-0'):
        pass
    assert history.resolve('applied') is None
    assert 'partly applied by deploy_steps_playbook.yaml --limit ctrl-0' in \
        hooks.pending(str(cd)).summary()
    with hooks.recording_run(str(cd), playbook, limit='oc',
                             skip_tags='opendev-validation'):
        pass
    assert history.resolve('applied') == first
    render(cd, interval=2)
    second = history.commit('oc', command='deploy')
    with pytest.raises(exceptions.AnsibleError):
        with hooks.recording_run(str(cd), playbook):
            raise exceptions.AnsibleError('failed')
    assert history.resolve('applied') == first
    recorded = runs.runs(history)
    assert [(r.outcome, r.sha) for r in recorded] == [
        (runs.FAILED, second), (runs.APPLIED, first),
        (runs.PARTIAL, first)]
    assert recorded[2].message == 'deploy_steps_playbook.yaml --limit ctrl-0'
    # A playbook that does not apply config-download is not recorded.
    with hooks.recording_run(str(cd), str(cd / 'scale_playbook.yaml')):
        pass
    assert len(runs.runs(history)) == 3


@pytest.mark.starts_process
def test_diff_per_role_and_host_with_noise_apart(tmp_path):
    cd = tmp_path / 'oc'
    render(cd, identifier='100')
    history = versions.ConfigHistory(str(cd))
    old = history.commit('oc', command='deploy',
                         parameters={'Interval': 5, 'DeployIdentifier': 100})
    render(cd, identifier='200', interval=2, hosts=['cmp-0', 'cmp-2'],
           extra={'host_vars/cmp-2': 'a: 2\n'})
    (cd / 'host_vars' / 'cmp-1').unlink()
    new = history.commit('oc', command='deploy',
                         parameters={'Interval': 2, 'DeployIdentifier': 200})
    diff = changes.compare(history, old, new)
    found = {f.path: (f.change, f.role, f.hosts) for f in diff.files}
    assert found == {
        'Controller/config_settings.yaml': ('modified', 'Controller',
                                            ['ctrl-0']),
        'host_vars/cmp-1': ('removed', 'Compute', ['cmp-1']),
        'host_vars/cmp-2': ('added', 'Compute', ['cmp-2']),
        'tripleo-ansible-inventory.yaml': ('modified', '',
                                           ['cmp-0', 'cmp-1', 'cmp-2',
                                            'ctrl-0']),
    }
    assert [f.path for f in diff.noise_files] == [
        'Compute/cmp-0/ComputeDeployment', 'global_vars.yaml']
    assert diff.parameters == [('Interval', 5, 2)]
    assert diff.noise_parameters == [('DeployIdentifier', 100, 200)]
    assert (diff.hosts_added, diff.hosts_removed) == (['cmp-2'], ['cmp-1'])
    assert 'hidden' in diff.summary() and '3 noise line(s)' in \
        diff.noise_text()
    settings = [f for f in diff.files
                if f.path == 'Controller/config_settings.yaml'][0]
    assert '-interval: 5\n+interval: 2\n' in settings.diff


@pytest.mark.starts_process
def test_pending_until_applied(tmp_path):
    cd = tmp_path / 'oc'
    render(cd)
    history = versions.ConfigHistory(str(cd))
    history.commit('oc', command='deploy')
    found = hooks.pending(str(cd))
    assert found.undeployed and found.applied is None
    with hooks.recording_run(str(cd), str(cd / 'deploy_steps_playbook.yaml')):
        pass
    found = hooks.pending(str(cd))
    assert not found.undeployed and 'is the one applied' in found.summary()
    # A render of noise only leaves nothing undeployed.
    render(cd, identifier='101')
    assert history.commit('oc', command='deploy')
    assert not hooks.pending(str(cd)).undeployed


@pytest.mark.starts_process
def test_the_history_survives_a_swapped_in_render(tmp_path):
    from tripleo_ephemeral import fileutil
    cd = tmp_path / 'oc'
    render(cd)
    history = versions.ConfigHistory(str(cd))
    first = history.commit('oc', command='deploy')
    fileutil.replace_dir(str(cd), lambda path: render(
        type(cd)(path), interval=3), keep=hooks.KEEP)
    second = history.commit('oc', command='deploy')
    assert [v.sha for v in history.versions()] == [second, first]
    assert os.path.isdir(cd / '.git')


@pytest.mark.starts_process
def test_a_render_without_ansible_says_what_the_next_run_changes(tmp_path):
    class WorkDir:
        config_download_dir = str(tmp_path / 'oc')

    cd = tmp_path / 'oc'
    render(cd)
    history = versions.ConfigHistory(str(cd))
    first = history.commit('oc', command='deploy')
    with hooks.recording_run(str(cd), str(cd / 'deploy_steps_playbook.yaml')):
        pass
    said = []
    render(cd, identifier='101')
    history.commit('oc', command='deploy --stack-only')
    assert hooks.result_values(WorkDir, said.append) == {
        'config_version': history.head()[:12], 'undeployed_changes': None}
    assert said == ['The next Ansible run would change nothing: only noise '
                    'since the applied version (3 noise line(s) in 2 '
                    'file(s), 0 parameter(s))']
    render(cd, identifier='102', interval=7)
    history.commit('oc', command='deploy --stack-only')
    values = hooks.result_values(WorkDir, said.append)
    assert values['undeployed_changes'].startswith(
        '1 file(s) on 1 host(s) (ctrl-0)')
    assert said[-1].startswith('The next Ansible run would change 1 file(s)')
    assert history.resolve('applied') == first


def test_a_file_reaches_the_hosts_of_its_role_and_none_for_a_role_without():
    scope = changes._Scope({'Controller': ['ctrl-0'], 'Compute': ['cmp-0']})
    assert scope.of('Controller/config_settings.yaml') == (
        'Controller', ['ctrl-0'])
    assert scope.of('Controller/ctrl-0/ControllerDeployment') == (
        'Controller', ['ctrl-0'])
    assert scope.of('group_vars/Compute') == ('Compute', ['cmp-0'])
    assert scope.of('host_vars/cmp-0') == ('Compute', ['cmp-0'])
    # THT's roles without nodes still get their directory: nobody's.
    assert scope.of('BlockStorage/config_settings.yaml') == (
        'BlockStorage', [])
    assert scope.of('global_vars.yaml') == ('', ['cmp-0', 'ctrl-0'])
    assert scope.of('templates/heat-config.j2') == ('', ['cmp-0', 'ctrl-0'])
