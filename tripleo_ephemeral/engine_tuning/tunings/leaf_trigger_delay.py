"""The convergence engine's hard-coded 1 s sleep between leaf triggers."""

import time
import types


def install_leaf_trigger_delay(patches, leaf_trigger_delay):
    """Replace the hard-coded 1 s sleep between convergence leaf triggers.

    ``heat.engine.stack`` gets a ``time`` module of its own whose
    ``sleep(1)`` sleeps ``leaf_trigger_delay`` instead.
    """
    from heat.engine import stack as heat_stack

    real_time = time

    def sleep(seconds):
        real_time.sleep(leaf_trigger_delay if seconds == 1 else seconds)

    shim = types.ModuleType('time')
    shim.__dict__.update(real_time.__dict__)
    shim.sleep = sleep
    patches.replace(heat_stack, 'time', shim)
