"""What the runner installed and refused, recorded for launch heat."""

import sys

from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.engine_tuning import report


def test_every_tuning_guards_a_target_or_says_why_it_needs_none():
    for shim in registry.SHIMS:
        assert bool(shim.targets) != bool(shim.untargeted), shim.name
    untargeted = sorted(s.name for s in registry.SHIMS if s.untargeted)
    assert untargeted == ['checkin_yield', 'gc_freeze', 'gc_thresholds',
                          'sqlite_pragmas', 'sqlite_stack_indexes']


def test_a_refused_shim_is_named_with_why(monkeypatch):
    from heat.engine import template

    monkeypatch.setattr(template, 'parse', lambda *args, **kw: None)
    try:
        assert guard.install_shim('fast_template_parse') is None
        why = guard.refused()['fast_template_parse']
        assert 'heat.engine.template.parse differs' in why
    finally:
        guard.uninstall()
    assert guard.refused() == {}


def test_recorded_per_runner_and_merged(tmp_path):
    assert report.read(str(tmp_path)) is None
    report.write(str(tmp_path), 'api', ['a', 'b'], {})
    report.write(str(tmp_path), 'engine', ['b', 'c'], {'d': 'differs'},
                 {'e': 'not needed on Python 3.12.1: fixed there'})
    assert report.read(str(tmp_path)) == {
        'installed': ['a', 'b', 'c'], 'refused': {'d': 'differs'},
        'not_needed': {'e': 'not needed on Python 3.12.1: fixed there'}}
    report.clear(str(tmp_path))
    assert report.read(str(tmp_path)) is None
    # A log dir that cannot be written is only logged.
    report.write(str(tmp_path / 'missing'), 'all', [], {})


def test_the_log_line():
    assert report.line('engine', ['a', 'b'], {'c': 'x differs'}) == (
        'Engine tunings after stage engine: installed a, b; refused c '
        '(x differs)')
    assert report.line('database', [], {}) == (
        'Engine tunings after stage database: installed none; refused none')
    assert report.line('engine', ['a'], {}, {'b': 'not needed on Python '
                                             '3.13.0: fixed'}) == (
        'Engine tunings after stage engine: installed a; refused none; not '
        'needed b (not needed on Python 3.13.0: fixed)')


def test_a_fix_this_python_does_not_need_is_not_needed(monkeypatch):
    """Not refused: reported apart, with the reason, and not installed."""
    import ast

    stock = ast.parse
    monkeypatch.setattr(sys, 'version_info', (3, 12, 1, 'final', 0))
    try:
        assert guard.install_shim('thread_safe_ast_parse') is None
        assert ast.parse is stock
        assert guard.refused() == {}
        why = guard.unneeded()['thread_safe_ast_parse']
        assert why.startswith('not needed on Python 3.12.1: only Python '
                              '3.11.0 to 3.11.7')
    finally:
        guard.uninstall()
    assert guard.unneeded() == {}


def test_which_pythons_need_the_ast_parse_fix():
    shim = registry.shim('thread_safe_ast_parse')
    for version in ((3, 11, 0), (3, 11, 7)):
        assert shim.needed(version + ('final', 0)) is None
    for version in ((3, 10, 13), (3, 11, 8), (3, 12, 1), (3, 13, 0)):
        assert 'not needed on Python' in shim.needed(version)
    assert registry.shim('thread_safe_yaql').needed((3, 13, 0)) is None
