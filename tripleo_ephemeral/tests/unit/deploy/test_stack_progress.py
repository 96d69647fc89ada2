import types

import pytest

from tripleo_ephemeral.deploy import stack_progress as progress
from tripleo_ephemeral.tests.unit import fakes


def _res(name, status, reason='', stack='s'):
    return types.SimpleNamespace(resource_name=name, resource_status=status,
                                 resource_status_reason=reason,
                                 resource_type='OS::Heat::Value',
                                 stack_name=stack)


def _event(eid, name, status, nested=False):
    root = {'rel': 'root_stack', 'href': 'http://h/stacks/root'}
    stack = {'rel': 'stack', 'href': 'http://h/stacks/%s' % (
        'child' if nested else 'root')}
    return types.SimpleNamespace(
        id=eid, resource_name=name, resource_status=status,
        resource_status_reason="state changed",
        event_time="2026-01-01T00:00:00",
        links=[root, stack], stack_name='root', physical_resource_id=None)


class FakeClient:
    def __init__(self, statuses, resources, events):
        self._statuses = list(statuses)
        self.resources = types.SimpleNamespace(
            list=lambda stack_id, nested_depth=0: resources)
        self.stacks = types.SimpleNamespace(get=self._get)
        self.events = types.SimpleNamespace(
            list=lambda stack_id, **kw: [e for e in events
                                         if not kw.get('marker') or
                                         e.id > kw['marker']])

    def _get(self, stack_id, resolve_outputs=True):
        status = self._statuses.pop(0) if len(self._statuses) > 1 else \
            self._statuses[0]
        return types.SimpleNamespace(stack_status=status)


def test_counts():
    c = progress.Counts([_res('a', 'CREATE_COMPLETE'),
                         _res('b', 'CREATE_IN_PROGRESS'),
                         _res('c', 'CREATE_FAILED'),
                         _res('d', 'INIT_COMPLETE')], 'CREATE')
    # The exact counts of a finished create: the total is final.
    assert str(c) == ('1/4 resources complete (25%), 1 in progress, '
                      '1 failed')
    # On the way the total is only what was seen so far: no share.
    assert c.describe() == '1 resources complete, 1 in progress, 1 failed'
    assert c.describe(total=10) == ('1/10 resources complete (10%), '
                                    '1 in progress, 1 failed')


@pytest.mark.parametrize('complete, total, elapsed, left', [
    (50, 200, 20.0, 60.0),     # a quarter in 20 s: 60 s for the rest
    (39, 200, 60.0, None),     # under a fifth: the rate says little yet
    (100, 200, 9.0, None),     # under 10 s: nor does it here
    (200, 200, 30.0, None),    # done
    (250, 200, 30.0, None),    # more than expected: no negative time
    (50, None, 20.0, None),    # total unknown
])
def test_time_left(complete, total, elapsed, left):
    assert progress.time_left(complete, total, elapsed) == left


def test_time_left_in_the_line():
    c = progress.Counts([_res(str(i), 'CREATE_COMPLETE') for i in range(50)]
                        + [_res('x', 'CREATE_IN_PROGRESS')], 'CREATE')
    assert c.describe(total=200, elapsed=20.0) == (
        '50/200 resources complete (25%), 1 in progress, about 1m00s left')
    assert c.describe(total=200, elapsed=5.0) == (
        '50/200 resources complete (25%), 1 in progress')
    assert c.describe(total=60, elapsed=20.0).endswith('about 4s left')


def test_watcher_prints_top_events_and_failures_only():
    events = [_event('1', 'top', 'CREATE_IN_PROGRESS'),
              _event('2', 'inner', 'CREATE_COMPLETE', nested=True),
              _event('3', 'inner', 'CREATE_FAILED', nested=True)]
    client = FakeClient(['CREATE_IN_PROGRESS', 'CREATE_FAILED'],
                        [_res('top', 'CREATE_FAILED')], events)
    out = []
    watcher = progress.StackWatcher(client, 'root', out=out.append,
                                    sleep=lambda s: None)
    assert watcher.wait() == 'CREATE_FAILED'
    text = '\n'.join(out)
    assert '[top]' in text and 'CREATE_FAILED' in text
    assert 'CREATE_COMPLETE' not in text  # nested, not verbose
    assert text.count('resources complete') >= 1


