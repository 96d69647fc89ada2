"""The values of the Ansible options, in tripleoclient's syntax."""

import pytest

from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral import exceptions


@pytest.mark.parametrize('given, expected', [
    (None, None), ('', ''), ('Compute', 'Compute'),
    ('ctrl-0, cmp-0', 'ctrl-0:cmp-0'), ('a b:c,,d', 'a:b:c:d'),
    ('!cmp-1', '!cmp-1')])
def test_parse_limit(given, expected):
    assert ansible_options.parse_limit(given) == expected


def test_skip_tags():
    assert ansible_options.skip_tags(None) == 'opendev-validation'
    assert ansible_options.skip_tags('x,y') == 'opendev-validation,x,y'
    assert ansible_options.skip_tags('x', inflight_validations=True) == 'x'
    assert ansible_options.skip_tags(None, inflight_validations=True) is None


def test_parse_extra_vars():
    assert ansible_options.parse_extra_vars(
        ['a=1', '{"b": [2]}', 'c: three', 'd=x=y']) == {
            'a': '1', 'b': [2], 'c': 'three', 'd': 'x=y'}
    with pytest.raises(exceptions.InputFileError, match='--extra-vars'):
        ansible_options.parse_extra_vars(['nonsense'])
    with pytest.raises(exceptions.InputFileError,
                       match='give the key a twice'):
        ansible_options.parse_extra_vars(['{"a": 1, "a": 2}'])


def test_arguments_read_what_they_declared():
    """A declared option missing from the arguments is an error; one not
    declared is not read."""
    import argparse

    declared = ansible_options.AnsibleArguments(limit=True, tags=True)
    parser = argparse.ArgumentParser()
    declared.add(parser)
    read = declared.read(parser.parse_args(['--limit', 'a, b']))
    assert (read.limit, read.forks) == ('a:b', None)
    with pytest.raises(KeyError):
        declared.read(argparse.Namespace(overcloud_ssh_user=None,
                                         overcloud_ssh_key=None, limit='a'))
