"""``ast.parse`` serialised: a fix for Heat on real threads on Python 3.11.0
to 3.11.7, always on there."""

from tripleo_ephemeral.engine_tuning.tunings import thread_safe_yaql


def install_thread_safe_ast_parse(patches):
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
