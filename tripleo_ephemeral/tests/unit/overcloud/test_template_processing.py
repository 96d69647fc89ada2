import os

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import template_processing as tp

ROLES = [{'name': 'Controller', 'tags': ['primary']}, {'name': 'Compute'}]
NETS = network_data.validate_networks([{'name': 'InternalApi'}])


def _tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)


def test_render_role_network_and_plain(tmp_path):
    src = tmp_path / 'src'
    _tree(str(src), {
        'top.j2.yaml': '{% for r in roles %}{{r.name}} {% endfor %}\n',
        'puppet/role.role.j2.yaml': 'role: {{role.name}}\n',
        'network/ports/port.network.j2.yaml': 'net: {{network.name}}\n',
        'static.yaml': 'a: 1\n',
    })
    wanted = str(tmp_path / 'work' / 'tht')
    dest = tp.prepare_templates(str(src), wanted, ROLES, NETS)
    assert dest == wanted

    def read(rel):
        with open(os.path.join(dest, rel)) as f:
            return f.read()
    assert read('top.yaml') == 'Controller Compute \n'
    assert read('puppet/controller-role.yaml') == 'role: Controller\n'
    assert read('puppet/compute-role.yaml') == 'role: Compute\n'
    assert read('network/ports/internalapi.yaml') == 'net: InternalApi\n'
    assert read('static.yaml') == 'a: 1\n'


def test_copy_replaces_previous_copy(tmp_path):
    src = tmp_path / 'src'
    _tree(str(src), {'a.yaml': 'x: 1\n'})
    dest = tp.copy_templates(str(src), str(tmp_path / 'copy'))
    _tree(dest, {'stale.yaml': 'y: 1\n'})
    tp.copy_templates(str(src), dest)
    assert not os.path.exists(os.path.join(dest, 'stale.yaml'))


def test_jinja_syntax_error_names_file(tmp_path):
    _tree(str(tmp_path), {'bad.j2.yaml': '{% for %}\n'})
    with pytest.raises(exceptions.TemplateError, match='bad.j2.yaml'):
        tp.render_templates(str(tmp_path), ROLES, NETS)


def test_environment_directory_sorted(tmp_path):
    _tree(str(tmp_path), {'b.yaml': '', 'a.yml': '', 'c.txt': ''})
    assert [os.path.basename(p) for p in
            tp.environment_directory_files(str(tmp_path))] == ['a.yml',
                                                               'b.yaml']
    with pytest.raises(exceptions.EnvironmentFileError, match='nope'):
        tp.environment_directory_files(str(tmp_path / 'nope'))


@pytest.fixture
def rendered(tmp_path):
    src = tp.bundled_templates_dir()
    data = roles.load_roles(os.path.join(src, 'roles_data.yaml'))
    return tp.prepare_templates(src, str(tmp_path / 'w'), data, [])


def test_stack_create_args(rendered, tmp_path):
    env = tmp_path / 'env.yaml'
    env.write_text('parameter_defaults: {ControllerCount: 2}\n')
    args = tp.stack_create_args('oc', rendered, [str(env)], timeout_mins=7)
    assert args['stack_name'] == 'oc'
    assert args['timeout_mins'] == 7 and args['disable_rollback'] is True
    assert args['environment_files'][0].endswith(tp.RESOURCE_REGISTRY)
    assert args['environment_files'][-1] == 'file://%s' % env
    for url in args['environment_files']:
        assert url in args['files']
    assert any(k.endswith('role/controller-role.yaml') for k in args['files'])
    assert any(k.endswith('common/services.yaml') for k in args['files'])
    assert 'Controller' in args['template']['resources']
    assert 'parameters' not in args


def test_missing_environment(rendered, tmp_path):
    with pytest.raises(exceptions.EnvironmentFileError) as e:
        tp.stack_create_args('oc', rendered, [str(tmp_path / 'x.yaml')])
    assert 'x.yaml' in str(e.value) and 'not found' in str(e.value)


def test_malformed_environment(rendered, tmp_path):
    env = tmp_path / 'bad.yaml'
    env.write_text('parameter_defaults: [\n')
    with pytest.raises(exceptions.EnvironmentFileError, match='bad.yaml'):
        tp.stack_create_args('oc', rendered, [str(env)])


def test_environment_refers_to_missing_file(rendered, tmp_path):
    env = tmp_path / 'env.yaml'
    env.write_text('resource_registry:\n  OS::X::Y: missing.yaml\n')
    with pytest.raises(exceptions.EnvironmentFileError) as e:
        tp.stack_create_args('oc', rendered, [str(env)])
    assert 'missing.yaml' in str(e.value) and 'env.yaml' in str(e.value)


def test_missing_root_template(tmp_path):
    with pytest.raises(exceptions.TemplateError, match='overcloud.yaml'):
        tp.stack_create_args('oc', str(tmp_path))


def test_render_like_process_templates(tmp_path):
    """Includes next to the template, network idx, disabled networks."""
    src = tmp_path / 'src'
    _tree(str(src), {
        'common/post.j2.yaml': "{% include 'steps.j2' %}\n",
        'common/steps.j2': 'steps of {{roles | length}} roles',
        'network/network.network.j2.yaml':
            '{{network.name}} {{network.idx}}\n',
        '.hidden/x.j2.yaml': '{{ undefined.boom() }}\n',
    })
    nets = network_data.validate_networks(
        [{'name': 'Off', 'enabled': False}, {'name': 'Tenant'}])
    dest = tp.prepare_templates(str(src), str(tmp_path / 'work'), ROLES,
                                nets)
    with open(os.path.join(dest, 'common/post.yaml')) as f:
        assert f.read() == 'steps of 2 roles\n'
    with open(os.path.join(dest, 'network/tenant.yaml')) as f:
        assert f.read() == 'Tenant 1\n'
    assert not os.path.exists(os.path.join(dest, 'network/off.yaml'))


def test_tht_resource_registry_is_used(tmp_path):
    _tree(str(tmp_path), {
        tp.ROOT_TEMPLATE: 'heat_template_version: wallaby\n',
        tp.THT_RESOURCE_REGISTRY: 'resource_registry: {}\n',
    })
    args = tp.stack_create_args('s', str(tmp_path))
    assert args['environment_files'][0].endswith(tp.THT_RESOURCE_REGISTRY)
