"""The tunings that skip or share work stock Heat repeats.

Each test installs one shim for its own duration (monkeypatch takes it
away), drives it with real threads on a real Heat database where it touches
one, and checks it gives what stock Heat gives.
"""

import gc
import threading
import time
import types

import pytest

from heat.common import context
from heat.db import api as db_api

from tripleo_ephemeral import engine_tuning


def _stack(cnxt, name='s', owner_id=None, **values):
    template = db_api.raw_template_create(
        cnxt, {'template': {'heat_template_version': 'wallaby'},
               'files': {}, 'environment': {}})
    row = dict(name=name, raw_template_id=template.id, username='u',
               tenant='admin', action='CREATE', status='IN_PROGRESS',
               status_reason='', owner_id=owner_id, convergence=True,
               disable_rollback=True)
    row.update(values)
    return db_api.stack_create(cnxt, row)


# -- nested stacks wake their parents ---------------------------------------

@pytest.fixture
def wakeups(monkeypatch):
    from heat.engine.resources import stack_resource
    for name in ('stack_update', 'stack_delete',
                 'persist_state_and_release_lock'):
        monkeypatch.setattr(db_api, name, getattr(db_api, name))
    cls = stack_resource.StackResource
    monkeypatch.setattr(cls, '_check_status_complete',
                        cls._check_status_complete)
    engine_tuning.install_nested_stack_wakeups(30)
    engine_tuning.install_nested_stack_wakeups(30)  # a second is a no-op
    return cls


class _Stack:
    convergence = True
    t = types.SimpleNamespace(get_section_name=lambda section: section)


#: Resources hold their stack by a weak reference: keep it alive.
_STACK = _Stack()


def _parent(cls, stack_id, polls):
    """A StackResource as far as _check_status_complete looks at it."""
    from heat.objects import stack as stack_object
    parent = object.__new__(cls)
    parent.resource_id = stack_id
    parent.context = context.get_admin_context()
    parent.stack = _STACK
    stock_get = stack_object.Stack.get_status

    def counted(cnxt, sid):
        polls.append(sid)
        return stock_get(cnxt, sid)

    return parent, counted


def test_a_parent_is_woken_by_its_nested_stack(heat_db, wakeups,
                                               monkeypatch):
    """A parent waits for the nested stack's next state, not for its next
    poll: done as soon as it is stored, with two looks at the database."""
    from heat.objects import stack as stack_object
    cnxt = context.get_admin_context()
    nested = _stack(cnxt)
    polls = []
    parent, counted = _parent(wakeups, nested.id, polls)
    monkeypatch.setattr(stack_object.Stack, 'get_status', counted)

    def complete_later():
        time.sleep(0.3)
        db_api.stack_update(cnxt, nested.id, {'status': 'COMPLETE'})

    writer = threading.Thread(target=complete_later)
    started = time.monotonic()
    writer.start()
    assert parent._check_status_complete('CREATE') is True
    took = time.monotonic() - started
    writer.join()
    assert 0.25 < took < 10
    assert len(polls) == 2


def test_a_parent_still_polls_when_nobody_wakes_it(heat_db, monkeypatch):
    """After max_wait without a state change the check gives up as stock
    Heat's poll does (False), and TaskRunner polls again later."""
    from heat.engine.resources import stack_resource
    cls = stack_resource.StackResource
    monkeypatch.setattr(cls, '_check_status_complete',
                        cls._check_status_complete)
    engine_tuning.install_nested_stack_wakeups(0.2)
    cnxt = context.get_admin_context()
    nested = _stack(cnxt)
    parent, _counted = _parent(cls, nested.id, [])
    started = time.monotonic()
    assert parent._check_status_complete('CREATE') is False
    assert 0.15 < time.monotonic() - started < 5


def test_a_failed_nested_stack_fails_its_parent_at_once(heat_db, wakeups):
    from heat.common import exception
    cnxt = context.get_admin_context()
    nested = _stack(cnxt, status='FAILED', status_reason='boom')
    parent, _counted = _parent(wakeups, nested.id, [])
    parent.name = 'parent'
    parent.action = 'CREATE'
    parent.type = lambda: 'OS::Heat::Stack'
    with pytest.raises(exception.ResourceFailure, match='boom'):
        parent._check_status_complete('CREATE')


def test_wakeups_only_when_every_engine_is_in_this_process(monkeypatch):
    from oslo_config import cfg
    import oslo_messaging
    oslo_messaging.TransportURL.parse(cfg.CONF)  # registers transport_url
    monkeypatch.setattr(cfg.CONF, 'transport_url', 'fake://')
    assert engine_tuning._engines_in_process()
    monkeypatch.setattr(cfg.CONF, 'transport_url',
                        'rabbit://u:p@127.0.0.1:5672/')
    assert not engine_tuning._engines_in_process()


