"""Tuning shims the ``tripleo-heat-all`` runner applies to the Heat engine.

Each one is switched by an option of the ``[ephemeral_heat]`` group of
heat.conf, so a user can turn it off, and each was kept because the
benchmark (``tools/bench``) showed it winning; ``doc/source/performance.rst``
says by how much.

* SQLite: ``BEGIN IMMEDIATE``, WAL and a chosen ``synchronous``, so many
  engine threads can share one file; connections pooled, not opened per
  transaction, and no ``sleep(0)`` (for eventlet) after each of them.
* Convergence sync points read and written in one transaction, so their
  optimistic updates never collide and sleep before a retry.
* The convergence engine's hard-coded 1 s sleeps: between leaf triggers
  and between progress checks.
* The concurrency of ``OS::Heat::ResourceChain``: Heat creates as many
  members of a concurrent chain at once as there are running engines, so
  one engine creates tripleo-heat-templates' ~100-service chains one
  service at a time (more than a second each).
* Lazy resource definitions: every resource check loads its stack afresh
  and stock Heat then parses the definitions of *all* the stack's resources
  to use one or two; for the ~100-resource stacks of tripleo-heat-templates
  that parsing was the largest part of the engine's CPU. Here a definition
  is parsed when it is first asked for, by the same Heat code.
* A faster template parser: the same walk as Heat's ``template.parse``
  (same results, same error paths), with exact-type checks for the plain
  dicts, lists and strings a template is made of before the abstract
  base class checks, which took a quarter of its time.
* The attributes other resources read of a resource, asked only of the
  resources whose snippet names it, not of every resource of the stack.
* Work stock Heat does for nothing: a parent polling its nested stack
  every second (woken by the nested stack's state change instead, when
  every engine is in this process), notifications and event dispatches
  that nobody consumes.
* A stopping engine waiting up to 5 s for each of its idle message bus
  listeners to look again (the pod's engines, over RabbitMQ).
* The garbage collector: Heat's own objects frozen once it has started,
  and collections less often.
"""

import collections
import collections.abc
import contextlib
import functools
import logging
import sqlite3
import threading
import time
import types

# Imported only by the runner (after it chose oslo.service's threading
# backend) and the tests: Heat is there.
from heat.common import exception as heat_exception
from heat.engine import function as heat_function

LOG = logging.getLogger(__name__)

#: Waits for SQLite's write lock longer than this are logged.
SLOW_LOCK_WAIT = 5.0


def install(opts):
    """Apply every shim ``opts`` (the ``[ephemeral_heat]`` group) enables."""
    install_thread_safe_yaql()
    install_thread_safe_ast_parse()
    install_sqlite_tuning(opts)
    install_sqlite_pool(opts.sqlite_pool_size)
    if opts.atomic_sync_points:
        install_atomic_sync_points()
    install_leaf_trigger_delay(opts.leaf_trigger_delay)
    install_task_poll_interval(opts.task_poll_interval)
    install_resource_chain_concurrency(opts.resource_chain_concurrency)
    if opts.lazy_resource_definitions:
        install_lazy_resource_definitions()
    if opts.narrow_referenced_attrs:
        install_narrow_referenced_attrs()
    if opts.fast_template_parse:
        install_fast_template_parse()
    in_process = _engines_in_process()
    if opts.nested_stack_wait and in_process:
        install_nested_stack_wakeups(opts.nested_stack_wait)
    if opts.skip_unconsumed_notifications:
        install_skip_unconsumed_notifications()
    if not in_process:  # a message bus: the pod's RabbitMQ
        install_rpc_idle_poll_max(opts.rpc_idle_poll_max)


def tune_gc(opts):
    """Garbage collector settings, once everything Heat needs is loaded.

    A 200-member create spent a seventh of its CPU in the cyclic garbage
    collector, most of it in full collections walking Heat's and its
    libraries' own long-lived objects.
    """
    import gc

    if opts.gc_freeze:
        # No gc.collect() first: it would cost 0.1-0.2 s of the launch and
        # found nothing to free here after Heat's imports.
        gc.freeze()
    if opts.gc_thresholds:
        gc.set_threshold(*(int(t) for t in opts.gc_thresholds))


