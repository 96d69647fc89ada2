"""The one YAML reader (:mod:`tripleo_ephemeral.overcloud.yamlfile`) is
the only one, and Jinja2 renders input in a sandbox: the readers check of
``tools/dev.py lint`` (``tools/check_readers.py``) on the checkout, and on
what it must refuse."""

import ast
import importlib.util
import os

import pytest

from tripleo_ephemeral.overcloud import yamlfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))
CHECK = os.path.join(ROOT, 'tools', 'check_readers.py')


@pytest.fixture(scope='module')
def check():
    if not os.path.exists(CHECK):
        pytest.skip('not a checkout (no tools/)')
    spec = importlib.util.spec_from_file_location('check_readers', CHECK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checkout_reads_one_way(check, capsys):
    assert check.main(ROOT) == 0, capsys.readouterr().out


def test_what_the_check_refuses(check):
    source = '\n'.join((
        'import jinja2, yaml',
        'from yaml import safe_load',
        'from jinja2 import Environment as Env',
        'from jinja2 import sandbox',
        'yaml.safe_load("a: 1")',
        'yaml.load_all("a", Loader=yaml.SafeLoader)',
        'Env(loader=jinja2.FileSystemLoader("templates"))',
        'jinja2.Template("{{ x }}")',
        'jinja2.Environment(loader=jinja2.PackageLoader("p", "t"))',
        'sandbox.SandboxedEnvironment(loader=jinja2.FileSystemLoader("t"))',
    ))
    found = check.problems('tripleo_ephemeral/x.py', ast.parse(source))
    assert found == [(2, 'from yaml import safe_load'),
                     (5, 'yaml.safe_load'), (6, 'yaml.load_all'),
                     (7, 'jinja2.Environment'), (8, 'jinja2.Template')]
    assert check.problems('tripleo_ephemeral/overcloud/yamlfile.py',
                          ast.parse('import yaml\nyaml.load("a")')) == []


def test_the_reader_loads_no_python_objects():
    with pytest.raises(yamlfile.yaml.YAMLError):
        yamlfile.loads('!!python/object/apply:os.system ["id"]')
