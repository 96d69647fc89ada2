"""Every engine tuning shim, declared once (:mod:`.spec`). No Heat here.

The declarations are in four parts by topic, assembled into
:data:`SHIMS` here in the order the guard installs them:
:mod:`.shims_database` (real threads and the database),
:mod:`.shims_create` (the fast create), :mod:`.shims_engine` (the
engine's other work) and :mod:`.shims_process` (the message bus, the RPC
server and the garbage collector).

A shim is switched on by the first ``[ephemeral_heat]`` option it lists
(unless it is always on), and replaces or relies on the targets it lists,
each with the fingerprints (:mod:`.fingerprint`) of the source it was
checked on (the releases are in :mod:`.spec`). The runner's options
(``runner.options.OPTS``), the launcher's tuned and stock values
(``heat_launcher.tuning.Tuning``), the guard and the tests all come from
here.

To re-check on a new release: ``python tools/check_tuning.py`` prints
each target's fingerprint beside the recorded ones. Read the diff of each
target that changed, fix the shim if it must change, then add the new
fingerprint to its part (keep the old ones while those releases are
supported) and the release to ``checked_on``.
"""
from tripleo_ephemeral.engine_tuning import shims_create
from tripleo_ephemeral.engine_tuning import shims_database
from tripleo_ephemeral.engine_tuning import shims_engine
from tripleo_ephemeral.engine_tuning import shims_process
from tripleo_ephemeral.engine_tuning.spec import Option

#: Seconds a stopping runner gives in-flight work: enough for a fast
#: create to cancel its tree and convert it (1.3-2.5 s measured on a wide
#: create), so the dump holds a consistent convergence tree.
STOP_GRACE = 3.0

#: The runner's own settings (the launcher writes them): not tunings.
RUNNER_SETTINGS = (
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
EXECUTOR_THREAD_POOL_SIZE = (256, 64)

#: Every shim, in the order the guard installs them.
SHIMS = (shims_database.SHIMS + shims_create.SHIMS + shims_engine.SHIMS +
         shims_process.SHIMS)


def tunings():
    """Every tuning option of the shims, in order."""
    return tuple(opt for shim in SHIMS for opt in shim.options)


def tuned(in_process=True):
    """The names of the shims the tuned settings switch on, for a Heat
    whose engines all run in one process (native, container) or not (a
    pod's): what a launch installs, but the fixes its Python does not
    need."""
    when = 'in_process' if in_process else 'message_bus'
    return [candidate.name for candidate in SHIMS
            if candidate.when in (None, when) and candidate.enabled(
                {opt.name: opt.value(opt.tuned)
                 for opt in candidate.options})]


def shim(name):
    """The shim called ``name``."""
    for candidate in SHIMS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)
