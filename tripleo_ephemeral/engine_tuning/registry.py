"""Every engine tuning, declared once, in the order the guard installs
them. No Heat here.

A tuning is a module of :mod:`.tunings` named after it (a package when
its code needs more than one module): its ``install(patches, **values)``
and, beside it, its declaration ``SHIM`` (a :class:`.spec.Shim`): the
``[ephemeral_heat]`` options that switch it on (the first one, unless it
is always on) with their tuned values and Heat's own, and the targets it
replaces or relies on, each with the fingerprints (:mod:`.fingerprint`)
of the code it was checked on (the releases are in :mod:`.spec`).
:data:`SHIMS` lists them in the order the guard installs them. The
runner's options (``runner.options.OPTS``), the launcher's tuned and
stock values (``heat_launcher.tuning.Tuning``), the guard, the table of
``doc/source/reference/tunings.rst`` and the tests all come from here.

To add a tuning: its module in :mod:`.tunings`, listed in :data:`SHIMS`
where it must be installed; ``tests/unit/engine_tuning/test_guard.py``
checks that it is declared whole and replaces only its targets.

To re-check on a new release: ``python tools/check_tuning.py`` prints
each target's fingerprint beside the recorded ones. Read the diff of each
target that changed, fix the shim if it must change, then add the new
fingerprint to its declaration (keep the old ones while those releases
are supported) and the release to ``checked_on``.
"""

from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.tunings import atomic_sync_points
from tripleo_ephemeral.engine_tuning.tunings import checkin_yield
from tripleo_ephemeral.engine_tuning.tunings import fast_create
from tripleo_ephemeral.engine_tuning.tunings import (
    fast_create_child_environment)
from tripleo_ephemeral.engine_tuning.tunings import fast_create_final_outputs
from tripleo_ephemeral.engine_tuning.tunings import (
    fast_create_lean_resource_data)
from tripleo_ephemeral.engine_tuning.tunings import fast_create_lean_rows
from tripleo_ephemeral.engine_tuning.tunings import fast_create_lean_stacks
from tripleo_ephemeral.engine_tuning.tunings import fast_create_no_yield
from tripleo_ephemeral.engine_tuning.tunings import fast_create_release
from tripleo_ephemeral.engine_tuning.tunings import fast_create_shared_defaults
from tripleo_ephemeral.engine_tuning.tunings import fast_create_transactions
from tripleo_ephemeral.engine_tuning.tunings import fast_create_yaql_cache
from tripleo_ephemeral.engine_tuning.tunings import fast_registry_globs
from tripleo_ephemeral.engine_tuning.tunings import fast_snippet_walks
from tripleo_ephemeral.engine_tuning.tunings import fast_template_parse
from tripleo_ephemeral.engine_tuning.tunings import fast_yaql_input
from tripleo_ephemeral.engine_tuning.tunings import gc_freeze
from tripleo_ephemeral.engine_tuning.tunings import gc_thresholds
from tripleo_ephemeral.engine_tuning.tunings import in_process_bus_wakeup
from tripleo_ephemeral.engine_tuning.tunings import lazy_resource_definitions
from tripleo_ephemeral.engine_tuning.tunings import leaf_trigger_delay
from tripleo_ephemeral.engine_tuning.tunings import lean_database_writes
from tripleo_ephemeral.engine_tuning.tunings import narrow_referenced_attrs
from tripleo_ephemeral.engine_tuning.tunings import nested_stack_wakeups
from tripleo_ephemeral.engine_tuning.tunings import prompt_executor_stop
from tripleo_ephemeral.engine_tuning.tunings import resource_chain_concurrency
from tripleo_ephemeral.engine_tuning.tunings import rpc_idle_poll_max
from tripleo_ephemeral.engine_tuning.tunings import (
    skip_unconsumed_notifications)