def test_failures_lists_reasons():
    client = FakeClient(['CREATE_FAILED'], [
        _res('a', 'CREATE_COMPLETE'),
        _res('b', 'CREATE_FAILED', 'boom', stack='overcloud-x')], [])
    assert progress.failures(client, 'root') == [
        ('overcloud-x.b', 'OS::Heat::Value', 'boom')]


def test_watcher_spaces_out_expensive_calls():
    clock = fakes.FakeClock()
    events = [_event('1', 'top', 'CREATE_IN_PROGRESS'),
              _event('2', 'inner', 'CREATE_COMPLETE', nested=True),
              _event('3', 'root', 'CREATE_IN_PROGRESS')]  # the stack's own
    client = FakeClient(['CREATE_IN_PROGRESS'] * 200 + ['CREATE_COMPLETE'],
                        [_res('top', 'CREATE_COMPLETE')], events)
    listed, fetched = [], []
    stock_events = client.events.list

    def slow_events(stack_id, **kw):
        fetched.append(clock.now)
        clock.now += 2.0  # a large tree: 2 s per call
        return stock_events(stack_id, **kw)

    def listing(stack_id, nested_depth=0):
        listed.append(clock.now)
        return [_res('top', 'CREATE_COMPLETE')]

    client.events.list = slow_events
    client.resources.list = listing
    out = []
    watcher = progress.StackWatcher(client, 'root', out=out.append,
                                    clock=clock, sleep=clock.sleep)
    assert watcher.wait() == 'CREATE_COMPLETE'
    # the last two fetches are the final ones (the new events, then all
    # of them for the count), made whatever they cost
    gaps = [b - a for a, b in zip(fetched, fetched[1:-2])]
    assert gaps and min(gaps) >= progress.COST_FACTOR * 2.0
    assert max(gaps) <= progress.MAX_GAP + watcher.poll + 2.0
    # the status is still checked at the normal pace: the end is seen
    assert set(clock.sleeps) == {watcher.poll}
    # counts on the way come from the events; resources are listed once
    assert len(listed) == 1
    assert '1 resources complete, 1 in progress' in '\n'.join(out)
    assert out[-1].endswith('1/1 resources complete (100%), 0 in progress')
    # the end was seen before the last (2 s) event fetch and the listing
    assert watcher.ended <= fetched[-1] < listed[-1]
    assert watcher.final_counts.total == 1


