"""A parent resource woken by its nested stack instead of polling it."""

import contextlib
import functools
import threading
import time

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


class _StackWaiters:
    """Threads waiting for a stack's state to change, woken when it does."""

    def __init__(self):
        self._lock = threading.Lock()
        self._waiting = {}  # stack id -> set of threading.Event

    @contextlib.contextmanager
    def watch(self, stack_id):
        """An Event set when ``stack_id``'s state is written after this."""
        event = threading.Event()
        with self._lock:
            self._waiting.setdefault(stack_id, set()).add(event)
        try:
            yield event
        finally:
            with self._lock:
                events = self._waiting.get(stack_id)
                events.discard(event)
                if not events:
                    del self._waiting[stack_id]

    def changed(self, stack_id):
        with self._lock:
            for event in self._waiting.get(stack_id, ()):
                event.set()


def install(patches: Patches, nested_stack_wait: float) -> None:
    """Wake a parent resource as soon as its nested stack changes state.

    A nested stack's parent resource (a template resource, a
    ResourceGroup, a ResourceChain) checks the nested stack's status every
    poll interval until it completes: in a 200-member create that was a
    fifth of all database transactions. When every engine runs in this
    process, every state change is written here, so a parent whose nested
    stack is still in progress waits to be woken by that write (and looks
    again at each), for at most ``nested_stack_wait`` seconds in all; after
    that it polls as before.
    """
    from heat.db import api as db_api
    from heat.engine.resources import stack_resource

    cls = stack_resource.StackResource
    waiters = _StackWaiters()

    def notifying(write):
        @functools.wraps(write)
        def wrapper(context, stack_id, *args, **kwargs):
            try:
                return write(context, stack_id, *args, **kwargs)
            finally:
                waiters.changed(stack_id)
        return wrapper

    for name in ('stack_update', 'stack_delete',
                 'persist_state_and_release_lock'):
        patches.replace(db_api, name, notifying(getattr(db_api, name)))

    stock_check = cls._check_status_complete

    def _check_status_complete(self, expected_action, cookie=None):
        if self.resource_id is None:
            return stock_check(self, expected_action, cookie)
        deadline = time.monotonic() + nested_stack_wait
        with waiters.watch(self.resource_id) as changed:
            while True:
                changed.clear()
                done = stock_check(self, expected_action, cookie)
                left = deadline - time.monotonic()
                if done or left <= 0 or not changed.wait(left):
                    return done

    patches.replace(cls, '_check_status_complete', _check_status_complete)


SHIM = Shim(
    'nested_stack_wakeups', install, checked_on=HEAT, when='in_process',
    options=(Option(
        'nested_stack_wait', 'float', 0.0, 10.0, min=0.0,
        help='With every engine in this process: seconds a parent '
             'resource waits to be woken by its nested stack\'s next '
             'state change before it polls again (0: poll every '
             'task_poll_interval, as Heat does).'),),
    targets=(
        target('heat.db.api.stack_update', '045bf8c056a31e1c'),
        target('heat.db.api.stack_delete', '176422497d2ae3cf'),
        target('heat.db.api.persist_state_and_release_lock',
               'c65c9547edaf191d'),
        target('heat.engine.resources.stack_resource.StackResource.'
               '_check_status_complete', '38a8fa8091501a24')))
