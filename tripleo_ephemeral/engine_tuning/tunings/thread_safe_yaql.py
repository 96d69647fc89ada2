"""Heat's yaql parser behind a lock: a fix for Heat's engine on real
threads.

Heat 27 runs the engine on real threads (oslo.service's threading
backend), where two pieces of state shared by every thread are not safe:
yaql's parser (here) and, on Python 3.11, ``ast.parse``'s depth counter
(:mod:`.thread_safe_ast_parse`).
"""

import functools
import threading

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def serialised(fn):
    """``fn`` behind a lock of its own."""
    lock = threading.Lock()

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with lock:
            return fn(*args, **kwargs)

    wrapper.thread_safe = True
    return wrapper


def install(patches: Patches) -> None:
    """Serialise Heat's yaql parsing.

    Heat keeps one yaql engine per process (``Yaql._parse``), and that is
    one ply lexer and parser whose state lives on the objects, so two
    stacks validated at once corrupt each other's parse and fail with
    "Bad expression Parse error". A parse takes about a millisecond; a lock
    costs nothing measurable.
    """
    from heat.engine.hot import functions

    patches.replace(functions.Yaql, '_parse',
                    serialised(functions.Yaql._parse))


SHIM = Shim(
    'thread_safe_yaql', install, always_on=True, checked_on=HEAT,
    targets=(target('heat.engine.hot.functions.Yaql._parse',
                    '4e9e068c98be2c06'),))
