"""Nested stacks of a fast create let go of when they are done.

A fast create (:mod:`.fast_create`) keeps every nested stack it created
in memory until the root's create ends, to convert the whole tree to
convergence there: each nested stack with its template, environment (a
copy of the whole resource registry), parameters, resource definitions
and resources. On tripleo-heat-templates that is most of the engine's
memory, and it grows with every node (3.7 MB per Compute).

Here a nested stack that ended CREATE_COMPLETE is finished at once, as
the end of the create would finish it: its outputs are computed from it
in memory (as a parent's first output read does), it is converted with
Heat's own ``Stack.migrate_to_convergence`` (the end of the create then
skips it: its row says it is converted), and its parent resource and the
fast create drop it. A later ``nested()`` of that parent loads it from
the database as stock Heat's does (counted: ``reloaded`` in the log).
A stack that failed or was cancelled stays for the end of the create.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """Release finished nested stacks during a fast create."""
    from heat.engine.resources import stack_resource

    from tripleo_ephemeral.engine_tuning.tunings import fast_create
    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    cls = stack_resource.StackResource
    fast_check = cls.check_create_complete
    stock_nested = cls.nested

    def check_create_complete(self, cookie=None):
        done = fast_check(self, cookie)
        fast = fast_create.current()
        nested = self.__dict__.get('_nested')
        if (done and fast is not None and nested is not None and
                nested.id in fast.nested and
                getattr(nested, '_fast_persisted', False) and
                nested.status == nested.COMPLETE):
            release(fast, self, nested, fast_nested)
        return done

    def nested(self):
        if self.__dict__.get('_nested') is None and getattr(
                self, '_fast_released', False):
            fast = fast_create.current()
            if fast is not None:
                fast.reloaded += 1
        return stock_nested(self)

    patches.replace(cls, 'check_create_complete', check_create_complete)
    patches.replace(cls, 'nested', nested)


def release(fast, parent, nested, fast_nested):
    """Finish ``nested`` (created by ``parent`` in ``fast``) and drop it."""
    if parent._outputs is None or getattr(parent, '_fast_outputs', False):
        fast_nested.outputs_in_memory(parent)
    nested.migrate_to_convergence()
    del fast.nested[nested.id]
    fast.released += 1
    parent._nested = None
    parent._fast_released = True


SHIM = Shim(
    # After fast_create: it wraps the fast check_create_complete.
    'fast_create_release', install, checked_on=HEAT[:1],
    options=(Option(
        'fast_create_release', 'bool', False, True,
        help='During a fast create, finish each nested stack that '
             'ended CREATE_COMPLETE at once (outputs computed, '
             'converted to convergence) and let go of it, instead of '
             'keeping the whole tree in memory until the root\'s '
             'create ends.'),),
    # It wraps fast_create's check_create_complete and reads outputs
    # as its get_output does (both checked there); does nothing
    # outside a fast create.
    wraps=('fast_create',),
    targets=(
        target('heat.engine.resources.stack_resource.StackResource.'
               'nested', '116d7aaee3def86f'),
        target('heat.engine.stack.Stack.migrate_to_convergence',
               'b55028ca9eafb80d')))