def _engines_in_process():
    """Whether every engine runs in this process (the in-memory bus)."""
    from oslo_config import cfg
    import oslo_messaging

    return oslo_messaging.TransportURL.parse(cfg.CONF).transport == 'fake'


def configure_database(opts):
    """Database settings that must be made before Heat's first query."""
    from heat.db import api as db_api

    # oslo.db sleeps 0 s after every transaction, for eventlet: with real
    # threads it only hands the interpreter to another thread, a thousand
    # times a second.
    db_api.context_manager.configure(thread_checkin=opts.checkin_yield)


def install_thread_safe_yaql():
    """Serialise Heat's yaql parsing: a fix, not a tuning, so always on.

    Heat keeps one yaql engine per process (``Yaql._parser``), and that is
    one ply lexer and parser whose state lives on the objects. Heat 27 runs
    the engine on real threads (oslo.service's threading backend), so two
    stacks validated at once corrupt each other's parse and fail with
    "Bad expression Parse error". A parse takes about a millisecond; a lock
    costs nothing measurable.
    """
    from heat.engine.hot import functions

    functions.Yaql._parse = _serialised(functions.Yaql._parse)


def install_thread_safe_ast_parse():
    """Serialise ``ast.parse``: a fix for Python before 3.12, always on.

    Python 3.11 counts the depth of an AST being converted to Python
    objects in state shared by every thread, so two threads parsing at
    once fail with "SystemError: AST constructor recursion depth mismatch".
    Heat's convergence engine parses on every sync point
    (``sync_point._str_unpack_tuple`` is ``ast.literal_eval``), from many
    threads: 3 of 16 native 200-member creates failed with it here.
    ``literal_eval`` calls ``parse`` through the module, so one lock here
    covers it and every other caller.
    """
    import ast

    ast.parse = _serialised(ast.parse)


def _serialised(fn):
    """``fn`` behind a lock of its own; ``fn`` itself if it already is."""
    if getattr(fn, 'thread_safe', False):
        return fn
    lock = threading.Lock()

    @functools.wraps(fn)
    def serialised(*args, **kwargs):
        with lock:
            return fn(*args, **kwargs)

    serialised.thread_safe = True
    return serialised


def install_sqlite_tuning(conf):
    """Make SQLite usable from many engine threads at once."""
    from sqlalchemy import engine as sa_engine
    from sqlalchemy import event

    @event.listens_for(sa_engine.Engine, 'connect')
    def _on_connect(dbapi_conn, _record):
        if not isinstance(dbapi_conn, sqlite3.Connection):
            return
        if conf.sqlite_begin_immediate:
            # Let SQLAlchemy's "begin" event issue BEGIN, not pysqlite.
            dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute('PRAGMA busy_timeout = %d' % conf.sqlite_busy_timeout_ms)
        cur.execute('PRAGMA journal_mode = %s' % conf.sqlite_journal_mode)
        cur.execute('PRAGMA synchronous = %s' % conf.sqlite_synchronous)
        cur.close()

    @event.listens_for(sa_engine.Engine, 'begin')
    def _on_begin(conn):
        # oslo.db emits a plain BEGIN unless a transaction is marked open;
        # class-level listeners run before its per-engine one.
        if (conn.dialect.name == 'sqlite' and conf.sqlite_begin_immediate
                and 'in_transaction' not in conn.info):
            started = time.monotonic()
            try:
                conn.exec_driver_sql('BEGIN IMMEDIATE')
            finally:
                waited = time.monotonic() - started
                if waited > SLOW_LOCK_WAIT:
                    LOG.warning('Waited %.1f s for the SQLite write lock',
                                waited)
            conn.info['in_transaction'] = True


