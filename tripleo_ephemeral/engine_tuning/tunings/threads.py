"""Fixes for Heat on real threads: always on.

Heat 27 runs the engine on real threads (oslo.service's threading
backend), where two pieces of state shared by every thread are not safe.
"""

import functools
import threading


def serialised(fn):
    """``fn`` behind a lock of its own."""
    lock = threading.Lock()

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with lock:
            return fn(*args, **kwargs)

    wrapper.thread_safe = True
    return wrapper


def install_thread_safe_yaql(patches):
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

    patches.replace(ast, 'parse', serialised(ast.parse))
