"""The lazy resource definitions give what stock Heat gives, one at a time."""

import copy

import pytest

from heat.common import exception
from heat.common import identifier
from heat.engine import environment
from heat.engine import resources
from heat.engine import stk_defn
from heat.engine import template

import tripleo_ephemeral
from tripleo_ephemeral.engine_tuning import definitions
from tripleo_ephemeral.engine_tuning import guard
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.tests import sync_point_load

resources.initialise()

TEMPLATE = {
    'heat_template_version': 'rocky',
    'parameters': {'n': {'type': 'number', 'default': 2},
                   'flag': {'type': 'boolean', 'default': False}},
    'conditions': {'on': {'get_param': 'flag'}, 'off': {'not': 'on'}},
    'resources': {
        'a': {'type': 'OS::Heat::Value',
              'properties': {'value': {'get_param': 'n'}}},
        'b': {'type': 'OS::Heat::Value', 'depends_on': ['a'],
              'properties': {'value': {'get_attr': ['a', 'value']}}},
        'c': {'type': 'OS::Heat::Value', 'condition': 'on',
              'properties': {'value': 1}},
        'd': {'type': 'OS::Heat::Value', 'condition': 'off',
              'properties': {'value': {
                  'if': ['on', 1, {'get_resource': 'a'}]}}},
        'e': {'type': 'OS::Heat::Value', 'metadata': {'m': [1, 'x']},
              'deletion_policy': 'Retain',
              'properties': {'value': {'list_join': [
                  ',', [{'get_param': 'OS::stack_name'}, 'z']]}}},
    },
}
ENABLED = ('a', 'b', 'd', 'e')


def _definition(tmpl=TEMPLATE):
    t = template.Template(copy.deepcopy(tmpl),
                          env=environment.Environment({}))
    sid = identifier.HeatIdentifier('tenant', 'stack', 'id')
    return stk_defn.StackDefinition(None, t, sid, None)


@pytest.fixture
def lazy(install_shim):
    """Install the shim for one test and take it away after."""
    install_shim('lazy_resource_definitions')


def test_each_definition_equals_stock():
    stock = _definition()
    eager = {name: stock.resource_definition(name) for name in ENABLED}
    lazy_defns, keep = {}, []  # functions hold weak refs to the stack
    cls = stk_defn.StackDefinition
    stock_resource_definition = cls.resource_definition
    assert guard.install_shim('lazy_resource_definitions') is not None
    try:
        for name in reversed(ENABLED):  # any order, each on its own
            defn = _definition()
            keep.append(defn)
            lazy_defns[name] = defn.resource_definition(name)
            assert defn._resource_defns is None  # nothing else parsed
    finally:
        guard.uninstall(['lazy_resource_definitions'])
    assert cls.resource_definition is stock_resource_definition
    for name in ENABLED:
        assert lazy_defns[name] == eager[name]
        assert repr(lazy_defns[name]) == repr(eager[name])
        assert lazy_defns[name].render_hot() == eager[name].render_hot()


def test_disabled_or_absent_is_a_key_error(lazy):
    defn = _definition()
    for name in ('c', 'nope'):
        with pytest.raises(KeyError):
            defn.resource_definition(name)


def test_parses_only_what_is_asked(lazy, monkeypatch):
    parsed = []
    hot = type(_definition().t)
    stock_args = hot._rsrc_defn_args

    def counting(self, stack, name, data):
        parsed.append(name)
        return stock_args(self, stack, name, data)

    monkeypatch.setattr(hot, '_rsrc_defn_args', counting)
    defn = _definition()
    first = defn.resource_definition('b')
    assert defn.resource_definition('b') is first
    assert parsed == ['b']
    # a full load later keeps the definition already handed out
    assert defn.enabled_rsrc_names() == set(ENABLED)
    assert defn.resource_definition('b') is first


def test_a_bad_resource_fails_only_when_asked_for(lazy):
    tmpl = copy.deepcopy(TEMPLATE)
    tmpl['resources']['bad'] = {'type': 'OS::Heat::Value', 'nonsense': 1}
    defn = _definition(tmpl)
    assert defn.resource_definition('a').resource_type == 'OS::Heat::Value'
    with pytest.raises(exception.StackValidationFailed):
        defn.resource_definition('bad')


def test_added_and_removed_resources_are_seen(lazy):
    defn = _definition()
    old = defn.resource_definition('a')
    stk_defn.remove_resource(defn, 'a')
    with pytest.raises(KeyError):
        defn.resource_definition('a')
    stk_defn.add_resource(defn, old)
    assert defn.resource_definition('a') == old


# -- the fast parser ---------------------------------------------------------

