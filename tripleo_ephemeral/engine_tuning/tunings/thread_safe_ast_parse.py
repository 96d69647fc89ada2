"""``ast.parse`` behind a lock: a fix for Heat's engine on real threads,
which some Pythons need."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import PYTHON
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target
from tripleo_ephemeral.engine_tuning.tunings import thread_safe_yaql


def install(patches: Patches) -> None:
    """Serialise ``ast.parse`` (a fix for Python before 3.12).

    Python 3.11 counts the depth of an AST being converted to Python
    objects in state shared by every thread, so two threads parsing at
    once fail with "SystemError: AST constructor recursion depth mismatch".
    Heat's convergence engine parses on every sync point
    (``sync_point._str_unpack_tuple`` is ``ast.literal_eval``), from many
    threads: 3 of 16 native 200-member creates failed with it here.
    ``literal_eval`` calls ``parse`` through the module, so one lock here
    covers it and every other caller.
    """
    import ast

    patches.replace(ast, 'parse', thread_safe_yaql.serialised(ast.parse))


SHIM = Shim(
    'thread_safe_ast_parse', install, always_on=True,
    checked_on=PYTHON,
    # 3.10 has no such depth check; 3.12 runs the collector only
    # between bytecodes (gh-97922), and 3.11.8 and 3.12.2 keep the depth
    # per call (gh-106905). Measured: eight threads parsing while
    # finalizers switched threads failed within seconds on 3.11.7 and
    # ran clean for 20 s on 3.10.13, 3.12.1 and 3.13.0.
    pythons=((3, 11, 0), (3, 11, 8)),
    unneeded='only Python 3.11.0 to 3.11.7 share the AST constructor\'s '
             'recursion depth between threads',
    targets=(target('ast.parse', '3718cab268c3ffaa'),))
