"""Heat's snippet walks with exact-type fast paths give what Heat's own
give, on every real template (results and errors alike)."""

import collections

import pytest

from tripleo_ephemeral.tests.unit.engine_tuning.tunings import stacks

SHIM = 'fast_snippet_walks'


class Text(str):
    pass


class Pairs(collections.abc.Mapping):
    """A mapping that is not a dict: Heat's own code walks it."""

    def __init__(self, **items):
        self._d = items

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)


def _outcome(fn, *args):
    try:
        result = fn(*args)
        if not isinstance(result, (dict, list, int, str, type(None))):
            result = list(result)  # the iterators of the walks
        return repr(result)
    except Exception as exc:
        return 'raised %s: %s' % (type(exc).__name__, exc)


def _walks(snippets, names):
    """Every walk's outcome on each parsed snippet, by Heat's module
    functions as they are now."""
    from heat.engine import function
    from heat.engine import rsrc_defn

    found = []
    for snippet in snippets:
        found.append((
            _outcome(function.resolve, snippet),
            _outcome(function.validate, snippet, 'x'),
            _outcome(function.dependencies, snippet, 'p'),
            _outcome(function.all_dep_attrs, snippet),
            [_outcome(function.dep_attrs, snippet, n) for n in names],
            _outcome(rsrc_defn._hash_data, snippet)))
    return found


def _parsed(tmpl, doc):
    from heat.engine import template as heat_template

    defn = stacks.definition(tmpl)
    snippets = [defn]  # keep the definition alive (weak references)
    for section in ('resources', 'outputs'):
        try:
            snippets.append(heat_template.parse(
                defn.t.functions, defn, doc.get(section) or {}, section,
                defn.t))
        except Exception:
            continue  # a template the stand-in stack cannot parse
    return snippets[1:], snippets


def test_the_walks_equal_heats_on_plain_and_other_types(install_shim):
    snippet = {'a': [1, 2.5, None, True, Text('t'), ('u', 'v')],
               'b': Pairs(c=[{'d': 'e'}]), 'f': {}, 'g': []}
    stock = _walks([snippet], ['a'])
    install_shim(SHIM)
    assert _walks([snippet], ['a']) == stock


@pytest.mark.real_templates
def test_the_walks_equal_heats_on_real_templates(install_shim, tht_dir):
    templates = []
    for path, doc in stacks.real_templates(tht_dir):
        tmpl = dict(doc)
        snippets, keep = _parsed(tmpl, doc)
        names = list(doc.get('resources') or {})[:3]
        templates.append((path, snippets, names, keep))
    stock = [_walks(snippets, names)
             for _path, snippets, names, _keep in templates]
    install_shim(SHIM)
    for (path, snippets, names, _keep), expected in zip(templates, stock):
        assert _walks(snippets, names) == expected, path
    assert len(templates) >= 250