def install_sqlite_pool(size):
    """Keep SQLite connections open between transactions.

    oslo.db gives SQLite file databases a NullPool: every transaction
    opens a connection and runs the PRAGMAs above, then closes it. That was
    a seventh of the engine's time holding the GIL in a 200-member create.
    Here they come from a QueuePool of ``size`` that grows as needed, with
    no ping on checkout (a file cannot go away like a server).
    """
    from oslo_db.sqlalchemy import engines
    from sqlalchemy import event
    from sqlalchemy import pool

    original = engines._init_connection_args
    if size == 0 or getattr(original, 'pooled', False):
        return

    def _init_connection_args(url, engine_args, kw):
        original(url, engine_args, kw)
        if engine_args.get('poolclass') is pool.NullPool:
            engine_args.update(poolclass=pool.QueuePool, pool_size=size,
                               max_overflow=-1, pool_pre_ping=False)
            engine_args['connect_args']['check_same_thread'] = False

    _init_connection_args.pooled = True
    engines._init_connection_args = _init_connection_args

    @event.listens_for(pool.Pool, 'checkin')
    def _on_checkin(_dbapi_conn, record):
        # A pooled connection outlives its transaction: never hand on the
        # marker that makes _on_begin skip BEGIN IMMEDIATE.
        if record is not None:
            record.info.pop('in_transaction', None)


class _SyncPointRaced(Exception):
    """A sync point changed under a transaction that should have held it."""


def install_atomic_sync_points():
    """Read and write a convergence sync point in one transaction.

    Heat reads a sync point, merges its input in Python and writes it back
    only if its ``atomic_key`` did not move; when another writer got there
    first it retries after a random wait that grows exponentially, up to
    60 s. Here the read and the write are one writer transaction that
    holds the row from the read on: on SQLite every transaction starts
    with ``BEGIN IMMEDIATE``; on a server database the read locks the row
    (``SELECT ... FOR UPDATE``), so the pod's engines queue for it instead
    of colliding and backing off. If the write still finds the key moved,
    the transaction is rolled back and Heat's own retrying code runs.
    """
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import sync_point

    if getattr(sync_point.update_sync_point, 'atomic', False):
        return
    stock_sync = sync_point.update_sync_point
    stock_write = sync_point.update_input_data
    local = threading.local()

    def update_input_data(*args, **kwargs):
        rows = stock_write(*args, **kwargs)
        if not rows and getattr(local, 'atomic', False):
            raise _SyncPointRaced()
        return rows

    def lock_row(session, entity_id, traversal_id, is_update):
        if session.get_bind().dialect.name == 'sqlite':
            return  # BEGIN IMMEDIATE holds the whole database already
        session.query(models.SyncPoint).filter_by(
            entity_id=str(entity_id), traversal_id=traversal_id,
            is_update=is_update).with_for_update().first()

    def update_sync_point(cnxt, entity_id, traversal_id, is_update, *args,
                          **kwargs):
        local.atomic = True
        try:
            with db_api.context_manager.writer.using(cnxt) as session:
                lock_row(session, entity_id, traversal_id, is_update)
                return stock_sync(cnxt, entity_id, traversal_id, is_update,
                                  *args, **kwargs)
        except _SyncPointRaced:
            pass
        finally:
            local.atomic = False
        return stock_sync(cnxt, entity_id, traversal_id, is_update, *args,
                          **kwargs)

    update_sync_point.atomic = True
    sync_point.update_input_data = update_input_data
    sync_point.update_sync_point = update_sync_point


def install_leaf_trigger_delay(delay):
    """Replace the hard-coded 1 s sleep between convergence leaf triggers."""
    from heat.engine import stack as heat_stack

    if delay == 1.0:
        return
    real_time = time

    def sleep(seconds):
        real_time.sleep(delay if seconds == 1 else seconds)

    shim = types.ModuleType('time')
    shim.__dict__.update(real_time.__dict__)
    shim.sleep = sleep
    heat_stack.time = shim


def install_task_poll_interval(interval):
    """Replace the 1 s TaskRunner sleep between progress checks."""
    from heat.engine import scheduler

    if interval == 1.0:
        return
    stock_sleep = scheduler.TaskRunner._sleep

    def _sleep(self, wait_time):
        stock_sleep(self, interval if wait_time == 1 else wait_time)

    scheduler.TaskRunner._sleep = _sleep


def install_resource_chain_concurrency(limit):
    """Create up to ``limit`` members of a concurrent ResourceChain at once.

    0 keeps Heat's rule: as many as there are running engines.
    """
    from heat.engine.resources.openstack.heat import resource_chain

    if not limit:
        return
    stock = resource_chain.service_objects

    class Service:
        @staticmethod
        def active_service_count(context):
            return max(limit, stock.Service.active_service_count(context))

    resource_chain.service_objects = types.SimpleNamespace(Service=Service)


