"""The convergence engine's hard-coded waits and ResourceChain's pace."""

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


def install_task_poll_interval(patches, task_poll_interval):
    """Replace the 1 s TaskRunner sleep between progress checks."""
    from heat.engine import scheduler

    stock_sleep = scheduler.TaskRunner._sleep

    def _sleep(self, wait_time):
        stock_sleep(self, task_poll_interval if wait_time == 1
                    else wait_time)

    patches.replace(scheduler.TaskRunner, '_sleep', _sleep)


def install_resource_chain_concurrency(patches, resource_chain_concurrency):
    """Create up to this many members of a concurrent ResourceChain at once.

    Heat allows as many as there are running engines: one at a time on a
    single engine.
    """
    from heat.engine.resources.openstack.heat import resource_chain

    stock = resource_chain.service_objects

    class Service:
        @staticmethod
        def active_service_count(context):
            return max(resource_chain_concurrency,
                       stock.Service.active_service_count(context))

    patches.replace(resource_chain, 'service_objects',
                    types.SimpleNamespace(Service=Service))


def install_fast_create_no_yield(patches):
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
    shim.__dict__.update(previous.__dict__)
    shim.sleep = sleep
    patches.replace(heat_stack, 'time', shim)
