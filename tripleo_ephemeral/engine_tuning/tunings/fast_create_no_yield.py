"""No zero-second sleeps in a fast create's thread."""

import types

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """No ``time.sleep(0)`` in a fast create's thread.

    ``Stack.validate`` sleeps 0 s after each resource it validates: under
    eventlet that let other green threads run. In the fast create's own
    engine thread there is nothing to let run (the create is that
    thread, its tree validated at each nested stack's create), but on a
    busy machine each such sleep gives the core away until the scheduler
    hands it back: a tenth of a THT create's wall time on a loaded 2-core
    machine. Here a zero sleep in that thread returns at once; any other
    sleep, and every sleep in other threads, is the module's own.
    """
    from heat.engine import stack as heat_stack

    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    previous = heat_stack.time
    stock_sleep = previous.sleep

    def sleep(seconds):
        if seconds == 0 and fast_create.current() is not None:
            return
        stock_sleep(seconds)

    shim = types.ModuleType('time')
    shim.__dict__.update(previous.__dict__, sleep=sleep)
    patches.replace(heat_stack, 'time', shim)


SHIM = Shim(
    # After leaf_trigger_delay: it wraps the time module that shim
    # gives heat.engine.stack. Only in a fast create's thread.
    'fast_create_no_yield', install, checked_on=HEAT,
    options=(Option(
        'fast_create_no_yield', 'bool', False, True,
        help='In a fast create\'s thread, return at once from the '
             'zero-second sleep Stack.validate makes after each '
             'resource (an eventlet yield; with real threads it gives '
             'the core away on a busy machine).'),),
    # Read by Stack.validate (sleep(0)) and the convergence leaf
    # trigger (sleep(1), left to the module it wraps).
    targets=(target('heat.engine.stack.time', '3452e9e60d7bfd61'),))