# -- notifications and event dispatches nobody consumes ---------------------

def test_unconsumed_notifications_are_not_built(monkeypatch):
    from oslo_config import cfg
    import oslo_messaging
    oslo_messaging.Notifier(oslo_messaging.get_notification_transport(
        cfg.CONF, url='fake://'))  # registers the notifier's options
    from heat.engine.notification import stack as stack_notification
    from heat.engine import stack as heat_stack
    sent, dispatched = [], []
    monkeypatch.setattr(stack_notification, 'send', sent.append)
    monkeypatch.setattr(heat_stack.Stack, 'dispatch_event',
                        lambda self, ev: dispatched.append(ev))
    engine_tuning.install_skip_unconsumed_notifications()
    engine_tuning.install_skip_unconsumed_notifications()  # no-op
    group = cfg.CONF.oslo_messaging_notifications
    for drivers, expect in (([], 0), (['noop'], 0), (['log'], 1)):
        monkeypatch.setattr(group, 'driver', drivers)
        sent.clear()
        stack_notification.send('stack')
        assert len(sent) == expect, drivers

    class WithSinks(heat_stack.Stack):
        def __init__(self, sinks):
            self.env = types.SimpleNamespace(get_event_sinks=lambda: sinks)

        env = None  # not the Stack's property

    for sinks, expect in (([], 0), (['a sink'], 1)):
        dispatched.clear()
        heat_stack.Stack.dispatch_event(WithSinks(sinks), 'event')
        assert len(dispatched) == expect, sinks


# -- root stack ids ---------------------------------------------------------

def test_root_stack_ids_are_looked_up_once(heat_db, monkeypatch):
    from heat.objects import stack as stack_object
    monkeypatch.setattr(stack_object.Stack, 'get_root_id',
                        stack_object.Stack.get_root_id)
    cnxt = context.get_admin_context()
    root = _stack(cnxt, 'root')
    child = _stack(cnxt, 'child', owner_id=root.id)
    grandchild = _stack(cnxt, 'grandchild', owner_id=child.id)
    engine_tuning.install_root_stack_id_cache()
    engine_tuning.install_root_stack_id_cache()  # a second is a no-op
    lookups = []
    stock_get = db_api.stack_get_root_id
    monkeypatch.setattr(db_api, 'stack_get_root_id',
                        lambda c, sid: lookups.append(sid) or stock_get(c,
                                                                        sid))
    for _ in range(3):
        assert stack_object.Stack.get_root_id(cnxt, grandchild.id) == root.id
        assert stack_object.Stack.get_root_id(cnxt, root.id) == root.id
    assert stack_object.Stack.get_root_id(cnxt, 'missing') is None
    assert stack_object.Stack.get_root_id(cnxt, 'missing') is None
    # Found ones once each; a missing one is asked again (it may appear).
    assert lookups == [grandchild.id, root.id, 'missing', 'missing']


# -- convergence graphs -----------------------------------------------------

def test_convergence_graphs_are_shared_by_their_edges(monkeypatch):
    from heat.engine import stack as heat_stack
    monkeypatch.setattr(heat_stack.Stack, 'convergence_dependencies',
                        heat_stack.Stack.convergence_dependencies)
    stock = heat_stack.Stack.convergence_dependencies.fget
    engine_tuning.install_convergence_graph_cache(2)
    engine_tuning.install_convergence_graph_cache(2)  # a second is a no-op

    def loaded(edges):
        stack = object.__new__(heat_stack.Stack)
        stack._convg_deps = None
        stack.current_deps = {'edges': edges}
        return stack

    edges = [[[1, True], None], [[2, True], [1, True]],
             [[1, False], [2, False]], [[2, False], None]]
    first = loaded(edges).convergence_dependencies
    again = loaded([list(e) for e in edges]).convergence_dependencies
    assert again is first
    assert repr(first) == repr(stock(loaded(edges)))
    other = loaded(edges[:2]).convergence_dependencies
    assert other is not first
    assert repr(other) == repr(stock(loaded(edges[:2])))
    # Bounded: a third graph pushes out the least recently used (first).
    loaded([[[9, True], None]]).convergence_dependencies
    assert loaded(edges).convergence_dependencies is not first
    # A stack that computed its own graph keeps it.
    own = loaded(edges)
    own._convg_deps = 'its own'
    assert own.convergence_dependencies == 'its own'


