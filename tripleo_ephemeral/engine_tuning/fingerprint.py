"""Fingerprints of the code a shim replaces or relies on.

A target is named by a dotted path: ``heat.engine.template.parse``,
``heat.engine.stack.Stack.dispatch_event``, or, for one dialect's function
of an oslo.db dispatcher, ``oslo_db.sqlalchemy.engines._init_events[sqlite]``.

* A function's fingerprint is a hash of its source, normalised: comments,
  docstrings and layout do not count (the source is parsed and written back
  by :mod:`ast`), only code does. A function that wraps another
  (functools.wraps) is hashed with it: a decorator's wrapper runs too, and
  so does anything put in the target's place.
* Anything else (a module constant, a module a shim swaps) is fingerprinted
  by its value and by the functions of its module that read it: the source
  of every function and method there whose code names it.

Importing this module imports nothing of Heat; :func:`fingerprint` imports
the target's module.
"""

import ast
import hashlib
import importlib
import inspect
import linecache
import types

#: Hex digits kept of a SHA-256: plenty to tell two sources apart.
LENGTH = 16


class TargetMissing(LookupError):
    """The target does not exist (or has no source) in this library."""


def fingerprint(path):
    """The fingerprint of the target ``path`` as installed here."""
    return _digest(normalised(path))


def normalised(path):
    """The text :func:`fingerprint` hashes: the target's source without
    comments, docstrings or layout (for a value, the value and the source
    of each function that reads it). Diff it between two installs to see
    what changed."""
    module, value, dialect = _resolve(path)
    if dialect is not None:
        return '\n'.join(_source(fn) for fn in _dialect_functions(
            path, value, dialect))
    fn = _function(value)
    if fn is not None:
        return '\n'.join(_source(f) for f in _wrapped_chain(fn))
    name = path.rsplit('.', 1)[-1]
    return '\n'.join(['# value %s' % _describe(value)] + [
        '# read by %s\n%s' % (qualname, _source(reader))
        for qualname, reader in readers(module, name)])


def readers(module, name):
    """(qualified name, function) of everything in ``module`` that names
    ``name`` in its code (as a global or an attribute), sorted."""
    found = {}
    for qualname, fn in _functions(module):
        if _names(fn.__code__, name):
            found[qualname] = fn
    return sorted(found.items())


def _resolve(path):
    """(module, object, dialect) named by ``path``."""
    dialect = None
    if path.endswith(']'):
        path, _, dialect = path[:-1].partition('[')
    parts = path.split('.')
    module = None
    for i in range(len(parts), 0, -1):
        name = '.'.join(parts[:i])
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # not a module: an attribute of a shorter one
            raise TargetMissing('%s: %s' % (path, exc)) from None
        except ImportError as exc:
            raise TargetMissing('%s: %s' % (path, exc)) from None
        rest = parts[i:]
        break
    if module is None:
        raise TargetMissing('%s: no such module' % path)
    value = module
    for name in rest:
        try:
            value = getattr(value, name)
        except AttributeError:
            raise TargetMissing('%s: no attribute %s' % (path, name)) from None
    return module, value, dialect


def _dialect_functions(path, dispatcher, dialect):
    """The functions an oslo.db dialect dispatcher registered for
    ``dialect`` (any driver)."""
    try:
        entry = dispatcher.reg[dialect]['*']
    except (AttributeError, KeyError, TypeError):
        raise TargetMissing('%s[%s]: no such dialect function' % (
            path, dialect)) from None
    fns = entry if isinstance(entry, list) else [entry]
    if not fns:
        raise TargetMissing('%s[%s]: no such dialect function' % (
            path, dialect))
    return fns


def _function(member):
    """The function object a target names (behind a method, static or class
    method or property); None for anything that is not a Python
    function."""
    if isinstance(member, (staticmethod, classmethod)):
        member = member.__func__
    elif isinstance(member, property):
        member = member.fget
    member = getattr(member, '__func__', member)  # bound methods
    return member if isinstance(member, types.FunctionType) else None


def _wrapped_chain(fn):
    """``fn`` and the functions it wraps (functools.wraps' ``__wrapped__``),
    outermost first: a decorator's wrapper is code that runs too, and so
    is a wrapper someone put in the target's place."""
    chain = [fn]
    while (isinstance(getattr(fn, '__wrapped__', None), types.FunctionType)
           and len(chain) < 10):
        fn = fn.__wrapped__
        chain.append(fn)
    return chain


def _defined(member, module_name):
    """The function of ``module_name`` a class or module attribute was
    defined as: behind decorators, even those that did not use
    functools.wraps (their wrapper is another module's)."""
    fn = _function(member)
    if fn is None:
        return None
    fn = inspect.unwrap(fn)
    if fn.__module__ != module_name:
        for cell in fn.__closure__ or ():
            try:
                inner = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if (isinstance(inner, types.FunctionType)
                    and inner.__module__ == module_name):
                return inner
    return fn


def _functions(module):
    """(qualified name, function) of the module's own functions and the
    methods of its own classes."""
    for key, value in list(vars(module).items()):
        if getattr(value, '__module__', None) != module.__name__:
            continue
        if isinstance(value, type):
            for attr, member in list(vars(value).items()):
                fn = _defined(member, module.__name__)
                if fn is not None:
                    yield '%s.%s' % (key, attr), fn
        else:
            fn = _defined(value, module.__name__)
            if fn is not None:
                yield key, fn


def _names(code, name):
    """Whether ``code`` or a function nested in it names ``name``."""
    if name in code.co_names:
        return True
    return any(_names(const, name) for const in code.co_consts
               if isinstance(const, types.CodeType))


def _describe(value):
    if isinstance(value, types.ModuleType):
        return 'module %s' % value.__name__
    if isinstance(value, (bool, int, float, str, bytes, type(None))):
        return repr(value)
    return type(value).__qualname__


def _source(fn):
    """``fn``'s source without comments, docstrings or layout."""
    text = _source_text(fn)
    if text[:1].isspace():  # a method: parse it inside a block
        text = 'if 1:\n' + text
    try:
        tree = ast.parse(text)
    except SyntaxError:  # a lambda cut out of its line: keep the text
        return ' '.join(text.split())
    _drop_docstrings(tree.body)
    return ast.unparse(tree)


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BLOCKS = ('body', 'orelse', 'finalbody', 'handlers')


def _drop_docstrings(statements):
    """Remove the docstring of every definition among ``statements`` and
    the blocks nested in them (statements only: quicker than a full walk)."""
    for node in statements:
        if isinstance(node, _DEFS):
            body = node.body
            if (isinstance(body[0], ast.Expr) and
                    isinstance(body[0].value, ast.Constant) and
                    isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
        for block in _BLOCKS:
            nested = getattr(node, block, None)
            if nested:
                _drop_docstrings(nested)


def _source_text(fn):
    """The lines of ``fn``'s definition, decorators included.

    From its first line to the last its code (nested functions included)
    spans, which is what ``inspect.getsource`` finds by tokenizing the
    rest of the file, three times slower; that is the fallback.
    """
    code = fn.__code__
    lines = linecache.getlines(code.co_filename)
    last = _last_line(code) if hasattr(code, 'co_positions') else None
    if lines and last:
        return ''.join(lines[code.co_firstlineno - 1:last])
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError) as exc:
        raise TargetMissing('%s: no source (%s)' % (
            getattr(fn, '__qualname__', fn), exc)) from None


def _last_line(code):
    last = max((end for _, end, _, _ in code.co_positions() if end),
               default=0)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def _digest(text):
    return hashlib.sha256(text.encode()).hexdigest()[:LENGTH]