def _same(a, b, where='$'):
    """Parsed snippets are equal: same types, same function arguments."""
    assert type(a) is type(b), where
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            _same(a[k], b[k], '%s.%s' % (where, k))
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, '%s[%d]' % (where, i))
    elif hasattr(a, 'fn_name'):
        assert a.fn_name == b.fn_name, where
        _same(getattr(a, 'args', None), getattr(b, 'args', None), where)
        if hasattr(a, 'parsed'):  # macros
            _same(a.parsed, b.parsed, where + '(' + a.fn_name + ')')
    else:
        assert a == b, where


def _both(snippet, tmpl=TEMPLATE):
    from heat.engine import template as heat_template
    defn = _definition(tmpl)
    stock = heat_template.parse(defn.t.functions, defn, snippet, 'x',
                                defn.t)
    fast = definitions.fast_parse(defn.t.functions, defn, snippet, 'x',
                                  defn.t)
    return defn, stock, fast


class Text(str):
    pass


@pytest.mark.parametrize('snippet', [
    TEMPLATE['resources'],
    {'a': [1, 2.5, None, True, {'get_param': 'n'}], 'b': ('t', 'u')},
    {'list_join': [',', [{'get_param': 'OS::stack_name'}, Text('xy')]]},
    {'if': ['on', {'get_resource': 'a'}, {'get_attr': ['a', 'value']}]},
    {'yaql': {'expression': '$.data.x', 'data': {'x': [1, 2]}}},
    {'get_param': 'n', 'other': 1},  # two keys: a plain map
    Text('a string subclass stays a string'),
])
def test_fast_parse_equals_stock(snippet):
    defn, stock, fast = _both(snippet)
    _same(stock, fast)


def test_fast_parse_gives_the_same_error_path():
    from heat.engine import template as heat_template
    bad = {'a': [{'ok': 1}, {'list_join': 'not a list'}]}
    defn = _definition()
    errors = []
    for parse in (heat_template.parse, definitions.fast_parse):
        with pytest.raises(exception.StackValidationFailed) as err:
            parse(defn.t.functions, defn, bad, 'x', defn.t)
        errors.append(str(err.value))
    assert errors[0] == errors[1]
    assert 'x.a[1].list_join' in errors[0]


def _template_files(tht_dir):
    """The bundled templates and tripleo-heat-templates 18.0.0's."""
    import glob
    import os

    here = os.path.dirname(tripleo_ephemeral.__file__)
    for root in (os.path.join(here, 'templates'), tht_dir):
        for path in sorted(glob.glob(os.path.join(root, '**', '*.yaml'),
                                     recursive=True)):
            if not path.endswith('.j2.yaml'):
                yield path


def _real_templates(tht_dir):
    """(path, parsed HOT template) of every real template found."""
    from heat.common import template_format
    for path in _template_files(tht_dir):
        with open(path) as f:
            try:
                doc = template_format.parse(f.read())
            except ValueError:
                continue  # not a template (environments, roles)
        if isinstance(doc.get('heat_template_version'), str):
            yield path, doc


def test_fast_parse_on_real_templates(tht_dir):
    from heat.engine import template as heat_template
    checked = 0
    for path, doc in _real_templates(tht_dir):
        tmpl = {k: v for k, v in doc.items() if k != 'resources'}
        for section in ('resources', 'outputs'):
            results = []
            for parse in (heat_template.parse, definitions.fast_parse):
                defn = _definition(tmpl)
                try:
                    results.append(parse(defn.t.functions, defn,
                                         doc.get(section) or {}, section,
                                         defn.t))
                except Exception as exc:  # the same error from both
                    results.append('%s: %s' % (type(exc).__name__, exc))
                results.append(defn)  # keep it alive: weak references
            _same(results[0], results[2], path)
        checked += 1
    assert checked >= 250  # the bundled templates and THT's (286)


YAQL = ("let(svcs => coalesce($.data.services, [])) -> "
        "dict($.data.keys.select(let(k => $) -> "
        "[$k, $svcs.where($ != null).select($.get($k))"
        ".where($ != null).flatten()]))")


def _parse_from_threads(threads=8, rounds=150):
    """Parse one yaql expression from real threads; return the errors."""
    import threading

    from heat.engine.hot import functions
    fn = functions.Yaql.__new__(functions.Yaql)
    fn.fn_name = 'yaql'
    errors = []

    def work():
        for _ in range(rounds):
            try:
                fn._parse(YAQL)
            except ValueError as exc:
                errors.append(exc)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return errors


def test_yaql_parse_is_thread_safe(install_shim):
    """Stock Heat shares one ply parser between engine threads."""
    from heat.engine.hot import functions
    first = install_shim('thread_safe_yaql')
    assert install_shim('thread_safe_yaql') is first  # installed once
    assert functions.Yaql._parse.thread_safe
    assert not hasattr(functions.Yaql._parse.__wrapped__, 'thread_safe')
    assert _parse_from_threads() == []


