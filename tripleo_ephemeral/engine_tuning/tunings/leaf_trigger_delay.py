"""The convergence engine's hard-coded 1 s sleep between leaf triggers."""

import time
import types

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches, leaf_trigger_delay: float) -> None:
    """Replace the hard-coded 1 s sleep between convergence leaf triggers.

    ``heat.engine.stack`` gets a ``time`` module of its own whose
    ``sleep(1)`` sleeps ``leaf_trigger_delay`` instead.
    """
    from heat.engine import stack as heat_stack

    real_time = time

    def sleep(seconds):
        real_time.sleep(leaf_trigger_delay if seconds == 1 else seconds)

    shim = types.ModuleType('time')
    shim.__dict__.update(real_time.__dict__, sleep=sleep)
    patches.replace(heat_stack, 'time', shim)


SHIM = Shim(
    'leaf_trigger_delay', install, checked_on=HEAT,
    options=(Option(
        'leaf_trigger_delay', 'float', 1.0, 0.05, min=0.0,
        help='Seconds the convergence engine sleeps between triggering '
             'two leaf resources (Heat hard-codes 1).'),),
    # Read by Stack._converge_create_or_update and Stack.validate.
    targets=(target('heat.engine.stack.time', '3452e9e60d7bfd61'),))