from tripleo_ephemeral.engine_tuning.tunings import sqlite_begin_immediate
from tripleo_ephemeral.engine_tuning.tunings import sqlite_pool
from tripleo_ephemeral.engine_tuning.tunings import sqlite_pragmas
from tripleo_ephemeral.engine_tuning.tunings import sqlite_stack_indexes
from tripleo_ephemeral.engine_tuning.tunings import task_poll_interval
from tripleo_ephemeral.engine_tuning.tunings import template_validate_unhashed
from tripleo_ephemeral.engine_tuning.tunings import thread_safe_ast_parse
from tripleo_ephemeral.engine_tuning.tunings import thread_safe_yaql

#: Seconds a stopping runner gives in-flight work: enough for a fast
#: create to cancel its tree and convert it (1.3-2.5 s measured on a wide
#: create), so the dump holds a consistent convergence tree.
STOP_GRACE: float = 3.0

#: The runner's own settings (the launcher writes them): not tunings.
RUNNER_SETTINGS: tuple[Option, ...] = (
    Option('bind_host', 'host', '127.0.0.1',
           help='Address the API listens on.'),
    Option('bind_port', 'port', 8006, help='Port the API listens on.'),
    Option('stop_grace', 'float', STOP_GRACE, min=0.0,
           help='Seconds a stopping runner gives the engine\'s in-flight '
                'work (and its listeners) before it exits. '
                'Heat\'s own stop waits until the '
                'worker has run every queued resource check, i.e. the whole '
                'create; an ephemeral Heat exits instead (its transactions '
                'are atomic, and a Heat started later on the database marks '
                'the stacks a dead engine left in progress FAILED).'),
)

#: Heat's own ``DEFAULT.executor_thread_pool_size``: (tuned, stock). At a
#: short leaf-trigger delay 64 threads hung a 200-member create (all
#: waiting on nested stacks); 256 did not.
EXECUTOR_THREAD_POOL_SIZE: tuple[int, int] = (256, 64)

#: Every shim, in the order the guard installs them (a shim that wraps
#: what another installed, or checks a target another replaces, says so
#: in its declaration).
SHIMS: tuple[Shim, ...] = tuple(tuning.SHIM for tuning in (
    # Real threads, and the database.
    thread_safe_yaql, thread_safe_ast_parse, sqlite_begin_immediate,
    sqlite_pragmas, sqlite_pool, sqlite_stack_indexes, checkin_yield,
    lean_database_writes, atomic_sync_points,
    # The fast create, and what it does inside.
    fast_create, fast_create_transactions, fast_create_yaql_cache,
    fast_yaql_input, fast_create_release, fast_create_shared_defaults,
    fast_create_lean_rows, fast_create_final_outputs, fast_create_lean_stacks,
    fast_create_lean_resource_data, fast_create_child_environment,
    # The engine's own work outside the fast create.
    leaf_trigger_delay, fast_create_no_yield, task_poll_interval,
    resource_chain_concurrency, lazy_resource_definitions,
    narrow_referenced_attrs, fast_template_parse, template_validate_unhashed,
    fast_snippet_walks, fast_registry_globs, nested_stack_wakeups,
    skip_unconsumed_notifications,
    # The message bus, the RPC server and the garbage collector.
    rpc_idle_poll_max, in_process_bus_wakeup, prompt_executor_stop, gc_freeze,
    gc_thresholds,))


def tunings() -> tuple[Option, ...]:
    """Every tuning option of the shims, in order."""
    return tuple(opt for shim in SHIMS for opt in shim.options)


def tuned(in_process: bool = True) -> list[str]:
    """The names of the shims the tuned settings switch on, for a Heat
    whose engines all run in one process (native, container) or not (a
    pod's): what a launch installs, but the fixes its Python does not
    need."""
    when = 'in_process' if in_process else 'message_bus'
    return [candidate.name for candidate in SHIMS
            if candidate.when in (None, when) and candidate.enabled(
                {opt.name: opt.value(opt.tuned)
                 for opt in candidate.options})]


def shim(name: str) -> Shim:
    """The shim called ``name``."""
    for candidate in SHIMS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)
