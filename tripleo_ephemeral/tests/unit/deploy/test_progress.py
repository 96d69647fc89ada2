import types

from tripleo_ephemeral.deploy import progress


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
    assert str(c) == ('1/4 resources complete (25%), 1 in progress, '
                      '1 failed')


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


class SlowClock:
    """A clock where every resources.list costs ``cost`` seconds."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def test_watcher_spaces_out_expensive_calls():
    clock = SlowClock()
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
                                    clock=lambda: clock.now,
                                    sleep=clock.sleep)
    assert watcher.wait() == 'CREATE_COMPLETE'
    # the last fetch is the final one, made whatever it costs
    gaps = [b - a for a, b in zip(fetched, fetched[1:-1])]
    assert gaps and min(gaps) >= progress.COST_FACTOR * 2.0
    assert max(gaps) <= progress.MAX_GAP + watcher.poll + 2.0
    # the status is still checked at the normal pace: the end is seen
    assert set(clock.sleeps) == {watcher.poll}
    # counts on the way come from the events; resources are listed once
    assert len(listed) == 1
    assert '1/2 resources complete' in '\n'.join(out)
    assert out[-1].endswith('1/1 resources complete (100%), 0 in progress')
    # the end was seen before the last (2 s) event fetch and the listing
    assert watcher.ended <= fetched[-1] < listed[-1]
    assert watcher.final_counts.total == 1
