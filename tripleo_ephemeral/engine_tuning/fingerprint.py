"""Fingerprints of the code a shim replaces or relies on: its targets,
named by their dotted paths (:mod:`.targets` finds what a path names).

* A function's fingerprint is a hash of its syntax tree: comments,
  docstrings, layout and type annotations do not count, only code does.
  The tree is written out by :func:`_dump`, not by ``ast.unparse``, whose
  text changes between Pythons (3.11 writes ``a, b = x`` where 3.10 wrote
  ``(a, b) = x``): the same code has the same fingerprint on every Python
  from 3.10 to 3.13. A function that wraps another (functools.wraps) is
  hashed with it: a decorator's wrapper runs too, and so does anything put
  in the target's place.
* Anything else (a module constant, a module a shim swaps) is fingerprinted
  by its value and by the functions of its module that read it: the source
  of every function and method there whose code names it.

Importing this module imports nothing of Heat; :func:`fingerprint` imports
the target's module.
"""

import ast
import hashlib
import inspect
import linecache
import tokenize
import types
from collections.abc import Callable

from tripleo_ephemeral.engine_tuning import targets

#: Hex digits kept of a SHA-256: plenty to tell two sources apart.
LENGTH = 16


def fingerprint(path: str) -> str:
    """The fingerprint of the target ``path`` as installed here."""
    return _digest(_text(path, _dumped))


def normalised(path: str) -> str:
    """The target's source without comments, docstrings or layout (for a
    value, the value and the source of each function that reads it), as
    this Python's ``ast.unparse`` writes it: what the fingerprint is taken
    of, to read. Diff it between two installs of one Python to see what
    changed."""
    return _text(path, _source)


def _text(path: str, render: Callable[[types.FunctionType], str]) -> str:
    """The target's functions, each written by ``render``."""
    module, value, dialect = targets.resolve(path)
    if dialect is not None:
        return '\n'.join(render(fn) for fn in targets.dialect_functions(
            path, value, dialect))
    fn = targets.function_of(value)
    if fn is not None:
        return '\n'.join(render(f) for f in targets.wrapped_chain(fn))
    name = path.rsplit('.', 1)[-1]
    return '\n'.join(['# value %s' % targets.describe(value)] + [
        '# read by %s\n%s' % (qualname, render(reader))
        for qualname, reader in targets.readers(module, name)])


def _source(fn):
    """``fn``'s source without comments, docstrings or layout."""
    tree, text = _tree(fn)
    return text if tree is None else ast.unparse(tree)


def _dumped(fn):
    """``fn``'s syntax tree as text (:func:`_dump`)."""
    tree, text = _tree(fn)
    return text if tree is None else _dump(tree)


def _tree(fn):
    """(syntax tree without docstrings, None) of ``fn``; (None, its text
    with the layout squeezed) when it does not parse alone."""
    texts = []
    for text in _source_texts(fn):
        if text[:1].isspace():  # a method: parse it inside a block
            text = 'if 1:\n' + text
        try:
            tree = ast.parse(text)
        except SyntaxError:
            texts.append(text)
            continue
        _drop_docstrings(tree.body)
        return tree, None
    if not texts:
        raise targets.TargetMissing('%s: no source' % fn.__qualname__)
    # A lambda cut out of its line: keep the text.
    return None, ' '.join(texts[-1].split())


#: Fields of no consequence to what the code does: type annotations (a
#: library that adds them, as futurist 3.3 did, has not changed its code)
#: and type comments.
_IGNORED_FIELDS = frozenset(('annotation', 'returns', 'type_comment'))


def _dump(node):
    """``node`` as its type and fields, without positions or type
    annotations. A field that is None or an empty list is left out, and so
    is an empty string in an f-string, so each Python from 3.10 to 3.13
    writes the same text for the same code (3.12 gave every definition an
    empty ``type_params``; 3.12.1 ends an f-string's nested format spec
    with an empty string)."""
    if isinstance(node, ast.AST):
        return '%s(%s)' % (type(node).__name__, ', '.join(
            '%s=%s' % (name, _dump(_no_empty_strings(node, value)))
            for name, value in ast.iter_fields(node)
            if name not in _IGNORED_FIELDS and value is not None and
            not (isinstance(value, list) and not value)))
    if isinstance(node, list):
        return '[%s]' % ', '.join(_dump(item) for item in node)
    return repr(node)


def _no_empty_strings(node, value):
    """An f-string's parts (``value``) without the empty strings."""
    if not isinstance(node, ast.JoinedStr) or not isinstance(value, list):
        return value
    return [part for part in value if not (
        isinstance(part, ast.Constant) and part.value == '')]


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


def _source_texts(fn):
    """The lines of ``fn``'s definition, decorators included: the first
    way that gives them, then the next (for one that does not parse).

    From its first line to the last its code (nested functions included)
    spans (Python 3.11's ``co_positions``), and on while the lines are
    blank, comments or indented deeper than its first: the compiler drops
    code that cannot run (a ``return`` after one in every branch), which
    counts all the same. Then what ``inspect.getblock`` finds by
    tokenizing the rest of the file, twice as slow: Python 3.10's way, and
    the one for a body that is only a docstring (no code to span). Not
    ``inspect.getsource``, but as a last resort: it gives the source of
    the function a wrapper wraps, not the wrapper's.
    """
    code = fn.__code__
    lines = linecache.getlines(code.co_filename)
    if lines:
        first = code.co_firstlineno - 1
        last = _last_line(code) if hasattr(code, 'co_positions') else None
        if last:
            yield ''.join(lines[first:_block_end(lines, first, last)])
        try:
            yield ''.join(inspect.getblock(lines[first:]))
        except (SyntaxError, tokenize.TokenError):
            pass
    try:
        text = inspect.getsource(fn)
    except (OSError, TypeError) as exc:
        if not lines:
            raise targets.TargetMissing('%s: no source (%s)' % (
                getattr(fn, '__qualname__', fn), exc)) from None
    else:
        yield text


def _block_end(lines, first, last):
    """The index after the block that starts at ``lines[first]``, known to
    reach ``lines[last - 1]`` at least."""
    indent = len(lines[first]) - len(lines[first].lstrip())
    end = max(last, first + 1)
    while end < len(lines):
        text = lines[end].strip()
        if (text and not text.startswith('#') and
                len(lines[end]) - len(lines[end].lstrip()) <= indent):
            break
        end += 1
    return end


def _last_line(code):
    last = max((end for _, end, _, _ in code.co_positions() if end),
               default=0)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:LENGTH]