class _OneResource(collections.abc.Mapping):
    """A read-only view of a template dict with a single resource in it.

    Heat's own ``resource_definitions`` then parses just that resource:
    same keys check, same condition handling, same errors.
    """

    def __init__(self, tmpl_dict, section, name):
        self._t = tmpl_dict
        self._section = section
        self._name = name

    def __getitem__(self, key):
        value = self._t[key]
        if key == self._section:
            return {self._name: value[self._name]}
        return value

    def __iter__(self):
        return iter(self._t)

    def __len__(self):
        return len(self._t)


def _parse_one(template, stk_defn, name):
    """The definition of ``name`` alone, by Heat's ``resource_definitions``.

    It runs on a shallow copy of the template whose resources section holds
    only ``name`` (the shared template is never changed, so other threads
    are not affected). Raises KeyError, as stock Heat does, when the
    resource is absent or its condition disables it.
    """
    template.conditions(stk_defn)  # evaluated once, cached on the template
    # A shallow copy: Template.__new__ picks a class by version, so build
    # it by hand. It shares the conditions cache.
    view = object.__new__(type(template))
    view.__dict__.update(template.__dict__)
    view.t = _OneResource(template.t, template.RESOURCES, name)
    return view.resource_definitions(stk_defn)[name]


def install_lazy_resource_definitions():
    """Parse a stack's resource definitions one at a time, on demand."""
    from heat.engine import stk_defn
    from heat.engine.hot import template as hot_template

    cls = stk_defn.StackDefinition
    if getattr(cls, '_tripleo_lazy', False):
        return
    stock_resource_definition = cls.resource_definition
    stock_load = cls._load_rsrc_defns

    def partial(self):
        return self.__dict__.setdefault('_lazy_defns', {})

    def resource_definition(self, resource_name):
        if (self._resource_defns is not None or not isinstance(
                self._template, hot_template.HOTemplate20130523)):
            return stock_resource_definition(self, resource_name)
        done = partial(self)
        if resource_name not in done:
            if resource_name not in (self._template.t.get(
                    self._template.RESOURCES) or {}):
                raise KeyError(resource_name)
            done[resource_name] = _parse_one(self._template, self,
                                             resource_name)
        return done[resource_name]

    def _load_rsrc_defns(self):
        stock_load(self)
        # Keep the definitions already handed out: callers may hold them.
        for name, defn in partial(self).items():
            if name in self._resource_defns:
                self._resource_defns[name] = defn
        partial(self).clear()

    def forget(stack_definition, resource_name):
        stack_definition.__dict__.get('_lazy_defns', {}).pop(
            resource_name, None)

    stock_add, stock_remove = stk_defn.add_resource, stk_defn.remove_resource
    stock_update = stk_defn.update_resource_data

    def add_resource(stack_definition, resource_definition):
        forget(stack_definition, resource_definition.name)
        return stock_add(stack_definition, resource_definition)

    def remove_resource(stack_definition, resource_name):
        forget(stack_definition, resource_name)
        return stock_remove(stack_definition, resource_name)

    def update_resource_data(stack_definition, resource_name, resource_data):
        stock_update(stack_definition, resource_name, resource_data)
        for defn in stack_definition.__dict__.get('_lazy_defns', {}).values():
            if resource_name in defn.required_resource_names():
                defn._all_dep_attrs = None

    cls.resource_definition = resource_definition
    cls._load_rsrc_defns = _load_rsrc_defns
    stk_defn.add_resource = add_resource
    stk_defn.remove_resource = remove_resource
    stk_defn.update_resource_data = update_resource_data
    cls._tripleo_lazy = True


_SCALARS = frozenset((str, int, float, bool, type(None)))


