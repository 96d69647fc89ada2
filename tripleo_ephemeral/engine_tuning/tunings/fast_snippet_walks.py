"""Heat's walks over parsed template snippets, plain types looked at first.

Heat resolves, validates and hashes a parsed snippet, and finds what it
depends on, by walking it: at every node it asks whether it is a
``Function``, a ``collections.abc.Mapping`` or a non-string
``collections.abc.Iterable``, and those are abstract base classes whose
``isinstance`` is some ten times a plain type check. A parsed template is
plain dicts, lists and scalars around the functions, and on
tripleo-heat-templates these walks asked two million such questions per
THT 1+1 create (with yaql's own conversion of its input, the largest part
of the engine's CPU left outside the database). Here each walk first
looks at the node's exact type: a ``str``, number, boolean or None is a
leaf, a ``dict`` a mapping and a ``list`` a sequence, and they are walked
as Heat's own code walks them (the same order, paths and filters); any
other node (a function, a tuple, a user's mapping) goes to Heat's own
code. As :func:`.fast_template_parse.fast_parser` does for
``Template.parse``.
"""

import functools
import itertools
import operator

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

_LEAVES = frozenset((str, int, float, bool, type(None)))


def install(patches: Patches) -> None:
    """Exact-type fast paths in Heat's snippet walks (see the module)."""
    from heat.engine import function
    from heat.engine import rsrc_defn

    stock_resolve = function.resolve
    non_null_item = function._non_null_item
    non_null_value = function._non_null_value

    def resolve(snippet, nullable=False):
        kind = type(snippet)
        if kind in _LEAVES:
            return snippet
        if kind is dict:
            return dict(filter(non_null_item,
                               ((k, resolve(v, nullable=True))
                                for k, v in snippet.items())))
        if kind is list:
            return list(filter(non_null_value,
                               (resolve(v, nullable=True) for v in snippet)))
        return stock_resolve(snippet, nullable)

    stock_validate = function.validate

    def validate(snippet, path=None):
        kind = type(snippet)
        if kind in _LEAVES:
            return
        if path is None:
            path = []
        elif isinstance(path, str):
            path = [path]
        if kind is dict:
            for k, v in snippet.items():
                validate(v, path + [k])
        elif kind is list:
            basepath = list(path)
            parent = basepath.pop() if basepath else ''
            for i, v in enumerate(snippet):
                validate(v, basepath + ['%s[%d]' % (parent, i)])
        else:
            stock_validate(snippet, path)

    stock_dependencies = function.dependencies

    def dependencies(snippet, path=''):
        kind = type(snippet)
        if kind in _LEAVES:
            return []
        if kind is dict:
            return itertools.chain.from_iterable(
                dependencies(value, '.'.join([path, str(key)]))
                for key, value in snippet.items())
        if kind is list:
            return itertools.chain.from_iterable(
                dependencies(value, ''.join([path, '[%d]' % i]))
                for i, value in enumerate(snippet))
        return stock_dependencies(snippet, path)

    stock_dep_attrs = function.dep_attrs

    def dep_attrs(snippet, resource_name):
        kind = type(snippet)
        if kind in _LEAVES:
            return []
        if kind is dict:
            return itertools.chain.from_iterable(
                dep_attrs(val, resource_name) for val in snippet.values())
        if kind is list:
            return itertools.chain.from_iterable(
                dep_attrs(value, resource_name) for value in snippet)
        return stock_dep_attrs(snippet, resource_name)

    stock_all_dep_attrs = function.all_dep_attrs

    def all_dep_attrs(snippet):
        kind = type(snippet)
        if kind in _LEAVES:
            return []
        if kind is dict:
            return itertools.chain.from_iterable(
                all_dep_attrs(value) for value in snippet.values())
        if kind is list:
            return itertools.chain.from_iterable(
                all_dep_attrs(value) for value in snippet)
        return stock_all_dep_attrs(snippet)

    stock_hash = rsrc_defn._hash_data

    def _hash_data(data):
        kind = type(data)
        if kind in _LEAVES:
            return hash(data)
        if kind is list:
            return hash(tuple(_hash_data(d) for d in data))
        if kind is dict:
            return functools.reduce(operator.xor, (
                hash(k) ^ _hash_data(v) for k, v in data.items()), 0)
        return stock_hash(data)

    for name, fn in (('resolve', resolve), ('validate', validate),
                     ('dependencies', dependencies),
                     ('dep_attrs', dep_attrs),
                     ('all_dep_attrs', all_dep_attrs)):
        patches.replace(function, name, fn)
    patches.replace(rsrc_defn, '_hash_data', _hash_data)


SHIM = Shim(
    # After narrow_referenced_attrs, which relies on (and checks) the
    # attribute walks this replaces.
    'fast_snippet_walks', install, checked_on=HEAT,
    options=(Option(
        'fast_snippet_walks', 'bool', False, True,
        help='Resolve, validate, hash and find the dependencies and '
             'attributes of template snippets with exact-type checks '
             'for their plain dicts, lists and scalars first (the same '
             'walks and results as Heat\'s, which asks abstract base '
             'classes at every node).'),),
    targets=(
        target('heat.engine.function.resolve', '97c0df6e8f40c526'),
        target('heat.engine.function._non_null_item',
               '34b2f1dd050df00d'),
        target('heat.engine.function._non_null_value',
               '49ac839794ecdd09'),
        target('heat.engine.function.validate', 'b11f625b46aa2cb0'),
        target('heat.engine.function.dependencies', 'd5ebd06581d9a636'),
        target('heat.engine.function.dep_attrs', 'b8163258985f9f1b'),
        target('heat.engine.function.all_dep_attrs', '4d6cd809fa9a7d64'),
        target('heat.engine.rsrc_defn._hash_data', '7786409a2e3275f7')))
