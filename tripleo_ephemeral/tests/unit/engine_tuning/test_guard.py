"""The tuning registry, its fingerprints and the guard that checks them."""

import dataclasses
import inspect
import linecache
import logging
import os
import subprocess
import sys
import types
import typing

import pytest

from tripleo_ephemeral.engine_tuning import fingerprint
from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.engine_tuning import spec
from tripleo_ephemeral.engine_tuning import targets
from tripleo_ephemeral.heat_launcher import tuning


def test_fingerprints_match_the_installed_libraries():
    """Fails on a Heat (or oslo.db, oslo.messaging, Python) whose code a
    shim replaces or relies on changed: those shims would stay off."""
    assert guard.installed() == [], 'a test left shims installed'
    stale = {}
    for shim in registry.SHIMS:
        problem = guard.mismatch(shim)
        if problem:
            stale[shim.name] = problem
    assert not stale, (
        'Re-check these engine tuning shims against the installed '
        'libraries (tools/check_tuning.py), then record the new '
        'fingerprints in engine_tuning/tunings/<tuning>.py:\n' + '\n'.join(
            '%s: %s' % item for item in sorted(stale.items())))


@pytest.mark.starts_process
def test_the_launcher_side_imports_no_heat():
    code = ('import sys\n'
            'from tripleo_ephemeral.engine_tuning import registry\n'
            'from tripleo_ephemeral.heat_launcher import tuning\n'
            'from tripleo_ephemeral.runner import options as runner_options\n'
            'print(sorted(m for m in sys.modules if m == "heat" or '
            'm.startswith(("heat.", "oslo_db", "oslo_messaging"))))\n')
    out = subprocess.run([sys.executable, '-c', code], check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == '[]'


def test_every_shim_is_declared_whole():
    names = set()
    for shim in registry.SHIMS:
        assert shim.name not in names
        names.add(shim.name)
        assert shim.stage in spec.STAGES
        assert shim.when in (None, 'in_process', 'message_bus')
        assert shim.always_on or shim.options, shim.name
        assert bool(shim.targets) == bool(shim.checked_on), shim.name
        for tgt in shim.targets:
            assert tgt.fingerprints and all(
                len(f) == fingerprint.LENGTH for f in tgt.fingerprints)
        values = [opt.name for opt in shim.options if opt.type != 'bool']
        assert list(inspect.signature(shim.install).parameters) == [
            'patches'] + values, shim.name
    options = [opt.name for opt in registry.tunings()]
    assert len(options) == len(set(options))


#: The type of an install's argument, by its option's type.
_ARGUMENT_TYPES = {'int': int, 'float': float, 'str': str, 'list': list[str]}


def test_every_install_is_typed_as_its_declaration():
    """mypy (``tools/dev.py lint``) checks the declarations against
    spec's types and each install's body against its signature; here
    each signature is that of its declaration's options."""
    from tripleo_ephemeral.engine_tuning import patching

    for shim in registry.SHIMS:
        hints = typing.get_type_hints(shim.install)
        assert hints == dict(
            {'patches': patching.Patches, 'return': type(None)},
            **{opt.name: _ARGUMENT_TYPES[opt.type] for opt in shim.options
               if opt.type != 'bool'}), shim.name


def _values(which):
    return types.SimpleNamespace(**{
        opt.name: opt.value(getattr(opt, which))
        for opt in registry.tunings()})


def _needed(names):
    """``names`` less the fixes this Python does not need."""
    return [name for name in names
            if not registry.shim(name).needed(sys.version_info)]


def test_stock_options_install_only_the_fixes():
    try:
        assert guard.install(_values('stock'), stage='database') == []
        assert guard.install(_values('stock'), stage='engine') == _needed([
            'thread_safe_yaql', 'thread_safe_ast_parse',
            'sqlite_begin_immediate', 'sqlite_pragmas'])
        assert guard.install(_values('stock'), stage='started') == []
    finally:
        guard.uninstall()


def _targets():
    """(path, object) of every target a name resolves to here."""
    found = []
    for shim in registry.SHIMS:
        for tgt in shim.targets:
            if not tgt.path.endswith(']'):
                found.append((tgt.path, targets.held(tgt.path)))
    return found


@pytest.mark.parametrize('in_process', [True, False])
def test_install_then_uninstall_gives_stock_heat_back(monkeypatch,
                                                      in_process):
    """Every tuned shim installed (through the guard, so every target
    matched), then taken away: every target is Heat's own object again."""
    import gc
    from oslo_db.sqlalchemy import engines

    monkeypatch.setattr(guard, 'engines_in_process', lambda: in_process)
    before = _targets()
    dispatcher = engines._init_connection_args
    thresholds = gc.get_threshold()
    installed = []
    try:
        for stage in spec.STAGES:
            installed += guard.install(_values('tuned'), stage=stage)
        changed = [path for path, obj in before
                   if targets.held(path) is not obj]
    finally:
        guard.uninstall()
    tuned = registry.tuned(in_process)
    assert 'task_poll_interval' not in tuned  # tuned as stock
    expected = _needed([shim.name for stage in spec.STAGES
                        for shim in registry.SHIMS
                        if shim.stage == stage and shim.name in tuned])
    assert installed == expected
    assert 'heat.engine.template.parse' in changed
    assert ('heat.db.api.stack_update' in changed) is in_process
    assert guard.installed() == []
    assert [(p, targets.held(p)) for p, _obj in before] == before
    assert engines._init_connection_args is dispatcher
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0


def test_patches_record_the_paths_they_replace_until_undone():
    from heat.engine import stk_defn

    from tripleo_ephemeral.engine_tuning import patching

    patches = patching.Patches('test')
    stock = (stk_defn.add_resource,
             stk_defn.StackDefinition.resource_definition)
    try:
        patches.replace(stk_defn, 'add_resource', None)
        patches.replace(stk_defn.StackDefinition, 'resource_definition', None)
        assert patches.replaced == (
            'heat.engine.stk_defn.add_resource',
            'heat.engine.stk_defn.StackDefinition.resource_definition')
        for path in patches.replaced:
            assert targets.path_of(*targets.owner_and_name(path)) == path
    finally:
        patches.undo()
    assert patches.replaced == ()
    assert (stk_defn.add_resource,
            stk_defn.StackDefinition.resource_definition) == stock


def _covered(path, shim):
    """Whether ``shim`` may replace ``path``: one of its targets (for a
    dialect's function, the oslo.db dispatcher that calls it), or one of
    a tuning it wraps, or that tuning's own code."""
    for owner in (shim,) + tuple(registry.shim(n) for n in shim.wraps):
        if path in {t.path.partition('[')[0] for t in owner.targets}:
            return True
        if owner is not shim and path.startswith(
                owner.install.__module__ + '.'):
            return True
    return False


def test_a_shim_replaces_only_its_declared_fingerprinted_targets():
    """Each shim installed through the guard (its targets fingerprinted
    first), after the tunings it wraps: every attribute its Patches
    replaced is one of its targets, or a target or the own code of a
    tuning it wraps, installed before it. A shim that needs no targets
    replaces nothing."""
    order = [shim.name for shim in registry.SHIMS]
    stray = {}
    for shim in registry.SHIMS:
        assert all(order.index(name) < order.index(shim.name)
                   for name in shim.wraps), shim.name
        try:
            for name in shim.wraps + (shim.name,):
                assert guard.install_shim(name) is not None or (
                    registry.shim(name).needed(sys.version_info)), name
            replaced = guard.replaced().get(shim.name)
        finally:
            guard.uninstall()
        if replaced is None:  # a fix this Python does not need
            continue
        if shim.untargeted:
            assert replaced == (), shim.name
        bad = [path for path in replaced if not _covered(path, shim)]
        if bad:
            stray[shim.name] = bad
    assert not stray, (
        'Declare these as the shims\' targets (with their fingerprints), '
        'or the tunings they wrap: %s' % stray)
    assert guard.installed() == []


def test_a_changed_target_leaves_its_shim_off_with_one_warning(
        monkeypatch, caplog):
    from heat.engine import template

    def parse(functions, stack, snippet, path='', template=None):
        return 'another Heat'

    monkeypatch.setattr(template, 'parse', parse)
    with caplog.at_level(logging.WARNING):
        assert guard.install_shim('fast_template_parse') is None
        assert guard.install_shim('fast_template_parse') is None
    assert template.parse is parse  # Heat's own (here: the other Heat's)
    assert guard.installed() == []
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and lines[0] == lines[1]
    assert 'Engine tuning fast_template_parse is off' in lines[0]
    assert 'heat.engine.template.parse differs' in lines[0]
    assert 'checked on openstack-heat 26.0.2, openstack-heat 27.0.1' in (
        lines[0])
    assert 'installed: openstack-heat ' in lines[0]
    assert '\n' not in lines[0]


def test_a_wrapped_target_differs_too(monkeypatch):
    """A wrapper put in a target's place (which calls Heat's function) is
    not what the shim was checked on either."""
    import functools
    from heat.engine import template

    stock = template.parse

    @functools.wraps(stock)
    def parse(*args, **kwargs):
        return stock(*args, **kwargs)

    shim = registry.shim('fast_template_parse')
    assert guard.mismatch(shim) is None
    monkeypatch.setattr(template, 'parse', parse)
    assert 'heat.engine.template.parse differs' in guard.mismatch(shim)


def test_a_missing_target_leaves_its_shim_off(monkeypatch, caplog):
    gone = spec.Shim('gone', lambda patches: None, always_on=True,
                     checked_on=spec.HEAT, targets=(spec.target(
                         'heat.engine.template.no_such_parse', '0' * 16),))
    monkeypatch.setattr(registry, 'SHIMS', registry.SHIMS + (gone,))
    try:
        with caplog.at_level(logging.WARNING):
            assert 'gone' not in guard.install(_values('stock'),
                                               stage='engine')
    finally:
        guard.uninstall()
    warned = [r.getMessage() for r in caplog.records if 'gone' in
              r.getMessage()]
    assert len(warned) == 1
    assert 'no attribute no_such_parse' in warned[0]


def test_a_shim_that_fails_to_install_is_undone(monkeypatch, caplog):
    from heat.engine import stk_defn

    stock = stk_defn.StackDefinition.resource_definition

    def half_done(patches):
        patches.replace(stk_defn.StackDefinition, 'resource_definition',
                        None)
        raise AttributeError('moved')

    monkeypatch.setattr(registry, 'SHIMS', tuple(
        dataclasses.replace(shim, install=half_done)
        if shim.name == 'lazy_resource_definitions' else shim
        for shim in registry.SHIMS))
    with caplog.at_level(logging.WARNING):
        assert guard.install_shim('lazy_resource_definitions') is None
    assert stk_defn.StackDefinition.resource_definition is stock
    assert 'failed to install (AttributeError: moved)' in caplog.text


def _function(text):
    """The function ``f`` defined by ``text``, with its source where
    fingerprint (and inspect) look for it."""
    filename = '<fingerprint test %d>' % len(linecache.cache)
    linecache.cache[filename] = (len(text), None, text.splitlines(True),
                                 filename)
    namespace = {}
    exec(compile(text, filename, 'exec'), namespace)
    return namespace['f']


def test_fingerprints_ignore_comments_docstrings_layout_and_annotations():
    plain = fingerprint._dumped(_function(
        'def f(a, b=1):\n'
        '    (c, d) = a\n'
        '    return [a + b, {"k": a}]\n'))
    assert plain == fingerprint._dumped(_function(
        'def f(a: int,\n'
        '      b: int = 1) -> list:\n'
        '    """A docstring."""\n'
        '    # a comment\n'
        '    c, d = a\n'
        "    return [a + b,   # more\n"
        "            {'k': a}\n"
        '            ]\n'))
    assert plain != fingerprint._dumped(_function(
        'def f(a, b=1):\n'
        '    (c, d) = a\n'
        '    return [a - b, {"k": a}]\n'))


def test_a_wrapper_is_fingerprinted_as_itself():
    """A decorator's wrapper (functools.wraps) is its own code, then the
    function's: not the wrapped function's source twice, as
    inspect.getsource would give it."""
    fn = _function(
        'import functools\n'
        'def deco(g):\n'
        '    @functools.wraps(g)\n'
        '    def wrapper(*a):\n'
        '        return g(*a)\n'
        '    return wrapper\n'
        '@deco\n'
        'def f(x):\n'
        '    return x\n')
    dumped = [fingerprint._dumped(f) for f in targets.wrapped_chain(fn)]
    assert "name='wrapper'" in dumped[0] and "name='f'" in dumped[1]


# -- the launcher's values ----------------------------------------------------

TUNED = {
    'atomic_sync_points': 'true', 'checkin_yield': 'false',
    'fast_create': 'true', 'fast_create_final_outputs': 'true',
    'fast_create_no_yield': 'true',
    'fast_create_lean_rows': 'true', 'fast_create_lean_stacks': 'true',
    'fast_create_lean_resource_data': 'true',
    'fast_create_child_environment': 'true',
    'fast_create_release': 'true',
    'fast_create_shared_defaults': 'true',
    'fast_create_transaction_slice': 0.2, 'fast_create_yaql_cache': 'true',
    'fast_snippet_walks': 'true', 'fast_template_parse': 'true',
    'fast_registry_globs': 'true',
    'fast_yaql_input': 'true',
    'gc_freeze': 'true',
    'in_process_bus_wakeup': 'true',
    'gc_thresholds': '10000,20,20', 'lazy_resource_definitions': 'true',
    'lean_database_writes': 'true',
    'leaf_trigger_delay': 0.05, 'narrow_referenced_attrs': 'true',
    'nested_stack_wait': 10.0, 'prompt_executor_stop': 'true',
    'resource_chain_concurrency': 16,
    'rpc_idle_poll_max': 0.5, 'skip_unconsumed_notifications': 'true',
    'sqlite_begin_immediate': 'true', 'sqlite_busy_timeout_ms': 600000,
    'sqlite_journal_mode': 'WAL', 'sqlite_pool_size': 32,
    'sqlite_stack_indexes': 'true',
    'sqlite_synchronous': 'NORMAL', 'task_poll_interval': 1.0,
    'template_validate_unhashed': 'true',
}


def test_tuned_values():
    """What the benchmark chose (doc/source/performance.rst)."""
    assert tuning.Tuning().runner_options() == TUNED
    assert tuning.Tuning().executor_thread_pool_size == 256


def test_stock_values():
    """TripleO's native launcher: the benchmark's baseline."""
    stock = tuning.Tuning.stock()
    assert stock.executor_thread_pool_size == 64
    assert stock.runner_options() == dict(
        TUNED, atomic_sync_points='false', checkin_yield='true',
        fast_create='false', fast_create_final_outputs='false',
        fast_create_no_yield='false',
        fast_create_lean_rows='false', fast_create_lean_stacks='false',
        fast_create_lean_resource_data='false',
        fast_create_child_environment='false',
        fast_create_release='false',
        fast_create_shared_defaults='false',
        fast_create_transaction_slice=0.0,
        fast_create_yaql_cache='false',
        fast_snippet_walks='false', fast_template_parse='false',
        fast_registry_globs='false',
        fast_yaql_input='false',
        gc_freeze='false',
        gc_thresholds='', in_process_bus_wakeup='false',
        lazy_resource_definitions='false', lean_database_writes='false',
        leaf_trigger_delay=1.0,
        narrow_referenced_attrs='false', nested_stack_wait=0.0,
        prompt_executor_stop='false', resource_chain_concurrency=0,
        rpc_idle_poll_max=5.0,
        skip_unconsumed_notifications='false', sqlite_journal_mode='DELETE',
        sqlite_stack_indexes='false',
        sqlite_pool_size=0, sqlite_synchronous='FULL',
        template_validate_unhashed='false')
    overrides = stock.as_overrides()
    assert overrides[0] == 'DEFAULT.executor_thread_pool_size=64'
    assert 'ephemeral_heat.sqlite_journal_mode=DELETE' in overrides
    assert 'ephemeral_heat.sqlite_synchronous=FULL' in overrides


def test_unknown_tuning_is_refused():
    with pytest.raises(TypeError, match='unknown tuning'):
        tuning.Tuning(no_such_tuning=1)


#: Code whose text ast.unparse writes differently from one Python to the
#: next, and definitions 3.12 gave new fields.
_SAMPLE = '''\
@decorate(1)
def f(a, /, b: int = 2, *args, c, d=(1, 2), **kw) -> list:
    """Docstring."""
    (x, y) = a
    for (i, j) in kw.items():
        x[1:2, ::3] = -y ** 2, (-y) ** 2, not (i and j)
    if (n := len(args)) > 1 < 3:
        return f'{a!r:>{b}} {"q"}' + 'p' 'q' + b'r'.decode()
    match a:
        case [1, *rest] if rest:
            pass
        case {'k': v, **others}:
            del others
    try:
        with open(a) as g, open(b):
            yield from (lambda *z, q=1: z)(g)
    except (OSError, ValueError) as exc:
        raise RuntimeError() from exc
    else:
        global G
        G = {k: v for k, v in kw.items() if k}, {1_000, 0x10, 1e3, 1j}, ...
    finally:
        return [*args, *(c,)], x if y else (y if x else None)
'''


#: The checkout (or install) this code is in.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    fingerprint.__file__))))


def _tools_module(name):
    """``tools/<name>.py`` of the checkout (skips the test without one)."""
    import importlib.util

    path = os.path.join(_ROOT, 'tools', name + '.py')
    if not os.path.exists(path):
        pytest.skip('no checkout: %s is not here' % path)
    spec_ = importlib.util.spec_from_file_location('tools_' + name, path)
    module = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(module)
    return module


def _sample_fingerprint(python):
    code = ('import sys, linecache; sys.path.insert(0, %r)\n'
            'from tripleo_ephemeral.engine_tuning import fingerprint\n'
            'text = sys.stdin.read()\n'
            "linecache.cache['<s>'] = (len(text), None, "
            "text.splitlines(True), '<s>')\n"
            'ns = {"decorate": lambda n: lambda fn: fn}\n'
            "exec(compile(text, '<s>', 'exec'), ns)\n"
            "print(fingerprint._digest(fingerprint._dumped(ns['f'])))\n" %
            _ROOT)
    return subprocess.run([python, '-c', code], input=_SAMPLE, text=True,
                          capture_output=True, check=True).stdout.strip()


@pytest.mark.starts_process
def test_the_same_code_has_the_same_fingerprint_on_every_python():
    """The fingerprint of code that this Python and 3.10 to 3.13 unparse
    differently is the same on each admitted Python this machine has
    (tools/pythons.py finds them; python3.X or pyenv's)."""
    pythons = _tools_module('pythons').found()
    fingerprints = {'%d.%d.%d' % full: _sample_fingerprint(path)
                    for path, full in pythons.values()}
    fingerprints['this'] = _sample_fingerprint(sys.executable)
    assert len(set(fingerprints.values())) == 1, fingerprints
    if len(pythons) < 2:
        pytest.skip('only one admitted Python here: %s' % fingerprints)
