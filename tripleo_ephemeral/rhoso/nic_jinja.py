"""NIC templates rendered as Ansible renders them, in jinja2's sandbox.

Templates come from documents someone else wrote (``adoption validate``),
so they render in jinja2's sandbox (no attribute starting with ``_``, no
unsafe call: ``cycler.__init__.__globals__`` is refused), with a budget:
at most :data:`MAX_ITEMS` loop items made by ``range`` in one render, no
sequence or string multiplied past it, no power of more than
:data:`MAX_EXPONENT`. StrictUndefined, None rendered as nothing,
``lookup('vars', ...)`` and the few Ansible filters NIC templates use.
"""

import json

import jinja2
import jinja2.sandbox
import yaml

from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import edpm_inventory

GLOBALS = frozenset(['lookup', 'range', 'dict', 'lipsum', 'cycler',
                     'joiner', 'namespace'])
#: What one render may make: items of ``range`` (all calls together), and
#: the length of a multiplied sequence or string.
MAX_ITEMS = 100000
MAX_EXPONENT = 64


class RenderError(Exception):
    """A template could not be rendered with a side's variables."""


def _bool(value):
    if isinstance(value, str):
        return value.strip().lower() in ('yes', 'on', '1', 'true', 't', 'y')
    return bool(value)


@jinja2.pass_context
def _lookup(context, kind, *names, **kwargs):
    if kind != 'vars':
        raise RenderError('lookup(%r) is not rendered here (only '
                          'lookup("vars"))' % kind)
    values = []
    for name in names:
        value = context.resolve_or_missing(name)
        if value is jinja2.utils.missing:
            if 'default' in kwargs:
                value = kwargs['default']
            else:
                raise RenderError('variable %s is undefined' % name)
        values.append(value)
    return values[0] if len(values) == 1 else values


class _Sandbox(jinja2.sandbox.SandboxedEnvironment):
    """jinja2's sandbox with a budget for what one render makes."""

    intercepted_binops = frozenset(['*', '**'])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.made = 0
        self.globals['range'] = self._range

    def _spend(self, count):
        self.made += max(count, 0)
        if self.made > MAX_ITEMS:
            raise jinja2.sandbox.SecurityError(
                'the template makes more than %d items' % MAX_ITEMS)

    def _range(self, *args):
        found = range(*args)
        self._spend(len(found))
        return found

    def call_binop(self, context, operator, left, right):
        if operator == '**' and isinstance(right, (int, float)) and \
                abs(right) > MAX_EXPONENT:
            raise jinja2.sandbox.SecurityError(
                'a power of %r is more than the template may compute'
                % (right,))
        if operator == '*':
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and \
                        isinstance(times, int):
                    self._spend(len(seq) * times)
        return super().call_binop(context, operator, left, right)


def environment():
    """jinja2 as Ansible renders a template, sandboxed: StrictUndefined,
    None as nothing, ``lookup('vars', ...)`` and the few Ansible filters
    NIC templates use."""
    env = _Sandbox(undefined=jinja2.StrictUndefined, trim_blocks=True,
                   finalize=lambda v: '' if v is None else v,
                   extensions=['jinja2.ext.do', 'jinja2.ext.loopcontrols'])
    env.globals['lookup'] = _lookup
    env.filters.update({
        'bool': _bool,
        'to_json': lambda v, **kw: json.dumps(v, **kw),
        'to_yaml': lambda v, **kw: yaml.safe_dump(v, **kw),
        'to_nice_yaml': lambda v, **kw: yaml.safe_dump(
            v, default_flow_style=False, **kw),
        'ternary': lambda v, a, b, none=None: (
            none if v is None and none is not None else (a if v else b)),
    })
    return env


def render(text, variables):
    """The ``network_config`` of ``text`` rendered with ``variables``;
    RenderError naming what failed."""
    try:
        rendered = environment().from_string(text).render(**variables)
    except jinja2.UndefinedError as exc:
        raise RenderError(str(exc))
    except edpm_inventory.LiveValueError as exc:
        raise RenderError('it uses %s, which only the cluster knows' % exc)
    except jinja2.TemplateError as exc:
        raise RenderError('%s: %s' % (type(exc).__name__, exc))
    try:
        data = yamlfile.loads(rendered, json_first=False)
    except yaml.YAMLError as exc:
        raise RenderError('it does not render YAML: %s' % str(exc).split(
            '\n')[0])
    if not isinstance(data, dict) or 'network_config' not in data:
        raise RenderError('it renders no network_config')
    return data['network_config']
