"""The fast create's pure parts (the create itself: functional tests)."""

from tripleo_ephemeral.engine_tuning.tunings import fast_create
from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)


def test_no_pause_while_resources_change_state_then_backing_off():
    fast = fast_state.Create(service=None)
    fast.changes = 3
    assert fast.next_pause(1) == 0.0
    pauses = [fast.next_pause(1) for _ in range(12)]
    assert pauses[:3] == [0.001, 0.002, 0.004]
    assert pauses == sorted(pauses) and pauses[-1] == 1
    fast.changes += 1
    assert fast.next_pause(1) == 0.0


def test_the_pause_never_exceeds_heats_own():
    fast = fast_state.Create(service=None)
    assert max(fast.next_pause(0.01) for _ in range(20)) == 0.01


def test_outside_a_fast_create_there_is_none():
    assert fast_create.current() is None


def test_a_heat_whose_create_differs_creates_stock(monkeypatch, caplog):
    """Another Heat's StackResource.create_with_template: the fast create
    stays off (one warning) and create_stack is Heat's own."""
    import logging

    from heat.engine.resources import stack_resource
    from heat.engine import service

    from tripleo_ephemeral.engine_tuning import guard

    def create_with_template(self, child_template, user_params=None,
                             timeout_mins=None, adopt_data=None):
        return 'another Heat'

    stock_create_stack = service.EngineService.create_stack
    monkeypatch.setattr(stack_resource.StackResource, 'create_with_template',
                        create_with_template)
    with caplog.at_level(logging.WARNING):
        assert guard.install_shim('fast_create') is None
    assert guard.installed() == []
    assert service.EngineService.create_stack is stock_create_stack
    [line] = [r.getMessage() for r in caplog.records]
    assert 'Engine tuning fast_create is off' in line
    assert 'StackResource.create_with_template differs' in line


def _stack_and_row(**row_changes):
    """A nested stack as the fast create holds it, and its database row
    as ``Stack.store`` and the persisted end state left it."""
    import datetime
    import types

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    values = {field: 'v-%s' % field for _attr, field in fast_nested._STORED}
    values.update(user_creds_id=1, current_deps={}, status_reason='done')
    row = types.SimpleNamespace(raw_template_id=7, updated_at=datetime.
                                datetime(2026, 11, 25), **values)
    stack = types.SimpleNamespace(t=types.SimpleNamespace(id=7),
                                  updated_time=None)
    for attr, field in fast_nested._STORED:
        setattr(stack, attr, values[field])
    stack.user_creds_id = '1'   # the context's text of the row's integer
    for field, value in row_changes.items():
        setattr(row, field, value)
    return stack, row


def test_a_nested_stack_as_stored_is_migrated_in_memory():
    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    stack, row = _stack_and_row()
    assert fast_nested.as_loaded(stack, row) is stack
    assert stack.updated_time == row.updated_at   # as a load reads it
    assert fast_nested.as_loaded(None, row) is None


def test_a_nested_stack_unlike_its_row_is_loaded():
    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    for change in ({'status': 'FAILED'}, {'raw_template_id': 8},
                   {'user_creds_id': None}, {'current_deps': {'x': 1}},
                   {'status_reason': 'other'}):
        stack, row = _stack_and_row(**change)
        assert fast_nested.as_loaded(stack, row) is None, change
        assert stack.updated_time is None


def test_outputs_are_made_primitive_as_heats_rpc_makes_them():
    import datetime
    import uuid

    from oslo_serialization import jsonutils

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    class Thing:
        def __init__(self):
            self.a = {'b': (1, 2)}

    value = {'s': 'x', 1: [None, True, 2.5, ('t', b'b')], 'd': {
        'when': datetime.datetime(2026, 11, 25, 1, 2, 3, 4),
        'id': uuid.UUID(int=7), 'set': {3}, 'thing': Thing(),
        'deep': [[[[[{'x': [1]}]]]]]}}
    assert fast_nested.primitive(value) == jsonutils.to_primitive(
        value, convert_instances=True)
