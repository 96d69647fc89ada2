"""A finished nested stack's outputs read once, a null one included.

Stock Heat's ``StackResource.get_output`` asks the nested stack's outputs
over RPC (``show_stack``: the stack and its resources loaded from the
database, every output resolved) whenever it holds none, and again
whenever the output asked for is null: it takes a null for one not
computed yet. A fast create (:mod:`.fast_create`) computes a nested
stack's outputs from the stack in memory once the stack has ended, as
``show_stack`` computes them from its rows; after that a null is the
output's value, and ``show_stack`` would compute the same null from the
same finished stack. On tripleo-heat-templates, whose services leave many
outputs null, that was a stack loaded from the database for every such
read. Here those outputs are answered from what is held.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """Answer a null output of a nested stack a fast create finished from
    the outputs computed in memory (see the module)."""
    from heat.engine.resources import stack_resource
    from heat.rpc import api as rpc_api

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    stock_in_memory = fast_nested.outputs_in_memory

    def outputs_in_memory(res):
        stock_in_memory(res)
        # the nested stack has ended (computed only then): final values
        res.__dict__['_fast_final_outputs'] = res._outputs

    patches.replace(fast_nested, 'outputs_in_memory', outputs_in_memory)

    cls = stack_resource.StackResource
    previous = cls.get_output

    def get_output(self, op):
        if (getattr(self, '_fast_outputs', False) and
                self._nested is not None):
            fast_nested.outputs_in_memory(self)
        outputs = self._outputs
        if (outputs is not None and
                self.__dict__.get('_fast_final_outputs') is outputs):
            data = outputs.get(op)
            if (data is not None and rpc_api.OUTPUT_ERROR not in data and
                    rpc_api.OUTPUT_VALUE in data and
                    data[rpc_api.OUTPUT_VALUE] is None):
                return None
        return previous(self, op)

    patches.replace(cls, 'get_output', get_output)


SHIM = Shim(
    # After fast_create: it wraps the fast get_output and the
    # outputs computed in memory; only inside a fast create.
    'fast_create_final_outputs', install, checked_on=HEAT,
    options=(Option(
        'fast_create_final_outputs', 'bool', False, True,
        help='During a fast create, answer a null output of a nested '
             'stack that has ended from the outputs computed in memory '
             'when it ended, instead of loading the stack from the '
             'database to compute them again (stock Heat takes a null '
             'for an output not computed yet).'),),
    # It wraps fast_create's get_output (StackResource.get_output is
    # checked there) and its outputs_in_memory, and answers what they
    # would ask.
    wraps=('fast_create',),
    targets=(
        target('heat.engine.service.EngineService.show_stack',
               'cd7f264467aba8b0', '964112c656589316'),))
