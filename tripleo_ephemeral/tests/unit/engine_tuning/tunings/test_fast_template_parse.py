"""The fast template parser gives what Heat's own parser gives."""


import pytest

from heat.common import exception

from tripleo_ephemeral.engine_tuning.tunings import fast_template_parse
from tripleo_ephemeral.tests.unit.engine_tuning.tunings import stacks


def _same(a, b, where='$'):
    """Parsed snippets are equal: same types, same function arguments."""
    assert type(a) is type(b), where
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            _same(a[k], b[k], '%s.%s' % (where, k))
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, '%s[%d]' % (where, i))
    elif hasattr(a, 'fn_name'):
        assert a.fn_name == b.fn_name, where
        _same(getattr(a, 'args', None), getattr(b, 'args', None), where)
        if hasattr(a, 'parsed'):  # macros
            _same(a.parsed, b.parsed, where + '(' + a.fn_name + ')')
    else:
        assert a == b, where


def _both(snippet, tmpl=stacks.TEMPLATE):
    from heat.engine import template as heat_template
    defn = stacks.definition(tmpl)
    stock = heat_template.parse(defn.t.functions, defn, snippet, 'x',
                                defn.t)
    fast_parse = fast_template_parse.fast_parser()
    fast = fast_parse(defn.t.functions, defn, snippet, 'x', defn.t)
    return defn, stock, fast


class Text(str):
    pass


@pytest.mark.parametrize('snippet', [
    stacks.TEMPLATE['resources'],
    {'a': [1, 2.5, None, True, {'get_param': 'n'}], 'b': ('t', 'u')},
    {'list_join': [',', [{'get_param': 'OS::stack_name'}, Text('xy')]]},
    {'if': ['on', {'get_resource': 'a'}, {'get_attr': ['a', 'value']}]},
    {'yaql': {'expression': '$.data.x', 'data': {'x': [1, 2]}}},
    {'get_param': 'n', 'other': 1},  # two keys: a plain map
    Text('a string subclass stays a string'),
])
def test_fast_parse_equals_stock(snippet):
    defn, stock, fast = _both(snippet)
    _same(stock, fast)


def test_fast_parse_gives_the_same_error_path():
    from heat.engine import template as heat_template
    bad = {'a': [{'ok': 1}, {'list_join': 'not a list'}]}
    defn = stacks.definition()
    errors = []
    for parse in (heat_template.parse, fast_template_parse.fast_parser()):
        with pytest.raises(exception.StackValidationFailed) as err:
            parse(defn.t.functions, defn, bad, 'x', defn.t)
        errors.append(str(err.value))
    assert errors[0] == errors[1]
    assert 'x.a[1].list_join' in errors[0]


@pytest.mark.real_templates
def test_fast_parse_on_real_templates(tht_dir):
    from heat.engine import template as heat_template
    fast_parse = fast_template_parse.fast_parser()
    checked = 0
    for path, doc in stacks.real_templates(tht_dir):
        tmpl = {k: v for k, v in doc.items() if k != 'resources'}
        for section in ('resources', 'outputs'):
            results = []
            for parse in (heat_template.parse, fast_parse):
                defn = stacks.definition(tmpl)
                try:
                    results.append(parse(defn.t.functions, defn,
                                         doc.get(section) or {}, section,
                                         defn.t))
                except Exception as exc:  # the same error from both
                    results.append('%s: %s' % (type(exc).__name__, exc))
                results.append(defn)  # keep it alive: weak references
            _same(results[0], results[2], path)
        checked += 1
    assert checked >= 250  # the bundled templates and THT's (286)


@pytest.mark.parametrize('tmpl', [
    stacks.TEMPLATE,
    dict(stacks.TEMPLATE, bogus_section={}),
    dict(stacks.TEMPLATE, resources={'a': {'type': 'T'}, 'b': {}}),
    dict(stacks.TEMPLATE, resources={'a': {'properties': {}}}),
    dict(stacks.TEMPLATE, resources={'a': {'type': 'T', 'typo': 1}}),
    dict(stacks.TEMPLATE, resources={'a': ['not', 'a', 'map']}),
])
def test_template_validation_unhashed_decides_as_heat(tmpl, install_shim):
    """The same outcome and error, every time, without the digest."""
    from heat.engine import environment
    from heat.engine import template as heat_template

    outcomes = []
    for unhashed in (False, True, True):
        if unhashed:
            install_shim('template_validate_unhashed')
        t = heat_template.Template(dict(tmpl),
                                   env=environment.Environment({}))
        try:
            t.validate()
            outcomes.append('valid')
        except Exception as exc:
            outcomes.append('%s: %s' % (type(exc).__name__, exc))
    assert outcomes[0] == outcomes[1] == outcomes[2]
