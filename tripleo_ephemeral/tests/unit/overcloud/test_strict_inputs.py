"""Issue 29: the YAML a user gives is read strictly, environments are
checked as Heat's engine checks them: one line naming file, key and fix."""

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import environment_file
from tripleo_ephemeral.overcloud import yamlfile


def _write(tmp_path, text, name='f.yaml'):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def test_a_key_given_twice_is_an_error_naming_both_lines(tmp_path):
    path = _write(tmp_path, 'Controller:\n- a\nCompute: []\nController:\n'
                            '- b\n')
    with pytest.raises(exceptions.DeployedServersError) as err:
        yamlfile.load(path, 'Deployed servers file',
                      exceptions.DeployedServersError)
    assert str(err.value) == (
        'Deployed servers file %s gives the key Controller twice (lines 1 '
        'and 4): keep one' % path)


def test_a_key_twice_in_a_nested_mapping(tmp_path):
    path = _write(tmp_path, 'parameter_defaults:\n  A: 1\n  B: 2\n  A: 3\n')
    with pytest.raises(exceptions.InputFileError, match='key A twice '
                       r'\(lines 2 and 4\)'):
        yamlfile.load(path)


def test_merge_keys_and_overrides_of_them_are_not_duplicates(tmp_path):
    path = _write(tmp_path, 'a: &x {b: 1}\nc:\n  <<: *x\n  b: 2\n')
    assert yamlfile.load(path) == {'a': {'b': 1}, 'c': {'b': 2}}


def test_loads_stays_lenient_for_heat_templates():
    assert yamlfile.loads('a: 1\na: 2\n') == {'a': 2}


def test_not_utf8_names_the_line(tmp_path):
    path = _write(tmp_path, b'parameter_defaults:\n  A: "caf\xe9"\n')
    with pytest.raises(exceptions.EnvironmentFileError) as err:
        yamlfile.load(path, 'Environment file',
                      exceptions.EnvironmentFileError)
    assert str(err.value) == ('Environment file %s is not UTF-8 (byte 0xe9 '
                              'on line 2): save it as UTF-8' % path)


@pytest.mark.parametrize('text, fragment', [
    # The case: Heat's engine refused it with "Internal Error".
    ('parameter_defaults:\n  # NtpServer: x\n',
     'section parameter_defaults is empty (only comments under it?), which '
     'Heat refuses: give it an entry, or remove the "parameter_defaults:" '
     'line'),
    ('parameter_defaults: [a]\n',
     'section parameter_defaults is a list; it must be a mapping'),
    ('parameters: x\n', 'section parameters is the str \'x\'; it must be'),
    ('resource_registry: [a]\n', 'section resource_registry is a list'),
    ('encrypted_param_names: {a: 1}\n', 'it must be a list'),
    ('parameter_default:\n  A: 1\n',
     'has the section parameter_default, which Heat does not know'),
    ('NtpServer: x\n', 'indent it under parameter_defaults, or remove it'),
    ('- a\n', 'is a list, not a mapping of sections'),
    ('heat_template_version: wallaby\n', 'is a template'),
    ('parameter_defaults:\n  1: x\n', "has the key 1, which is not a name"),
    # Each measured on Heat 26.0.2: an AttributeError in the engine.
    ('resource_registry:\n  OS::X: [a]\n',
     'resource_registry maps OS::X to a list; it must name a type or a '
     'template file'),
    ('resource_registry:\n  resources: [a]\n',
     'resource_registry maps resources to a list'),
    ('resource_registry:\n  resources:\n    r1: [a]\n',
     'resource_registry resources maps r1 to a list'),
    ('event_sinks: [a]\n', "event_sinks has the str 'a'; each sink is a "
     'mapping'),
])
def test_environment_shape(tmp_path, text, fragment):
    path = _write(tmp_path, text)
    with pytest.raises(exceptions.EnvironmentFileError) as err:
        environment_file.check(path)
    assert fragment in str(err.value)
    assert str(err.value).startswith('Environment file %s' % path)
    assert '\n' not in str(err.value)


def test_a_typo_of_a_section_is_suggested(tmp_path):
    path = _write(tmp_path, 'parameter_default:\n  A: 1\n')
    with pytest.raises(exceptions.EnvironmentFileError,
                       match='did you mean parameter_defaults'):
        environment_file.check(path)


@pytest.mark.parametrize('text', [
    '', '# only a comment\n', 'parameter_defaults: {}\n',
    'parameter_defaults:\n  NtpServer: x\nresource_registry:\n'
    '  OS::X: x.yaml\nencrypted_param_names: [A]\n',
    # Null values: Heat takes them (a parameter's default, a removal).
    'parameter_defaults:\n  NtpServer:\nresource_registry:\n  OS::X:\n',
    'resource_registry:\n  resources:\n    r1:\n      hooks: [pre-create]'
    '\n      restricted_actions: replace\n      OS::Y: y.yaml\n'])
def test_good_environments(tmp_path, text):
    environment_file.check(_write(tmp_path, text))


def test_strict_json_text_is_read_by_the_strict_loader():
    with pytest.raises(yamlfile.DuplicateKeyError):
        yamlfile.loads('{"a": 1, "a": 2}', strict=True)
    assert yamlfile.loads('{"a": 1, "a": 2}') == {'a': 2}
