"""Yaql results remembered for the length of one fast create.

tripleo-heat-templates compute their roles' and services' data with yaql,
and Heat evaluates each expression again whenever it resolves the
properties or attributes that hold it: validation, the create, every
attribute read, every output. A THT 1+1 create evaluated 736 expressions
of which 187 differed in expression or data, each a few milliseconds.

Inside a fast create (:mod:`.fast_create`) an expression evaluated again
on the same data gives a copy of the first result: the same value, never
the same object (a caller may change what it gets). The same data means
the same bytes from ``marshal`` (or, for data it does not take, the same
``repr()``): the types and the order of keys count, as they may for yaql,
and marshal's bytes load back into the very data, so data that differ
never share them (marshal is six times quicker than ``repr()`` on THT's
role data). Expressions naming ``now`` (yaql's clock, its only function
whose result is not decided by its arguments) are always evaluated.
Nothing is kept after the create.
"""

import copy
import hashlib
import marshal

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


_MISSING = object()

#: Marshal's format 2: no back-references (3 and later mark objects by
#: their reference counts, so equal data could give other bytes).
_MARSHAL_VERSION = 2


def install(patches: Patches) -> None:
    """Remember yaql results during each fast create (see the module)."""
    from heat.engine import function
    from heat.engine.hot import functions

    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    stock_result = functions.Yaql.result

    def result(self):
        fast = fast_create.current()
        if fast is None:
            return stock_result(self)
        expression = function.resolve(self._expression)
        if not isinstance(expression, str) or 'now' in expression:
            return stock_result(self)
        data = function.resolve(self._data)
        known = fast.__dict__.setdefault('yaql_results', {})
        key = (expression, _digest(data))
        value = known.get(key, _MISSING)
        if value is _MISSING:
            statement = self._parse(expression)
            value = known[key] = statement.evaluate(
                {'data': data}, self._context.create_child_context())
        return copy.deepcopy(value)

    patches.replace(functions.Yaql, 'result', result)


def _digest(data):
    """A digest that two equal data of the same types (and key order)
    share, and no two others."""
    try:
        text = b'm' + marshal.dumps(data, _MARSHAL_VERSION)
    except ValueError:  # a type marshal does not take (subclasses too)
        text = b'r' + repr(data).encode('utf-8', 'surrogatepass')
    return hashlib.blake2b(text).digest()


SHIM = Shim(
    # After fast_create: only inside a fast create.
    'fast_create_yaql_cache', install, checked_on=HEAT,
    options=(Option(
        'fast_create_yaql_cache', 'bool', False, True,
        help='During a fast create, give a copy of the first result '
             'when a yaql expression is evaluated again on the same '
             'data (expressions naming now are always evaluated).'),),
    targets=(
        # What result() evaluates: the expression on the data.
        target('heat.engine.hot.functions.Yaql.result',
               '5fc27f2d92846592'),
        target('heat.engine.hot.functions.Yaql.__init__',
               '4ca08943861317bb')))
