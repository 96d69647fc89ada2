"""Finished nested stacks let go of during a fast create (the create
itself, and its equality with stock Heat: functional tests)."""

import types

from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
    state as fast_state)
from tripleo_ephemeral.engine_tuning.tunings import (
    fast_create_release as fast_release)


class _Nested:
    id = 'n-1'
    migrated = 0

    def migrate_to_convergence(self):
        self.migrated += 1


def _parent(nested, outputs=None, fast_outputs=True):
    return types.SimpleNamespace(_nested=nested, _outputs=outputs,
                                 _fast_outputs=fast_outputs)


def _fast(nested):
    fast = fast_state.Create(service=None)
    fast.nested[nested.id] = (nested, 'runner')
    fast.created = 1
    return fast


def test_a_finished_stack_is_converted_its_outputs_kept_and_dropped():
    nested = _Nested()
    parent, fast = _parent(nested), _fast(nested)
    computed = []
    fast_nested = types.SimpleNamespace(
        outputs_in_memory=lambda res: computed.append(res._nested))
    fast_release.release(fast, parent, nested, fast_nested)
    assert computed == [nested]  # while the parent still had it
    assert nested.migrated == 1
    assert fast.nested == {} and fast.released == 1
    assert parent._nested is None and parent._fast_released


def test_outputs_already_read_are_not_computed_again():
    nested = _Nested()
    parent = _parent(nested, outputs={'a': {}}, fast_outputs=False)
    fast_nested = types.SimpleNamespace(outputs_in_memory=None)  # not called
    fast_release.release(_fast(nested), parent, nested, fast_nested)
    assert parent._outputs == {'a': {}} and nested.migrated == 1


def test_a_released_stack_loaded_again_is_counted(install_shim, monkeypatch):
    from heat.engine.resources import stack_resource

    install_shim('fast_create_release')
    fast = fast_state.Create(service=None)
    monkeypatch.setattr(fast_state.local, 'create', fast, raising=False)
    res = object.__new__(stack_resource.StackResource)
    res._nested, res.resource_id = None, None  # nothing to load
    assert res.nested() is None and fast.reloaded == 0
    res._fast_released = True
    assert res.nested() is None and fast.reloaded == 1