# -- events -----------------------------------------------------------------

@pytest.fixture
def batched_events(monkeypatch):
    from heat.engine import service as engine_service
    from heat.objects import event as event_object
    monkeypatch.setattr(event_object.Event, 'create',
                        event_object.Event.create)
    monkeypatch.setattr(engine_service.EngineService, 'stop',
                        lambda self: None)
    monkeypatch.setattr(engine_tuning, 'EVENT_WRITER', None)
    engine_tuning.install_event_batching()
    engine_tuning.install_event_batching()  # a second is a no-op
    return engine_tuning.EVENT_WRITER


def _store_event(cnxt, stack, name, status, rtype='OS::Heat::Value'):
    from heat.engine import event
    ev = event.Event(cnxt, stack, 'CREATE', status, 'reason', 'phys', None,
                     None, name, rtype)
    ev.store()
    return ev


def _heat_stack(row):
    from heat.common import identifier
    return types.SimpleNamespace(identifier=lambda: identifier.HeatIdentifier(
        'admin', row.name, row.id))


def test_events_from_many_threads_are_all_stored_in_order(heat_db,
                                                          batched_events):
    cnxt = context.get_admin_context()
    stack = _heat_stack(_stack(cnxt))
    stored = []

    def work(t):
        for n in range(25):
            ev = _store_event(cnxt, stack, 'r%d' % t, 'IN_PROGRESS')
            assert ev.uuid and ev.timestamp
            stored.append(ev.uuid)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # The stack's own event waits for all queued before it.
    last = _store_event(cnxt, stack, 's', 'COMPLETE', 'OS::Heat::Stack')
    assert last.id is not None
    rows = db_api.event_get_all_by_stack(cnxt, stack.identifier().stack_id,
                                         sort_keys=['id'], sort_dir='asc',
                                         limit=1000)
    uuids = [r.uuid for r in rows]
    assert len(uuids) == 201 and uuids[-1] == last.uuid
    assert set(uuids[:-1]) == set(stored)
    # Ids follow the order the events were queued in, per resource.
    for t in range(8):
        mine = [r.created_at for r in rows if r.resource_name == 'r%d' % t]
        assert mine == sorted(mine)


def test_the_engine_stop_waits_for_queued_events(heat_db, monkeypatch):
    from heat.engine import service as engine_service
    from heat.objects import event as event_object
    monkeypatch.setattr(event_object.Event, 'create',
                        event_object.Event.create)
    monkeypatch.setattr(engine_service.EngineService, 'stop',
                        lambda self: None)
    monkeypatch.setattr(engine_tuning, 'EVENT_WRITER', None)
    slow_write = db_api.event_create

    def slow(cnxt, values):
        time.sleep(0.01)
        return slow_write(cnxt, values)

    monkeypatch.setattr(db_api, 'event_create', slow)
    engine_tuning.install_event_batching()
    cnxt = context.get_admin_context()
    stack = _heat_stack(_stack(cnxt))
    for n in range(20):
        _store_event(cnxt, stack, 'r%d' % n, 'COMPLETE')
    engine_service.EngineService.stop(object())
    assert db_api.event_count_all_by_stack(
        cnxt, stack.identifier().stack_id) == 20


def test_one_bad_event_does_not_lose_the_others(heat_db, batched_events,
                                                monkeypatch):
    cnxt = context.get_admin_context()
    stack = _heat_stack(_stack(cnxt))
    stock_write = batched_events._write

    def refuse_one(c, values):
        if values['resource_name'] == 'bad':
            raise RuntimeError('refused')
        return stock_write(c, values)

    monkeypatch.setattr(batched_events, '_write', refuse_one)
    for name in ('a', 'bad', 'b'):
        _store_event(cnxt, stack, name, 'COMPLETE')
    assert batched_events.flush(timeout=30)
    rows = db_api.event_get_all_by_stack(cnxt, stack.identifier().stack_id)
    assert sorted(r.resource_name for r in rows) == ['a', 'b']


# -- the garbage collector --------------------------------------------------

def test_tune_gc(monkeypatch):
    thresholds = gc.get_threshold()
    try:
        engine_tuning.tune_gc(types.SimpleNamespace(
            gc_freeze=True, gc_thresholds=['5000', '15', '12']))
        assert gc.get_threshold() == (5000, 15, 12)
        assert gc.get_freeze_count() > 0
        engine_tuning.tune_gc(types.SimpleNamespace(gc_freeze=False,
                                                    gc_thresholds=[]))
        assert gc.get_threshold() == (5000, 15, 12)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
