"""The Pythons setup.cfg admits: its classifiers and python_requires agree,
and tools/pythons.py (CI's smoke, the benchmark) reads them."""

import configparser
import importlib.util
import os

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def _pythons_tool():
    path = os.path.join(_ROOT, 'tools', 'pythons.py')
    if not os.path.exists(path):
        pytest.skip('no checkout: %s is not here' % path)
    spec = importlib.util.spec_from_file_location('tools_pythons', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_python_requires_admits_exactly_the_tested_pythons():
    from packaging import specifiers

    pythons = _pythons_tool()
    admitted = pythons.admitted()
    assert admitted == [(3, 10), (3, 11), (3, 12), (3, 13)]
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(_ROOT, 'setup.cfg'))
    requires = specifiers.SpecifierSet(cfg.get('metadata',
                                               'python_requires'))
    for major, minor in admitted:
        assert '%d.%d.0' % (major, minor) in requires
    assert '3.9.18' not in requires and '3.14.0' not in requires
    assert pythons.parse('3.10, 3.13') == [(3, 10), (3, 13)]
