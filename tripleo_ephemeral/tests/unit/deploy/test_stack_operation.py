"""Create, or update an installed Heat's existing stack, and watch it."""

import types

import pytest
from heatclient import exc as heat_exc

from tripleo_ephemeral.deploy import stack_progress as progress
from tripleo_ephemeral.deploy import stack_operation
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tests.unit import fakes


class FakeHeat:
    """Stacks by name; a create or update runs through ``statuses``."""

    def __init__(self, existing=None, statuses=('IN_PROGRESS', 'COMPLETE'),
                 old_status='CREATE_COMPLETE'):
        self.existing = existing
        self.calls = []
        self._statuses = list(statuses)
        self._action = None
        self._old = old_status
        self.stacks = types.SimpleNamespace(
            get=self._get, create=self._create, update=self._update)
        self.events = types.SimpleNamespace(list=self._events)
        self.resources = types.SimpleNamespace(
            list=lambda stack_id, nested_depth=0: [types.SimpleNamespace(
                resource_status='UPDATE_COMPLETE'), types.SimpleNamespace(
                resource_status='CREATE_COMPLETE')])

    def _get(self, name, resolve_outputs=True):
        if self._action is None:
            if name != 'oc' or not self.existing:
                raise heat_exc.HTTPNotFound()
            return types.SimpleNamespace(id=self.existing,
                                         stack_status=self._old)
        status = self._statuses.pop(0) if len(self._statuses) > 1 else \
            self._statuses[0]
        if status.startswith('OLD'):
            return types.SimpleNamespace(stack_status=self._old)
        return types.SimpleNamespace(stack_status='%s_%s' % (
            self._action, status))

    def _create(self, **args):
        self.calls.append(('create', args))
        self._action = 'CREATE'
        return {'stack': {'id': 'new-id'}}

    def _update(self, stack_id, **args):
        self.calls.append(('update', stack_id, args))
        self._action = 'UPDATE'

    def _events(self, stack_id, **kw):
        self.calls.append(('events', kw))
        return [types.SimpleNamespace(id='ev-9')] if kw.get('limit') else []


class Watcher(progress.StackWatcher):
    def __init__(self, *args, **kwargs):
        clock = fakes.FakeClock()
        super().__init__(*args, clock=clock, sleep=clock.sleep, **kwargs)


@pytest.fixture(autouse=True)
def no_sleep(monkeypatch):
    monkeypatch.setattr(stack_operation.stack_progress, 'StackWatcher',
                        Watcher)
    monkeypatch.setattr(progress.event_utils, 'get_events',
                        lambda *a, **kw: [])


ARGS = {'stack_name': 'oc', 'template': {}, 'files': {}}


def test_an_ephemeral_heat_creates():
    heat = FakeHeat(existing='old-id')
    said = []
    created = stack_operation.run(heat, 'oc', ARGS, said.append,
                                  heat_dir='/h')
    assert heat.calls[0] == ('create', ARGS)
    assert created.stack_id == 'new-id' and created.status == \
        'CREATE_COMPLETE'
    assert said[0] == 'Creating stack oc'


def test_an_installed_heat_updates_the_existing_stack():
    heat = FakeHeat(existing='old-id',
                    statuses=('OLD', 'IN_PROGRESS', 'COMPLETE'))
    said = []
    created = stack_operation.run(heat, 'oc', ARGS, said.append,
                                  heat_dir='/h', may_update=True)
    update = [c for c in heat.calls if c[0] == 'update'][0]
    assert update[1] == 'old-id' and 'stack_name' not in update[2]
    assert created.status == 'UPDATE_COMPLETE' and created.resources == 2
    assert said[0] == 'Updating stack oc (it exists on this Heat)'
    assert said[-1] == 'Stack oc UPDATE_COMPLETE in %.1fs (2 resources)' % (
        created.seconds)
    # Events after the newest one before the update are shown.
    assert ('events', {'sort_dir': 'desc', 'limit': 1,
                       'nested_depth': progress.NESTED_DEPTH}) in heat.calls


def test_an_installed_heat_without_the_stack_creates():
    heat = FakeHeat()
    created = stack_operation.run(heat, 'oc', ARGS, lambda t: None,
                                  heat_dir='/h', may_update=True)
    assert created.status == 'CREATE_COMPLETE'


def test_a_failed_update_fails():
    heat = FakeHeat(existing='old-id', statuses=('FAILED',))
    with pytest.raises(exceptions.DeployError, match='ended UPDATE_FAILED'):
        stack_operation.run(heat, 'oc', ARGS, lambda t: None,
                            heat_dir='/h', may_update=True)


def test_update_counts_untouched_resources_complete():
    counts = progress.Counts([types.SimpleNamespace(
        resource_status=s) for s in ('CREATE_COMPLETE', 'UPDATE_COMPLETE',
                                     'UPDATE_IN_PROGRESS')], 'UPDATE')
    assert (counts.complete, counts.in_progress) == (2, 1)


def _internal_error(error_type='ValueError', message=None):
    body = {'code': 500, 'title': 'Internal Server Error',
            'explanation': 'The server has either erred', 'error': {
                'type': error_type, 'traceback': None}}
    if message:
        body['error']['message'] = message
    exc = heat_exc.HTTPInternalServerError()
    exc.error = body
    return exc


def test_heat_message_of_an_internal_error_is_the_engine_log_reason(
        tmp_path):
    """Not "Internal Error" alone: the reason from Heat's log."""
    (tmp_path / 'log').mkdir()
    log = tmp_path / 'log' / 'heat.log'
    log.write_text(
        '2026-11-26 20:00:00.000 1 ERROR heat.api.middleware.fault [None '
        'req-1 - - - - - -] Unexpected\nTraceback (most recent call last):\n'
        '  File "x", line 1\nValueError: environment has empty section '
        '"parameter_defaults"\n')
    assert stack_operation.heat_message(_internal_error(), str(tmp_path)) == (
        'Internal Server Error (ValueError: environment has empty section '
        '"parameter_defaults"; from %s)' % log)
    # An engine error logged by oslo.log: its prefix left out.
    with log.open('a') as f:
        f.write('2026-11-26 19:53:07.351 28208 ERROR oslo_messaging.rpc.'
                'server AttributeError: \'list\' object has no attribute '
                '\'support_status\'\n')
    assert stack_operation.heat_message(
        _internal_error('AttributeError'), str(tmp_path)) == (
        'Internal Server Error (AttributeError: \'list\' object has no '
        'attribute \'support_status\'; from %s)' % log)
    # No log (an installed Heat): the type and where to look.
    assert stack_operation.heat_message(_internal_error()) == (
        'Internal Server Error (ValueError; the reason is in Heat\'s log)')
    # Heat's own errors carry their message.
    assert stack_operation.heat_message(_internal_error(
        'StackValidationFailed', 'Property error: x'),
        str(tmp_path)) == 'Property error: x'
