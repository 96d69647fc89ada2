import os

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import config_download as cd
from tripleo_ephemeral.tests.unit import fakes


@pytest.mark.parametrize('task, steps', [
    ({'name': 'x'}, None),
    ({'when': 'step|int == 2'}, {2}),
    ({'when': ['(step|int)==3', 'other']}, {3}),
    ({'when': 'step == 1 or step|int == 4'}, {1, 4}),
    ({'when': 'foo'}, None),
    ({'when': [True]}, None),
])
def test_task_steps(task, steps):
    assert cd.task_steps(task) == steps


@pytest.mark.parametrize('name, expected', [
    ('deploy_steps_playbook', 'deploy_steps_playbook.yaml'),
    ('container_puppet_script.sh', 'container_puppet_script.sh'),
    ('a.b/c', 'c.yaml'),
    ('../../etc/x', 'x.yaml'),
    ('global_vars', 'global_vars.yaml'),
])
def test_output_file_name(name, expected):
    assert cd.output_file_name(name) == expected


def test_output_file_name_rejects_empty():
    with pytest.raises(exceptions.StackOutputsError):
        cd.output_file_name('x/')


def _render(tmp_path, deployments=()):
    dest = str(tmp_path / 'cd')
    count = cd.render(fakes.outputs(), dest, 'oc', list(deployments))

    def read(*parts):
        with open(os.path.join(dest, *parts)) as f:
            return yaml.safe_load(f)
    return dest, count, read


def test_layout(tmp_path):
    deployments = [
        fakes.deployment('d2', 's-c0', 'ControllerDeployment', 'hiera',
                         '{"datafiles": {"x": {"a": 1}}}'),
        fakes.deployment('d1', 's-c0', 'Bootstrap',
                         stack_id='oc-Controller-ControllerPreNetworkConfig'),
        fakes.deployment('d3', 's-c0', 'ControllerPostConfig'),
        fakes.deployment('d4', 's-other', 'Foreign'),
    ]
    dest, count, read = _render(tmp_path, deployments)
    assert [t['name'] for t in read('Controller',
                                    'deploy_steps_tasks_step2.yaml')] == [
        'always', 'two']
    assert [t['name'] for t in read('Controller',
                                    'deploy_steps_tasks_step3.yaml')] == [
        'always', 'three']
    assert len(read('Controller', 'deploy_steps_tasks.yaml')) == 3
    assert not os.path.exists(os.path.join(
        dest, 'Controller', 'external_deploy_tasks.yaml'))
    with open(os.path.join(dest, 'Controller', 'step_config.pp')) as f:
        assert f.read() == 'include ::x'
    assert os.path.isdir(os.path.join(dest, 'Compute'))
    assert read('deploy_steps_playbook.yaml') == [{'hosts': 'oc'}]
    assert os.path.exists(os.path.join(dest, 'container_puppet_script.sh'))
    assert [t['name'] for t in read('external_deploy_steps_tasks_step1.yaml')
            ] == ['e1']
    assert read('external_deploy_steps_tasks_step2.yaml') == []
    assert read('global_vars.yaml') == {'deploy_steps_max': 5}

    hiera = read('Controller', 'c0', 'ControllerDeployment')
    body = hiera['ControllerDeployment']
    assert body['config'] == {'datafiles': {'x': {'a': 1}}}
    assert [i['value'] for i in body['inputs']
            if i['name'] == 'deploy_server_id'] == ['s-c0']
    # The config's id and creation time, as tripleo-common wrote them.
    assert body['id'] == 'cfg-d2' and body['deployment_name'] == (
        'ControllerDeployment')
    assert read('Controller', 'c0', 'Bootstrap')['Bootstrap']['config'] == (
        'echo hi\n')
    assert not os.path.exists(os.path.join(dest, 'Controller', 'c0',
                                           'Foreign'))

    host_vars = read('host_vars', 'c0')
    assert host_vars['pre_network_Controller'] == ['Bootstrap']
    assert host_vars['pre_deployments_Controller'] == ['ControllerDeployment']
    assert host_vars['post_deployments_Controller'] == [
        'ControllerPostConfig']
    assert host_vars['fqdn_canonical'] == 'c0.l'
    assert read('group_vars', 'Controller') == {
        'tripleo_role_name': 'Controller'}
    assert not os.path.exists(os.path.join(dest, 'group_vars', 'Compute'))
    assert isinstance(read('deployments.yaml'), list)
    assert read('inventory', 'tripleo') == read(
        'tripleo-ansible-inventory.yaml')
    with open(os.path.join(dest, 'templates', 'heat-config.j2')) as f:
        assert '{{ deployment }}' in f.read()
    with open(os.path.join(dest, '.gitignore')) as f:
        assert f.read() == '*.tar.gz\n'
    assert os.path.isdir(os.path.join(dest, 'artifacts'))
    files = sum(len(f) for _, _, f in os.walk(dest))
    assert files == count


def test_rerender_overwrites(tmp_path):
    _render(tmp_path)
    _, _, read = _render(tmp_path)
    assert read('global_vars.yaml') == {'deploy_steps_max': 5}


def test_outputs_without_role_data(tmp_path):
    with pytest.raises(exceptions.StackOutputsError, match='RoleData'):
        cd.render({}, str(tmp_path), 'oc')


def test_deployment_without_name(tmp_path):
    dep = fakes.deployment('d1', 's-c0', None)
    dep['config']['inputs'] = []
    with pytest.raises(exceptions.StackOutputsError, match='d1'):
        cd.render(fakes.outputs(), str(tmp_path), 'oc', [dep])


def test_render_into_a_new_dir(tmp_path):
    dest = str(tmp_path / 'config-download' / 'oc')
    assert cd.render(fakes.outputs(), dest, 'oc') > 0
    assert os.path.exists(os.path.join(dest,
                                       'tripleo-ansible-inventory.yaml'))