class _Cycle:
    """Garbage with a finalizer: the collector runs Python code mid-parse,
    where another thread can take over."""

    def __del__(self):
        pass


def _literal_eval_from_threads(threads=8, rounds=1500):
    """Heat's sync point keys, unpacked from real threads; the errors."""
    import sys
    import threading

    from heat.engine import sync_point
    errors = []

    def work():
        for n in range(rounds):
            junk = [_Cycle() for _ in range(3)]
            for item in junk:
                item.me = item
            try:
                sync_point._str_unpack_tuple(
                    sync_point.str_pack_tuple((str(n), True)))
            except Exception as exc:
                errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        workers = [threading.Thread(target=work) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        sys.setswitchinterval(interval)
    return errors


def test_ast_parse_is_thread_safe(install_shim):
    """Python 3.11's AST conversion shares its depth counter between
    threads ("AST constructor recursion depth mismatch")."""
    import ast
    install_shim('thread_safe_ast_parse')
    install_shim('thread_safe_ast_parse')  # a second is a no-op
    assert ast.parse.thread_safe
    assert ast.parse.__wrapped__.__module__ == 'ast'
    assert _literal_eval_from_threads() == []


def test_sqlite_pool_keeps_connections_and_no_transaction_marker(
        install_shim, tmp_path):
    from oslo_db.sqlalchemy import engines
    from sqlalchemy import pool
    install_shim('sqlite_pool', sqlite_pool_size=4)
    install_shim('sqlite_pool', sqlite_pool_size=4)  # a second is a no-op
    engine = engines.create_engine('sqlite:///%s' % (tmp_path / 'h.sqlite'),
                                   max_retries=0)
    assert isinstance(engine.pool, pool.QueuePool)
    assert not engine.pool._pre_ping
    with engine.connect() as conn:
        first = conn.connection.dbapi_connection
        conn.info['in_transaction'] = True    # what _on_begin leaves
    with engine.connect() as conn:
        assert conn.connection.dbapi_connection is first   # reused
        assert 'in_transaction' not in conn.info
    # MySQL and the like keep the pool oslo.db gives them.
    args = {'connect_args': {}}
    engines._init_connection_args(
        engines.utils.make_url('mysql+pymysql://u@127.0.0.1/heat'), args, {})
    assert args.get('poolclass') is not pool.QueuePool
    engine.dispose()


def test_sqlite_pool_size_0_keeps_oslo_dbs_null_pool(tmp_path):
    from oslo_db.sqlalchemy import engines
    from sqlalchemy import pool
    opts = {'sqlite_pool_size': 0}
    assert not registry.shim('sqlite_pool').enabled(opts)
    engine = engines.create_engine('sqlite:///%s' % (tmp_path / 'h.sqlite'),
                                   max_retries=0)
    assert isinstance(engine.pool, pool.NullPool)
    engine.dispose()


# -- the database facade and sync points ------------------------------------

def test_atomic_sync_points_never_race(heat_db, install_shim):
    """Read and write in one BEGIN IMMEDIATE transaction: no write is
    refused, so nobody sleeps before a retry, and nothing is lost."""
    install_shim('atomic_sync_points')
    install_shim('atomic_sync_points')  # a second is a no-op
    merged, writes, refused, predecessors = (
        sync_point_load.sync_from_threads())
    assert set(merged) == predecessors
    assert refused == 0 and writes == len(predecessors)


def test_atomic_sync_point_falls_back_when_raced(heat_db, monkeypatch,
                                                 install_shim):
    """A database that does not lock on BEGIN (MySQL) can still race:
    then the transaction is rolled back and Heat's own retry runs."""
    from heat.common import context
    from heat.engine import sync_point
    stock_write = sync_point.update_input_data
    refused = []

    def write_once_refused(*args, **kwargs):
        if not refused:
            refused.append(args)
            return 0
        return stock_write(*args, **kwargs)

    monkeypatch.setattr(sync_point, 'update_input_data', write_once_refused)
    install_shim('atomic_sync_points', check=False)  # over the fake
    cnxt = context.get_admin_context()
    sync_point.create(cnxt, 'stack-id', 'trav', True, 'stack-id')
    data, _failures, _skip = sync_point.update_sync_point(
        cnxt, 'stack-id', 'trav', True, {('a', True)}, {('a', True): 1})
    assert data == {('a', True): 1} and len(refused) == 1
    stored = sync_point.get(cnxt, 'stack-id', 'trav', True)
    assert stored.atomic_key == 1


def test_configure_database_drops_the_checkin_sleep(monkeypatch):
    """oslo.db's sleep(0) after each transaction is for eventlet."""
    import types

    from heat.db import api as db_api
    from oslo_db.sqlalchemy import enginefacade
    from oslo_db.sqlalchemy import engines
    import sqlalchemy

    for checkin_yield in (False, True):
        factory = enginefacade._TransactionFactory()
        factory.configure(connection='sqlite://')
        reset = db_api.context_manager.patch_factory(factory)
        try:
            guard.install(types.SimpleNamespace(checkin_yield=checkin_yield),
                          stage='database')
            engine = factory.get_writer_engine()
            assert sqlalchemy.event.contains(
                engine, 'checkin', engines._thread_yield) is checkin_yield
            engine.dispose()
        finally:
            guard.uninstall(['checkin_yield'])
            reset()


# -- referenced attributes ----------------------------------------------------

READERS = {
    'heat_template_version': 'rocky',
    'parameters': {'target': {'type': 'string', 'default': 'a'},
                   'flag': {'type': 'boolean', 'default': False}},
    'conditions': {'on': {'get_param': 'flag'}},
    'resources': {
        'a': {'type': 'OS::Heat::Value', 'properties': {'value': 1}},
        'b': {'type': 'OS::Heat::Value',
              'properties': {'value': {'get_attr': ['a', 'value']}}},
        'c': {'type': 'OS::Heat::Value',  # a computed resource name
              'properties': {'value': {'get_attr': [
                  {'get_param': 'target'}, 'show']}}},
        'd': {'type': 'OS::Heat::Value',  # every attribute
              'properties': {'value': {'get_attr': ['b']}}},
        'e': {'type': 'OS::Heat::Value', 'condition': 'on',  # disabled
              'properties': {'value': {'get_attr': ['d', 'value']}}},
        'f': {'type': 'OS::Heat::Value', 'metadata': {'m': {'if': [
            'on', {'get_attr': ['c', 'value']}, {'get_resource': 'c'}]}},
              'properties': {'value': {'list_join': [
                  ',', [{'get_attr': ['a', 'value', 0]}]]}}},
    },
    'outputs': {'o': {'value': {'get_attr': ['f', 'value']}}},
}


def _referenced(referenced_attrs, tmpl, name, **kwargs):
    """referenced_attrs of resource ``name``, on a fresh definition."""
    import types
    defn = _definition(tmpl)
    me = types.SimpleNamespace(name=name, SHOW='show',
                               attributes=['value', 'show'])
    try:
        return sorted(map(str, referenced_attrs(me, defn, **kwargs)))
    except Exception as exc:  # the same error from both
        return '%s: %s' % (type(exc).__name__, exc)


@pytest.fixture
def narrow(install_shim):
    from heat.engine import resource
    stock = resource.Resource.referenced_attrs
    install_shim('narrow_referenced_attrs')
    install_shim('narrow_referenced_attrs')  # a second is a no-op
    return stock, resource.Resource.referenced_attrs


@pytest.mark.parametrize('kwargs', [{}, {'in_outputs': False},
                                    {'load_all': True},
                                    {'in_resources': False}])
def test_narrow_referenced_attrs_equal_stock(narrow, lazy, kwargs):
    stock, narrowed = narrow
    for name in READERS['resources']:
        expect = _referenced(stock, READERS, name, **kwargs)
        assert _referenced(narrowed, READERS, name, **kwargs) == expect, name
    assert _referenced(narrowed, READERS, 'a') == ["('value', 0)", 'show',
                                                   'value']
    assert _referenced(narrowed, READERS, 'b') == ['value']


def test_narrow_referenced_attrs_parse_only_the_readers(narrow, lazy):
    _stock, narrowed = narrow
    defn = _definition(READERS)
    import types
    me = types.SimpleNamespace(name='b', SHOW='show', attributes=['value'])
    narrowed(me, defn, in_outputs=False)
    # d reads b, c names a computed resource: only they were parsed.
    assert sorted(defn.__dict__.get('_lazy_defns', {})) == ['c', 'd']


def test_narrow_referenced_attrs_on_real_templates(narrow, lazy, tht_dir):
    stock, narrowed = narrow
    checked = 0
    for path, doc in _real_templates(tht_dir):
        for name in doc.get('resources') or {}:
            expect = _referenced(stock, doc, name, in_outputs=False)
            if isinstance(expect, str):
                # Stock Heat parses every resource: one needing a parameter
                # a real stack would pass fails it; the narrow one may not
                # parse that resource at all.
                continue
            assert _referenced(narrowed, doc, name,
                               in_outputs=False) == expect, (path, name)
            checked += 1
    assert checked >= 450  # the bundled templates and THT's (509)
