"""Issue 36: YAML that expands, nests or grows without bound is one line,
before it costs memory (or crashes libyaml), in every reader."""

import os

import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.overcloud import yaml_limits
from tripleo_ephemeral.overcloud import yamlfile


def billion_laughs(levels=9, key='parameter_defaults'):
    """The classic: ``levels`` lists of nine aliases of the one before."""
    lines = ['%s:' % key, '  l0: &l0 ["lol", "lol", "lol"]']
    for level in range(1, levels + 1):
        lines.append('  l%d: &l%d [%s]' % (level, level, ', '.join(
            ['*l%d' % (level - 1)] * 9)))
    return '\n'.join(lines) + '\n'


def _write(tmp_path, text, name='f.yaml'):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_billion_laughs_is_refused_naming_the_file(tmp_path):
    path = _write(tmp_path, billion_laughs(), 'env.yaml')
    with pytest.raises(exceptions.EnvironmentFileError) as err:
        yamlfile.load(path, 'Environment file',
                      exceptions.EnvironmentFileError)
    assert str(err.value).startswith(
        'Environment file %s is refused: its aliases (*name) expand its 12 '
        'mappings and lists to ' % path)
    assert str(err.value).endswith(
        ', over 10 times as many: write it without aliases')


def test_the_products_own_files_and_texts_are_limited_too():
    with pytest.raises(yamlfile.LimitError):
        yamlfile.loads(billion_laughs(), limits=yamlfile.OWN)
    with pytest.raises(yamlfile.LimitError):
        yamlfile.check_text(billion_laughs().encode())


def test_anchors_used_as_templates_use_them_pass():
    # THT's way: an anchored value given again a few times.
    text = ('volumes: &v [/a, /b, /c]\nimage: &i {get_param: Image}\n' +
            ''.join('step_%d: {image: *i, volumes: *v}\n' % n
                    for n in range(40)))
    data = yamlfile.loads(text)
    assert data['step_39'] == {'image': {'get_param': 'Image'},
                               'volumes': ['/a', '/b', '/c']}
    yamlfile.check_text(text)


def test_a_few_aliases_are_never_parsed_twice():
    # k aliases expand at most 2**k times: 3 cannot pass 10.
    text = billion_laughs(levels=1).replace(', '.join(['*l0'] * 9),
                                            '*l0, *l0, *l0')
    assert not yaml_limits.may_expand(text, yamlfile.INPUT)
    assert yaml_limits.may_expand(billion_laughs(), yamlfile.INPUT)


@pytest.mark.parametrize('text', [
    'a: &a [x]\nb: &b [*a, *a]\nc: [*b]\n',          # a doubling chain
    'a: &a [[x]]\nb: [*a, *a, *a]\n',                # one node, 3 times
    'a: &a [x]\nb: &b {k: *a}\nc: &c [*b, *b]\n',    # nested
])
def test_the_bound_that_skips_the_check_holds(text):
    """k aliases expand a document at most 2**k times."""
    held, expanded = yaml_limits.expansion(yaml.safe_load(text))
    assert expanded > held
    assert expanded <= held * 2 ** text.count('*')


@pytest.mark.parametrize('text', [
    '[' * 50000 + ']' * 50000,           # flow
    '- ' * 50000 + 'x\n',                # compact block sequences
    '? ' * 50000 + 'x\n',                # compact complex keys
    '{"a": ' * 5000 + '1' + '}' * 5000,  # JSON, read by json first
], ids=['flow', 'compact', 'keys', 'json'])
def test_deep_nesting_is_refused_before_libyaml_crashes(text):
    # Past some 30000 levels libyaml's composer overflows the C stack: a
    # segmentation fault, no message (this test would crash the run).
    with pytest.raises(yamlfile.LimitError, match='over 1000 deep'):
        yamlfile.loads(text)
    with pytest.raises(yamlfile.LimitError, match='over 1000 deep'):
        yamlfile.check_text(text)


