"""The root's parameter_defaults encoded once per fast create.

Every nested stack stores its environment with its template, and Heat
builds a child's environment from its parent's: its parameter_defaults
are a new dict holding the very same values as the root's (the
deployment's, never changed by Heat: a parameter takes its default
through ``JsonParam.parse``, a copy). On tripleo-heat-templates those
values carry maps of every node (``HostnameMap``, ``DeployedServerPortMap``,
``NodePortMap``...), so each stored environment grows with the nodes and
so does the number of nested stacks: JSON-encoding them is quadratic in
the nodes (25 MB of parameter_defaults stored at 3+50, 97 MB at 3+150).
Every per-node stack also validates and reads those maps as JSON
parameters, each parse a JSON round trip of the whole map.

Inside a fast create (:mod:`.fast_create`) each value of a stored
environment's parameter_defaults is encoded once: the text of a value is
kept beside the value itself and used again when the same object (``is``)
comes back, in a later environment or in ``JsonParam.parse`` (which then
only decodes it: the parameter still gets its own copy). The rows are
those stock Heat writes, byte for byte: an environment is the JSON of
its items joined as ``json.dumps`` joins them, and a value is kept only
when plain ``json.dumps`` encodes it (``JsonParam.parse``'s encoder, and
what oslo's encoder gives when it converts nothing). Nothing is kept
after the create.
"""

import json

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

#: JSON's join of a dict's items and of a key and its value, as
#: ``json.dumps`` writes them with its default separators.
_ITEMS = ', '
_KEY = ': '
_DEFAULTS = 'parameter_defaults'


class EncodedValues:
    """The JSON text of values seen in one fast create, by identity."""

    def __init__(self):
        self._known = {}  # id -> (the value, its text); the value held
        self.hits = 0

    def text(self, value):
        """The kept text of ``value`` (this very object), or None."""
        known = self._known.get(id(value))
        if known is not None and known[0] is value:
            self.hits += 1
            return known[1]
        return None

    def encode(self, value, stock_dumps):
        """``stock_dumps(value)``, kept for the next time when plain
        ``json.dumps`` encodes it (converting nothing)."""
        text = self.text(value)
        if text is not None:
            return text
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):
            return stock_dumps(value)
        self._known[id(value)] = (value, text)
        return text

    def encode_environment(self, env, stock_dumps):
        """``stock_dumps(env)`` of an environment dict, its
        parameter_defaults' values encoded once; None when it has a key
        that is not a string (JSON would convert it)."""
        parts = []
        for key, value in env.items():
            if type(key) is not str:
                return None
            if key == _DEFAULTS and type(value) is dict:
                text = self._encode_defaults(value, stock_dumps)
                if text is None:
                    return None
            else:
                text = stock_dumps(value)
            parts.append(json.dumps(key) + _KEY + text)
        return '{' + _ITEMS.join(parts) + '}'

    def _encode_defaults(self, defaults, stock_dumps):
        parts = []
        for key, value in defaults.items():
            if type(key) is not str:
                return None
            parts.append(json.dumps(key) + _KEY +
                         self.encode(value, stock_dumps))
        return '{' + _ITEMS.join(parts) + '}'


def _values():
    """The encoded values of this thread's fast create, or None."""
    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    fast = fast_create.current()
    if fast is None:
        return None
    values = fast.__dict__.get('encoded_values')
    if values is None:
        values = fast.__dict__['encoded_values'] = EncodedValues()
    return values


def install(patches: Patches) -> None:
    """Encode the root's parameter_defaults once per fast create (see the
    module)."""
    from heat.db import types
    from heat.engine import parameters
    from oslo_serialization import jsonutils

    stock_dumps = types.dumps
    stock_parse = parameters.JsonParam.parse

    # Replaced as the module's name that Json.process_bind_param calls:
    # SQLAlchemy keeps each column's bind processor, with the method it
    # found first.
    def dumps(value, *args, **kwargs):
        if (not args and not kwargs and type(value) is dict and
                type(value.get(_DEFAULTS)) is dict):
            values = _values()
            if values is not None:
                text = values.encode_environment(value, stock_dumps)
                if text is not None:
                    return text
        return stock_dumps(value, *args, **kwargs)

    def parse(self, value):
        if not isinstance(value, str):
            values = _values()
            text = values.text(value) if values is not None else None
            if text is not None:
                return jsonutils.loads(text)
        return stock_parse(self, value)

    patches.replace(types, 'dumps', dumps)
    patches.replace(parameters.JsonParam, 'parse', parse)


SHIM = Shim(
    # After fast_create: only inside a fast create.
    'fast_create_shared_defaults', install, checked_on=HEAT[:1],
    options=(Option(
        'fast_create_shared_defaults', 'bool', False, True,
        help='During a fast create, JSON-encode each value of the '
             'parameter_defaults that every nested stack\'s stored '
             'environment carries once, and parse a JSON parameter '
             'whose value is one of them from that text (the same '
             'rows and values as stock Heat).'),),
    targets=(
        # The name Json.process_bind_param calls (fingerprinted with
        # the functions that read it).
        target('heat.db.types.dumps', '90e2dac4be9c4518'),
        target('heat.engine.parameters.JsonParam.parse',
               '6217f7f9df4b2e2b'),
        # Why the values come back: a child's parameter_defaults are
        # a new dict of its parent's values.
        target('heat.engine.environment.get_child_environment',
               '79c8f6e1811feccf'),
        target('heat.engine.environment.Environment.load',
               '53c6ba418154edd9'),
        target('heat.engine.environment.Environment.env_as_dict',
               'a7ae6a7fb60ea5af'),
        target('heat.engine.environment.Environment.user_env_as_dict',
               '9fb1f1a338fb2f89')))
