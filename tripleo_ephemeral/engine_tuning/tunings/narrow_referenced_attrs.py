"""The attributes other resources read of a resource, asked only of them."""

import collections
import collections.abc

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def _get_attr_keys(template):
    """The function names of ``template``'s version that read attributes."""
    from heat.engine.hot import functions as hot_functions

    return frozenset(
        name for name, fn in template.functions.items()
        if isinstance(fn, type) and issubclass(
            fn, hot_functions.GetAttThenSelect))


#: Of one section (resources, outputs): resource name -> names of the
#: entries whose snippet reads its attributes; names of the entries that
#: read a computed resource name; names of the entries that read a computed
#: resource name, attribute or path.
Readers = collections.namedtuple('Readers', 'by_name computed dynamic')


def _attribute_readers(template):
    """{section: :class:`Readers`} for the resources and the outputs.

    One walk of the raw template; Heat's attribute functions name the
    resource in their first argument, a literal or (rarely) a function.
    """
    cached = template.__dict__.get('_attribute_readers')
    if cached is not None:
        return cached
    keys = _get_attr_keys(template)

    def walk(snippet, owner, found):
        kind = type(snippet)
        if kind is dict:
            if len(snippet) == 1:
                key, args = next(iter(snippet.items()))
                if key in keys:
                    if type(args) is list and args and isinstance(args[0],
                                                                  str):
                        found.by_name[args[0]].add(owner)
                        if not all(type(a) in (str, int) for a in args[1:]):
                            found.dynamic.add(owner)
                    else:
                        found.computed.add(owner)
                        found.dynamic.add(owner)
            for value in snippet.values():
                walk(value, owner, found)
        elif kind is list:
            for value in snippet:
                walk(value, owner, found)

    result = {}
    for section in (template.RESOURCES, template.OUTPUTS):
        found = Readers(collections.defaultdict(set), set(), set())
        for name, snippet in (template.t.get(section) or {}).items():
            walk(snippet, name, found)
        result[section] = found
    template.__dict__['_attribute_readers'] = result
    return result


def _readers(template, section, name):
    found = _attribute_readers(template)[section]
    return found.by_name.get(name, set()) | found.computed


def _static_output_attrs(stk_defn, name):
    """{resource name: attributes} output ``name`` reads, by Heat's own
    ``all_dep_attrs``, kept for the definition's life: every attribute
    function in it has literal arguments, so the answer never changes."""
    from heat.engine import function

    kept = stk_defn.__dict__.setdefault('_static_output_attrs', {})
    found = kept.get(name)
    if found is None:
        found = collections.defaultdict(set)
        for rsrc, attr in function.all_dep_attrs(
                stk_defn.output_definition(name)._value):
            found[rsrc].add(attr)
        kept[name] = found
    return found


def install(patches: Patches) -> None:
    """Find the attributes other resources read by asking only them.

    To store a resource's attributes after its check, stock Heat asks every
    enabled resource of the stack which of them it reads, and so parses
    every definition of the stack on every resource check (the lazy
    definitions notwithstanding): for tripleo-heat-templates' stacks of a
    hundred resources that was a third of the engine's CPU. Only a resource
    or output whose raw snippet names this one in an attribute function (or
    names a computed resource) can read it; those are asked, by Heat's own
    code. Stock then walks the whole function tree of every output for each
    resource (THT's ``role_data`` outputs name nearly every resource of
    their stack): an output whose attribute functions all have literal
    arguments reads the same whatever the resources' data, so its map of
    what it reads (Heat's ``all_dep_attrs``) is made once per definition.
    """
    from heat.engine import attributes
    from heat.engine.hot import template as hot_template
    from heat.engine import resource as heat_resource

    cls = heat_resource.Resource
    stock = cls.referenced_attrs

    def referenced_attrs(self, stk_defn=None, in_resources=True,
                         in_outputs=True, load_all=False):
        if stk_defn is None:
            stk_defn = self.stack.defn
        template = stk_defn._template
        if not isinstance(template, hot_template.HOTemplate20130523):
            return stock(self, stk_defn, in_resources, in_outputs, load_all)
        refd = set()
        if in_resources:
            for name in _readers(template, template.RESOURCES, self.name):
                try:
                    defn = stk_defn.resource_definition(name)
                except KeyError:  # disabled by a condition
                    continue
                refd.update(defn.dep_attrs(self.name, load_all))
        if in_outputs:
            enabled = stk_defn.enabled_output_names()
            names = _readers(template, template.OUTPUTS, self.name)
            if isinstance(in_outputs, collections.abc.Iterable):
                # Stock asks each named output (a disabled one raises).
                subset = set(in_outputs)
                names = (names & subset) | (subset - enabled)
            else:
                names &= enabled
            # Stock walks each output for each resource; after each
            # resource's check the legacy engine drops the maps its
            # load_all keeps. An output with literal attribute functions
            # only always reads the same: its map is made once.
            dynamic = _attribute_readers(template)[template.OUTPUTS].dynamic
            static = (names - dynamic) & enabled
            for name in static:
                refd.update(_static_output_attrs(stk_defn, name).get(
                    self.name, ()))
            refd |= stock(self, stk_defn, False, names - static, load_all)
        if attributes.ALL_ATTRIBUTES in refd:
            refd.remove(attributes.ALL_ATTRIBUTES)
            refd |= (set(self.attributes) - {self.SHOW})
        return refd

    patches.replace(cls, 'referenced_attrs', referenced_attrs)


SHIM = Shim(
    'narrow_referenced_attrs', install, checked_on=HEAT,
    options=(Option(
        'narrow_referenced_attrs', 'bool', False, True,
        help='Ask only the resources and outputs whose template '
             'snippet names a resource in an attribute function which '
             'of its attributes they read, instead of parsing every '
             'resource definition and walking every output of the '
             'stack to ask them all.'),),
    targets=(
        target('heat.engine.resource.Resource.referenced_attrs',
               '08afc6326eb987a1'),
        target('heat.engine.output.OutputDefinition.dep_attrs',
               '06b6238771c5d4d5'),
        target('heat.engine.output.OutputDefinition.__init__',
               '100abd42fe4700bc'),
        target('heat.engine.function.all_dep_attrs', '4d6cd809fa9a7d64'),
        target('heat.engine.function.dep_attrs', 'b8163258985f9f1b'),
        target('heat.engine.hot.functions.GetAttThenSelect.dep_attrs',
               'eb4cc2463117e16d'),
        target('heat.engine.hot.functions.GetAttThenSelect.'
               'all_dep_attrs', '6060c84fe9bb5b1c'),
        target('heat.engine.hot.functions.GetAtt._attr_path',
               '8e186d41a261078a'),
        target('heat.engine.stk_defn.StackDefinition.'
               'enabled_output_names', '912d9f87f3343b60'),
        target('heat.engine.hot.functions.GetAttThenSelect._parse_args',
               '51e68b2f6bac0052'),
        target('heat.engine.hot.functions.GetAttAllAttributes.'
               '_parse_args', 'a350dee956b2addf')))
