"""Yaql's conversion of an expression's input data, plain types first."""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import YAQL
from tripleo_ephemeral.engine_tuning.spec import target


#: Types yaql's conversion hands back as they are.
_LEAVES = frozenset((str, int, float, bool, type(None)))


def install(patches: Patches) -> None:
    """Yaql's conversion of an expression's input data, plain types first.

    Before each evaluation yaql converts its whole input (THT's role data)
    into its own immutable types, asking at every node whether it is a
    ``str``, a ``collections.abc.Sequence``, a ``Mapping``, a
    ``MutableSet`` or an ``Iterable``: abstract base classes, slow to
    ask. Here a node whose exact type is ``str``, a number, a boolean or
    None, a ``list`` or ``tuple``, or a ``dict`` is converted as yaql's
    own code converts it (the same result); anything else goes to yaql's.
    """
    from yaql.language import utils

    stock = utils.convert_input_data
    frozen = utils.FrozenDict

    def convert_input_data(obj, rec=None):
        if rec is None:
            rec = convert_input_data
        kind = type(obj)
        if kind in _LEAVES:
            return obj
        if kind is list or kind is tuple:
            return tuple(rec(t, rec) for t in obj)
        if kind is dict:
            return frozen((rec(key, rec), rec(value, rec))
                          for key, value in obj.items())
        return stock(obj, rec)

    patches.replace(utils, 'convert_input_data', convert_input_data)


SHIM = Shim(
    'fast_yaql_input', install, checked_on=YAQL,
    options=(Option(
        'fast_yaql_input', 'bool', False, True,
        help='Convert a yaql expression\'s input data (THT\'s role '
             'data) into yaql\'s immutable types with exact-type checks '
             'for plain dicts, lists and scalars first (the same result '
             'as yaql\'s own conversion, which asks abstract base '
             'classes at every node).'),),
    targets=(
        target('yaql.language.utils.convert_input_data',
               '71e8c9681b6a011d'),
        # Where an evaluation converts its data.
        target('yaql.language.expressions.Statement.evaluate',
               'fba35f8379c7e5d9')))
