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


@pytest.mark.starts_process
def test_every_module_compiles_on_every_admitted_python():
    """Each Python this machine has compiles every module as a plain pip
    install imports it (3.13 refused a docstring holding a lone surrogate,
    ``\\ud83d``, that 3.11 took: CI's smoke found it)."""
    import subprocess

    script = (
        'import pathlib, sys\n'
        'bad = []\n'
        'for p in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):\n'
        '    try:\n'
        '        compile(p.read_bytes(), str(p), "exec")\n'
        '    except (SyntaxError, ValueError) as exc:\n'
        '        bad.append("%s: %s" % (p, exc))\n'
        'print("\\n".join(bad))\n')
    package = os.path.join(_ROOT, 'tripleo_ephemeral')
    found = _pythons_tool().found()
    if not found:
        pytest.skip('no other Python here')
    for version, (python, _full) in sorted(found.items()):
        proc = subprocess.run([python, '-c', script, package],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and not proc.stdout.strip(), (
            version, proc.stdout, proc.stderr)
