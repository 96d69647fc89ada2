"""The tunings that skip or share work stock Heat repeats.

Each test installs one shim for its own duration (the guard takes it
away again), drives it with real threads on a real Heat database where it
touches one, and checks it gives what stock Heat gives.
"""

import gc
import threading
import time
import types

import pytest

from heat.common import context
from heat.db import api as db_api

from tripleo_ephemeral.engine_tuning import guard


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
def wakeups(install_shim):
    from heat.engine.resources import stack_resource
    install_shim('nested_stack_wakeups', nested_stack_wait=30)
    install_shim('nested_stack_wakeups', nested_stack_wait=30)  # no-op
    return stack_resource.StackResource


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


def test_a_parent_still_polls_when_nobody_wakes_it(heat_db, install_shim):
    """After max_wait without a state change the check gives up as stock
    Heat's poll does (False), and TaskRunner polls again later."""
    from heat.engine.resources import stack_resource
    cls = stack_resource.StackResource
    install_shim('nested_stack_wakeups', nested_stack_wait=0.2)
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
    assert guard.engines_in_process()
    monkeypatch.setattr(cfg.CONF, 'transport_url',
                        'rabbit://u:p@127.0.0.1:5672/')
    assert not guard.engines_in_process()


# -- notifications and event dispatches nobody consumes ---------------------

def test_unconsumed_notifications_are_not_built(monkeypatch, install_shim):
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
    # Over the fakes above: their fingerprints are not Heat's.
    install_shim('skip_unconsumed_notifications', check=False)
    install_shim('skip_unconsumed_notifications', check=False)  # no-op
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


# -- the garbage collector --------------------------------------------------

def test_tune_gc():
    thresholds = gc.get_threshold()
    try:
        assert guard.install(types.SimpleNamespace(
            gc_freeze=True, gc_thresholds=['5000', '15', '12']),
            stage='started') == ['gc_freeze', 'gc_thresholds']
        assert gc.get_threshold() == (5000, 15, 12)
        assert gc.get_freeze_count() > 0
        assert guard.install(types.SimpleNamespace(
            gc_freeze=False, gc_thresholds=[]), stage='started') == []
        assert gc.get_threshold() == (5000, 15, 12)
    finally:
        guard.uninstall(['gc_freeze', 'gc_thresholds'])
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


# -- a stopping engine's message bus listeners ------------------------------

def _idle_listener_waits(looks=24):
    """The waits oslo.messaging's real AMQP poll loop asks of an idle
    connection, over ``looks`` looks."""
    from oslo_messaging._drivers import amqpdriver
    from oslo_messaging._drivers import common as rpc_common

    waits = []

    class IdleConnection:
        def consume(self, timeout):
            waits.append(timeout)
            if len(waits) >= looks:
                listener._shutdown.set()  # the server stops meanwhile
            raise rpc_common.Timeout()

    listener = amqpdriver.AMQPListener(
        types.SimpleNamespace(prefetch_size=1), IdleConnection())
    assert listener.poll() == []
    return waits


def test_rpc_idle_poll_max(install_shim):
    assert max(_idle_listener_waits()) == 5.0  # stock
    install_shim('rpc_idle_poll_max', rpc_idle_poll_max=0.5)
    waits = _idle_listener_waits()
    assert max(waits) == 0.5 and waits[-1] == 0.5
    assert waits[0] < 0.01  # still quick to look again after a message
    # The rabbit driver's options still validate as stock oslo.messaging's.
    from oslo_messaging._drivers import impl_rabbit
    delay, = [o for o in impl_rabbit.rabbit_opts
              if o.name == 'kombu_reconnect_delay']
    assert delay.type.max == 4.5


def test_no_zero_sleep_in_a_fast_create(install_shim, monkeypatch):
    """A zero sleep of heat.engine.stack returns at once in a fast create's
    thread; the leaf trigger's sleep keeps its tuned delay."""
    import time
    import types

    from heat.engine import stack as heat_stack

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        state as fast_state)

    slept = []
    monkeypatch.setattr(time, 'sleep', slept.append)
    install_shim('leaf_trigger_delay', leaf_trigger_delay=0.05)
    install_shim('fast_create_no_yield')
    heat_stack.time.sleep(0)
    monkeypatch.setattr(fast_state.local, 'create',
                        types.SimpleNamespace(), raising=False)
    heat_stack.time.sleep(0)
    heat_stack.time.sleep(1)
    assert slept == [0, 0.05]