def test_nesting_a_real_document_has_passes():
    text = '[' * 900 + ']' * 900 + '\n'
    assert yamlfile.loads(text) is not None
    yamlfile.check_text('- - - x\n' + '["[[[[", {a: [b]}]\n' * 400)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path,
                                                      monkeypatch):
    path = tmp_path / 'big.yaml'
    with open(path, 'wb') as f:
        f.truncate(yamlfile.INPUT.max_bytes + 1)  # sparse: nothing read

    def no_read(*_args):
        raise AssertionError('read the file')
    monkeypatch.setattr(yaml, 'load', no_read)
    with pytest.raises(exceptions.RolesDataError) as err:
        yamlfile.load(str(path), 'Roles data file',
                      exceptions.RolesDataError)
    assert str(err.value) == (
        'Roles data file %s is refused: 8.0 MiB, over the 8.0 MiB a YAML '
        'file may be: split it' % path)


def test_every_yaml_read_goes_through_yamlfile():
    """No module parses YAML by itself (the limits would not apply)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    allowed = {os.path.join('overcloud', 'yaml_limits.py'),
               os.path.join('overcloud', 'yamlfile.py')}
    found = []
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in ('tests', '__pycache__')]
        for name in files:
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root)
            if not name.endswith('.py') or rel in allowed:
                continue
            with open(path) as f:
                text = f.read()
            found += ['%s: %s' % (rel, call) for call in (
                'yaml.safe_load', 'yaml.load(', 'yaml.full_load',
                'yaml.unsafe_load', 'yaml.compose') if call in text]
    assert found == []


def _template_set(tmp_path, nested_text):
    root = tmp_path / 'templates'
    root.mkdir()
    (root / 'overcloud.yaml').write_text(
        'heat_template_version: wallaby\nresources:\n  n:\n'
        '    type: nested.yaml\n')
    (root / 'nested.yaml').write_text(nested_text)
    return root


def test_a_template_heatclient_would_expand_is_refused_naming_it(tmp_path):
    root = _template_set(tmp_path, 'heat_template_version: wallaby\n' +
                         billion_laughs(key='outputs'))
    with pytest.raises(exceptions.TemplateError) as err:
        template_processing.stack_create_args('s', str(root))
    assert str(err.value).startswith(
        'Template %s is refused: its aliases' % (root / 'nested.yaml'))


def test_an_environment_registry_template_is_checked_too(tmp_path):
    root = _template_set(tmp_path, 'heat_template_version: wallaby\n')
    (root / 'bomb.yaml').write_text('heat_template_version: wallaby\nx: ' +
                                    '[' * 40000 + ']' * 40000 + '\n')
    env = tmp_path / 'env.yaml'
    env.write_text('resource_registry:\n  OS::X: %s\n' % (root / 'bomb.yaml'))
    with pytest.raises(exceptions.TemplateError, match='bomb.yaml is '
                       'refused: it nests mappings and lists over 1000'):
        template_processing.stack_create_args(
            's', str(root), [str(env)], include_registry=False)


def test_the_request_is_what_heatclient_alone_builds(tmp_path):
    root = _template_set(tmp_path, 'heat_template_version: wallaby\n'
                         'resources:\n  c: {type: OS::Heat::None}\n')
    env = tmp_path / 'env.yaml'
    env.write_text('parameter_defaults: {A: 1}\nresource_registry:\n'
                   '  OS::X: %s\n' % (root / 'nested.yaml'))
    args = template_processing.stack_create_args(
        's', str(root), [str(env)], include_registry=False)
    from heatclient.common import template_utils
    tracker = []
    files, _ = template_utils.process_multiple_environments_and_files(
        env_paths=[str(env)], env_list_tracker=tracker)
    tpl_files, template = template_utils.get_template_contents(
        template_file=str(root / 'overcloud.yaml'))
    assert args['environment_files'] == tracker
    assert args['files'] == dict(tpl_files, **files)
    assert args['template'] == template
