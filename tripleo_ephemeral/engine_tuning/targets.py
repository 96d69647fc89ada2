"""What a target's dotted path names in the installed code.

A target is named by a dotted path: ``heat.engine.template.parse``,
``heat.engine.stack.Stack.dispatch_event``, or, for one dialect's function
of an oslo.db dispatcher, ``oslo_db.sqlalchemy.engines._init_events[sqlite]``.
Here a path is resolved to the module and object it names, a target to the
functions whose code counts (:mod:`.fingerprint` hashes them), and an
attribute a shim replaces to its path (:class:`.patching.Patches` records
it). Importing this module imports nothing of Heat; :func:`resolve`
imports the target's module.
"""

import importlib
import inspect
import types
import typing
from collections.abc import Iterator


class TargetMissing(LookupError):
    """The target does not exist (or has no source) in this library."""


def readers(module: types.ModuleType,
            name: str) -> list[tuple[str, types.FunctionType]]:
    """(qualified name, function) of everything in ``module`` that names
    ``name`` in its code (as a global or an attribute), sorted."""
    found = {}
    for qualname, fn in _functions(module):
        if _names(fn.__code__, name):
            found[qualname] = fn
    return sorted(found.items())


def resolve(path: str) -> tuple[types.ModuleType, typing.Any, str | None]:
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


def owner_and_name(path: str) -> tuple[typing.Any, str]:
    """The module or class that holds the target ``path``, and its name
    there."""
    module, _value, _dialect = resolve(path)
    owner_path, name = path.rsplit('.', 1)
    if owner_path == module.__name__:
        return module, name
    return resolve(owner_path)[1], name


def held(path: str) -> typing.Any:
    """The object at ``path`` as its owner holds it (a class's own entry,
    not what the attribute lookup binds)."""
    owner, name = owner_and_name(path)
    return (owner.__dict__.get(name) if isinstance(owner, type)
            else getattr(owner, name))


def path_of(owner: object, name: str) -> str:
    """The dotted path of the attribute ``name`` of ``owner``: the inverse
    of :func:`owner_and_name` for a module or a class (an instance's is
    its class's path, then ``()``)."""
    if isinstance(owner, types.ModuleType):
        return '%s.%s' % (owner.__name__, name)
    if isinstance(owner, type):
        return '%s.%s.%s' % (owner.__module__, owner.__qualname__, name)
    return '%s().%s' % (path_of(type(owner), '')[:-1], name)


def dialect_functions(path: str, dispatcher: typing.Any,
                      dialect: str) -> list[types.FunctionType]:
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


def function_of(member: object) -> types.FunctionType | None:
    """The function object a target names (behind a method, static or class
    method or property); None for anything that is not a Python
    function."""
    if isinstance(member, (staticmethod, classmethod)):
        member = member.__func__
    elif isinstance(member, property):
        member = member.fget
    member = getattr(member, '__func__', member)  # bound methods
    return member if isinstance(member, types.FunctionType) else None


def wrapped_chain(fn: types.FunctionType) -> list[types.FunctionType]:
    """``fn`` and the functions it wraps (functools.wraps' ``__wrapped__``),
    outermost first: a decorator's wrapper is code that runs too, and so
    is a wrapper someone put in the target's place."""
    chain = [fn]
    while len(chain) < 10:
        inner = getattr(fn, '__wrapped__', None)
        if not isinstance(inner, types.FunctionType):
            break
        fn = inner
        chain.append(fn)
    return chain


def _defined(member: object,
             module_name: str) -> types.FunctionType | None:
    """The function of ``module_name`` a class or module attribute was
    defined as: behind decorators, even those that did not use
    functools.wraps (their wrapper is another module's)."""
    fn = function_of(member)
    if fn is None:
        return None
    fn = typing.cast(types.FunctionType, inspect.unwrap(fn))
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


def _functions(
        module: types.ModuleType) -> Iterator[tuple[str, types.FunctionType]]:
    """(qualified name, function) of the module's own functions and the
    methods of its own classes (not those a class got from the standard
    library, as an enum's or a namedtuple's, whose code is the running
    Python's)."""
    for key, value in list(vars(module).items()):
        if getattr(value, '__module__', None) != module.__name__:
            continue
        if isinstance(value, type):
            for attr, member in list(vars(value).items()):
                fn = _defined(member, module.__name__)
                if fn is not None and fn.__code__.co_filename == getattr(
                        module, '__file__', None):
                    yield '%s.%s' % (key, attr), fn
        else:
            fn = _defined(value, module.__name__)
            if fn is not None:
                yield key, fn


def _names(code: types.CodeType, name: str) -> bool:
    """Whether ``code`` or a function nested in it names ``name``."""
    if name in code.co_names:
        return True
    return any(_names(const, name) for const in code.co_consts
               if isinstance(const, types.CodeType))


def describe(value: object) -> str:
    if isinstance(value, types.ModuleType):
        return 'module %s' % value.__name__
    if isinstance(value, (bool, int, float, str, bytes, type(None))):
        return repr(value)
    return type(value).__qualname__
