"""A null output of a nested stack a fast create finished is answered from
the outputs computed in memory; anything else is asked as stock asks."""

import types

import pytest


class _Rpc:
    def __init__(self, outputs):
        self.asked = 0
        self._outputs = outputs

    def show_stack(self, context, identity):
        self.asked += 1
        return [{'outputs': self._outputs}]


def _resource(outputs, shown):
    """A nested stack's parent as StackResource.get_output sees it."""
    rpc = _Rpc(shown)
    res = types.SimpleNamespace(
        _outputs=None, _fast_outputs=False, _nested=None, context=None,
        name='parent',
        nested_identifier=lambda: {'stack_id': 'x'}, rpc_client=lambda: rpc)
    return res, rpc


@pytest.fixture
def get_output(install_shim, monkeypatch):
    """StackResource.get_output with the shim on, over a stand-in for the
    outputs the fast create computes in memory."""
    from heat.engine.resources import stack_resource

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    def in_memory(res):
        res._outputs = {o['output_key']: o for o in res.computed}
        res._fast_outputs = False

    monkeypatch.setattr(fast_nested, 'outputs_in_memory', in_memory)
    install_shim('fast_create_final_outputs')
    return stack_resource.StackResource.get_output


OUTPUTS = [{'output_key': 'null', 'output_value': None},
           {'output_key': 'set', 'output_value': 1},
           {'output_key': 'bad', 'output_error': 'broken'}]


def test_a_finished_stacks_null_output_is_not_asked_again(get_output):
    from heat.common import exception

    res, rpc = _resource(OUTPUTS, OUTPUTS)
    res.computed, res._fast_outputs, res._nested = OUTPUTS, True, object()
    assert get_output(res, 'null') is None
    assert get_output(res, 'set') == 1
    with pytest.raises(exception.TemplateOutputError):
        get_output(res, 'bad')
    with pytest.raises(exception.NotFound):
        get_output(res, 'missing')
    assert rpc.asked == 0


def test_outputs_not_computed_in_memory_are_asked_as_stock(get_output):
    res, rpc = _resource(None, OUTPUTS)
    assert get_output(res, 'null') is None
    assert get_output(res, 'null') is None
    assert rpc.asked == 2  # stock asks again for a null
