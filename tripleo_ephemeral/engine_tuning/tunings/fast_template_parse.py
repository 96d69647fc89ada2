"""A faster template parser.

Heat's parser asks the abstract base classes whether each node of a
template is a mapping or a sequence, which took a quarter of its time;
here it checks for the plain dicts, lists and strings a template is made
of first.
"""

import collections.abc
import functools

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


_SCALARS = frozenset((str, int, float, bool, type(None)))


def fast_parser():
    """Heat's ``heat.engine.template.parse``, with exact-type fast paths.

    Made when asked for: Heat is imported then (the registry reads this
    module without Heat).
    """
    from heat.common import exception as heat_exception
    from heat.engine import function as heat_function

    def fast_parse(functions, stack, snippet, path='', template=None):
        kind = type(snippet)
        if kind in _SCALARS:
            return snippet
        if kind is dict or (kind is not list and
                            isinstance(snippet, collections.abc.Mapping)):
            if len(snippet) == 1:
                fn_name, args = next(iter(snippet.items()))
                func = functions.get(fn_name)
                if func is not None:
                    path = '.'.join([path, fn_name])
                    try:
                        if (isinstance(func, type) and
                                issubclass(func, heat_function.Macro)):
                            return func(stack, fn_name, args,
                                        functools.partial(
                                            fast_parse, functions, stack,
                                            path=path, template=template),
                                        template)
                        return func(stack, fn_name, fast_parse(
                            functions, stack, args, path, template))
                    except (ValueError, TypeError, KeyError) as e:
                        raise heat_exception.StackValidationFailed(
                            path=path, message=str(e))
            return {k: fast_parse(functions, stack, v,
                                  '.'.join([path, str(k)]), template)
                    for k, v in snippet.items()}
        if kind is list or (not isinstance(snippet, str) and
                            isinstance(snippet, collections.abc.Iterable)):
            return [fast_parse(functions, stack, v,
                               ''.join([path, '[%d]' % i]), template)
                    for i, v in enumerate(snippet)]
        return snippet

    return fast_parse


def install(patches: Patches) -> None:
    """Make ``Template.parse`` the :func:`fast_parser`."""
    from heat.engine import template

    patches.replace(template, 'parse', fast_parser())


SHIM = Shim(
    'fast_template_parse', install, checked_on=HEAT,
    options=(Option(
        'fast_template_parse', 'bool', False, True,
        help='Parse templates with exact-type checks first (same '
             'results as Heat\'s parser, faster).'),),
    targets=(target('heat.engine.template.parse', 'c17ef784deb8bc28'),))