def fast_parse(functions, stack, snippet, path='', template=None):
    """Heat's ``heat.engine.template.parse``, with exact-type fast paths."""
    kind = type(snippet)
    if kind in _SCALARS:
        return snippet
    if kind is dict or (kind is not list and
                        isinstance(snippet, collections.abc.Mapping)):
        if len(snippet) == 1:
            fn_name, args = next(iter(snippet.items()))
            func = functions.get(fn_name)
            if func is not None:
                path = '.'.join([path, fn_name])
                try:
                    if (isinstance(func, type) and
                            issubclass(func, heat_function.Macro)):
                        return func(stack, fn_name, args, functools.partial(
                            fast_parse, functions, stack, path=path,
                            template=template), template)
                    return func(stack, fn_name, fast_parse(
                        functions, stack, args, path, template))
                except (ValueError, TypeError, KeyError) as e:
                    raise heat_exception.StackValidationFailed(
                        path=path, message=str(e))
        return {k: fast_parse(functions, stack, v,
                              '.'.join([path, str(k)]), template)
                for k, v in snippet.items()}
    if kind is list or (not isinstance(snippet, str) and
                        isinstance(snippet, collections.abc.Iterable)):
        return [fast_parse(functions, stack, v, ''.join([path, '[%d]' % i]),
                           template)
                for i, v in enumerate(snippet)]
    return snippet


def install_fast_template_parse():
    """Make ``Template.parse`` use :func:`fast_parse`."""
    from heat.engine import template

    template.parse = fast_parse


class _StackWaiters:
    """Threads waiting for a stack's state to change, woken when it does."""

    def __init__(self):
        self._lock = threading.Lock()
        self._waiting = {}  # stack id -> set of threading.Event

    @contextlib.contextmanager
    def watch(self, stack_id):
        """An Event set when ``stack_id``'s state is written after this."""
        event = threading.Event()
        with self._lock:
            self._waiting.setdefault(stack_id, set()).add(event)
        try:
            yield event
        finally:
            with self._lock:
                events = self._waiting.get(stack_id)
                events.discard(event)
                if not events:
                    del self._waiting[stack_id]

    def changed(self, stack_id):
        with self._lock:
            for event in self._waiting.get(stack_id, ()):
                event.set()


def install_nested_stack_wakeups(max_wait):
    """Wake a parent resource as soon as its nested stack changes state.

    A nested stack's parent resource (a template resource, a
    ResourceGroup, a ResourceChain) checks the nested stack's status every
    poll interval until it completes: in a 200-member create that was a
    fifth of all database transactions. When every engine runs in this
    process, every state change is written here, so a parent whose nested
    stack is still in progress waits to be woken by that write (and looks
    again at each), for at most ``max_wait`` seconds in all; after that it
    polls as before.
    """
    from heat.db import api as db_api
    from heat.engine.resources import stack_resource

    cls = stack_resource.StackResource
    if getattr(cls._check_status_complete, 'wakeups', False):
        return
    waiters = _StackWaiters()

    def notifying(write):
        @functools.wraps(write)
        def wrapper(context, stack_id, *args, **kwargs):
            try:
                return write(context, stack_id, *args, **kwargs)
            finally:
                waiters.changed(stack_id)
        return wrapper

    for name in ('stack_update', 'stack_delete',
                 'persist_state_and_release_lock'):
        setattr(db_api, name, notifying(getattr(db_api, name)))

    stock_check = cls._check_status_complete

    def _check_status_complete(self, expected_action, cookie=None):
        if self.resource_id is None:
            return stock_check(self, expected_action, cookie)
        deadline = time.monotonic() + max_wait
        with waiters.watch(self.resource_id) as changed:
            while True:
                changed.clear()
                done = stock_check(self, expected_action, cookie)
                left = deadline - time.monotonic()
                if done or left <= 0 or not changed.wait(left):
                    return done

    _check_status_complete.wakeups = True
    cls._check_status_complete = _check_status_complete


def install_skip_unconsumed_notifications():
    """Build notifications and event dispatches only for a consumer.

    Every stack state change formats a notification body (a database query
    for the stack's tags among it) that oslo.messaging drops when no
    notification driver is set, and every event starts a thread to hand it
    to the environment's event sinks, usually none.
    """
    from oslo_config import cfg
    from heat.engine.notification import stack as stack_notification
    from heat.engine import stack as heat_stack

    if getattr(stack_notification.send, 'skips', False):
        return
    stock_send = stack_notification.send
    stock_dispatch = heat_stack.Stack.dispatch_event

    def send(stack):
        drivers = cfg.CONF.oslo_messaging_notifications.driver
        if drivers and drivers != ['noop']:
            stock_send(stack)

    def dispatch_event(self, ev):
        if self.env.get_event_sinks():
            stock_dispatch(self, ev)

    send.skips = True
    stack_notification.send = send
    heat_stack.Stack.dispatch_event = dispatch_event