class GrowingStack:
    """A create of ``size`` nested resources, one complete every 2 s of
    the fake clock; the stack completes with the last one."""

    def __init__(self, clock, size):
        self.clock = clock
        self.size = size
        self.stacks = types.SimpleNamespace(get=self._get)
        self.events = types.SimpleNamespace(list=self._events)
        self.resources = types.SimpleNamespace(
            list=lambda stack_id, nested_depth=0: [
                _res('r%d' % i, 'CREATE_COMPLETE') for i in range(size)])

    def _done(self):
        return min(self.size, int(self.clock.now // 2))

    def _get(self, stack_id, resolve_outputs=True):
        return types.SimpleNamespace(stack_status=(
            'CREATE_COMPLETE' if self._done() == self.size
            else 'CREATE_IN_PROGRESS'))

    def _events(self, stack_id, **kw):
        events = []
        for i in range(self._done() + 1):
            if i < self.size:
                events.append(_event('%04d' % (2 * i), 'r%d' % i,
                                     'CREATE_IN_PROGRESS', nested=True))
            if i < self._done():
                events.append(_event('%04d' % (2 * i + 1), 'r%d' % i,
                                     'CREATE_COMPLETE', nested=True))
        events.sort(key=lambda e: e.id)
        return [e for e in events
                if not kw.get('marker') or e.id > kw['marker']]


def _watch(size, expected_total):
    clock = fakes.FakeClock()
    out = []
    watcher = progress.StackWatcher(
        GrowingStack(clock, size), 'root', out=out.append, report_every=4,
        expected_total=expected_total, clock=clock, sleep=clock.sleep)
    assert watcher.wait() == 'CREATE_COMPLETE'
    return out


def test_unknown_total_shows_counts_only():
    out = _watch(10, None)
    assert out[0] == '[   0s] 0 resources complete, 1 in progress'
    assert '[   8s] 4 resources complete, 1 in progress' in out
    assert not any('%' in line or 'left' in line for line in out[:-1])
    assert out[-1] == '[  20s] 10/10 resources complete (100%), 0 in progress'


def test_known_total_shows_the_share_then_the_time_left():
    out = _watch(10, 10)
    assert out[0] == '[   0s] 0/10 resources complete (0%), 1 in progress'
    # A fifth done, but not 10 s yet: no estimate.
    assert '[   4s] 2/10 resources complete (20%), 1 in progress' in out
    # 6 of 10 in 12 s: 8 s for the other 4.
    assert ('[  12s] 6/10 resources complete (60%), 1 in progress, about 8s '
            'left') in out
    assert out[-1] == '[  20s] 10/10 resources complete (100%), 0 in progress'


def _listed_at_the_end(size, expected_total=None, action='CREATE'):
    clock = fakes.FakeClock()
    stack = GrowingStack(clock, size)
    listed = []
    stock_list = stack.resources.list

    def listing(stack_id, nested_depth=0):
        listed.append((stack_id, nested_depth))
        return stock_list(stack_id, nested_depth)

    stack.resources.list = listing
    watcher = progress.StackWatcher(
        stack, 'root', out=lambda _text: None, action=action,
        expected_total=expected_total, clock=clock, sleep=clock.sleep)
    watcher.wait()
    return listed, watcher.final_counts


TREE = [('root', progress.NESTED_DEPTH)]


@pytest.mark.parametrize('size, expected, action, listed', [
    (10, None, 'CREATE', []),  # a complete create: its events say all
    (10, 10, 'CREATE', []),
    (10, 11, 'CREATE', TREE),  # not what the last create had: list
    # Its events may be purged: that stack alone is listed, not the tree.
    (progress.EVENTS_WHOLE_BELOW, None, 'CREATE', [('child', 0)]),
    (progress.EVENTS_WHOLE_BELOW, progress.EVENTS_WHOLE_BELOW + 1, 'CREATE',
     [('child', 0)] + TREE),
])
def test_a_complete_create_is_counted_from_its_events(size, expected,
                                                      action, listed):
    was_listed, counts = _listed_at_the_end(size, expected, action)
    assert was_listed == listed
    assert (counts.total, counts.complete) == (size, size)


def test_a_create_is_counted_from_all_its_events_at_the_end():
    """Events committed after a later one was fetched sort before the
    marker: the count at the end takes every event again."""
    events = [_event('1', 'a', 'CREATE_IN_PROGRESS'),
              _event('3', 'a', 'CREATE_COMPLETE')]
    late = [_event('2', 'b', 'CREATE_IN_PROGRESS', nested=True),
            _event('2b', 'b', 'CREATE_COMPLETE', nested=True)]
    client = FakeClient(['CREATE_IN_PROGRESS'] * 3 + ['CREATE_COMPLETE'],
                        [], events)
    stock_events = client.events.list
    calls = []

    def events_list(stack_id, **kw):
        calls.append(kw.get('marker'))
        if len(calls) == 2:  # committed late, behind the marker ('3')
            events[:] = sorted(events + late, key=lambda e: e.id)
        return stock_events(stack_id, **kw)

    client.events.list = events_list
    client.resources.list = lambda *a, **k: pytest.fail('listed')
    watcher = progress.StackWatcher(client, 'root', out=lambda line: None,
                                    sleep=lambda s: None)
    assert watcher.wait() == 'CREATE_COMPLETE'
    assert calls[0] is None and calls[-1] is None and '3' in calls
    assert (watcher.final_counts.total,
            watcher.final_counts.complete) == (2, 2)