def install_rpc_idle_poll_max(seconds):
    """Cap how long an idle oslo.messaging AMQP listener waits before it
    looks again (and so sees that its server is stopping).

    The wait doubles while nothing arrives, up to a hard-coded 5 s; a
    Heat engine stops its three RPC servers one after another, each at
    its listener's next look, so an idle pod engine took 5-7 s to stop.
    A busy listener never waits that long, so this changes nothing while
    Heat works.
    """
    from oslo_messaging._drivers import amqpdriver
    # Its kombu_reconnect_delay option takes its maximum from the stock
    # value when the module is imported: import it first.
    from oslo_messaging._drivers import impl_rabbit  # noqa: F401

    amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MAX = seconds


def _get_attr_keys(template):
    """The function names of ``template``'s version that read attributes."""
    from heat.engine.hot import functions as hot_functions

    return frozenset(
        name for name, fn in template.functions.items()
        if isinstance(fn, type) and issubclass(
            fn, hot_functions.GetAttThenSelect))


def _attribute_readers(template):
    """(resource name -> names of the resources whose snippet reads its
    attributes, names of those that read a computed resource name).

    One walk of the raw template; Heat's attribute functions name the
    resource in their first argument, a literal or (rarely) a function.
    """
    cached = template.__dict__.get('_attribute_readers')
    if cached is not None:
        return cached
    keys = _get_attr_keys(template)
    readers = collections.defaultdict(set)
    computed = set()

    def walk(snippet, owner):
        kind = type(snippet)
        if kind is dict:
            if len(snippet) == 1:
                key, args = next(iter(snippet.items()))
                if key in keys:
                    if type(args) is list and args and isinstance(args[0],
                                                                  str):
                        readers[args[0]].add(owner)
                    else:
                        computed.add(owner)
            for value in snippet.values():
                walk(value, owner)
        elif kind is list:
            for value in snippet:
                walk(value, owner)

    for name, snippet in (template.t.get(template.RESOURCES) or {}).items():
        walk(snippet, name)
    result = template.__dict__['_attribute_readers'] = (readers, computed)
    return result


def install_narrow_referenced_attrs():
    """Find the attributes other resources read by asking only them.

    To store a resource's attributes after its check, stock Heat asks every
    enabled resource of the stack which of them it reads, and so parses
    every definition of the stack on every resource check (the lazy
    definitions notwithstanding): for tripleo-heat-templates' stacks of a
    hundred resources that was a third of the engine's CPU. Only a resource
    whose raw snippet names this one in an attribute function (or names a
    computed resource) can read it; those are asked, by Heat's own code.
    """
    from heat.engine import attributes
    from heat.engine.hot import template as hot_template
    from heat.engine import resource as heat_resource

    cls = heat_resource.Resource
    if getattr(cls.referenced_attrs, 'narrow', False):
        return
    stock = cls.referenced_attrs

    def referenced_attrs(self, stk_defn=None, in_resources=True,
                         in_outputs=True, load_all=False):
        if stk_defn is None:
            stk_defn = self.stack.defn
        template = stk_defn._template
        if not in_resources or not isinstance(
                template, hot_template.HOTemplate20130523):
            return stock(self, stk_defn, in_resources, in_outputs, load_all)
        refd = stock(self, stk_defn, False, in_outputs, load_all)
        readers, computed = _attribute_readers(template)
        for name in readers.get(self.name, set()) | computed:
            try:
                defn = stk_defn.resource_definition(name)
            except KeyError:  # disabled by a condition
                continue
            refd.update(defn.dep_attrs(self.name, load_all))
        if attributes.ALL_ATTRIBUTES in refd:
            refd.remove(attributes.ALL_ATTRIBUTES)
            refd |= (set(self.attributes) - {self.SHOW})
        return refd

    referenced_attrs.narrow = True
    cls.referenced_attrs = referenced_attrs
