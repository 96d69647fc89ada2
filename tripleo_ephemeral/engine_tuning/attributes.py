"""The attributes other resources read of a resource, asked only of them."""

import collections


def _get_attr_keys(template):
    """The function names of ``template``'s version that read attributes."""
    from heat.engine.hot import functions as hot_functions

    return frozenset(
        name for name, fn in template.functions.items()
        if isinstance(fn, type) and issubclass(
            fn, hot_functions.GetAttThenSelect))


def _attribute_readers(template):
    """(resource name -> names of the resources whose snippet reads its
    attributes, names of those that read a computed resource name).

    One walk of the raw template; Heat's attribute functions name the
    resource in their first argument, a literal or (rarely) a function.
    """
    cached = template.__dict__.get('_attribute_readers')
    if cached is not None:
        return cached
    keys = _get_attr_keys(template)
    readers = collections.defaultdict(set)
    computed = set()

    def walk(snippet, owner):
        kind = type(snippet)
        if kind is dict:
            if len(snippet) == 1:
                key, args = next(iter(snippet.items()))
                if key in keys:
                    if type(args) is list and args and isinstance(args[0],
                                                                  str):
                        readers[args[0]].add(owner)
                    else:
                        computed.add(owner)
            for value in snippet.values():
                walk(value, owner)
        elif kind is list:
            for value in snippet:
                walk(value, owner)

    for name, snippet in (template.t.get(template.RESOURCES) or {}).items():
        walk(snippet, name)
    result = template.__dict__['_attribute_readers'] = (readers, computed)
    return result


def install_narrow_referenced_attrs(patches):
    """Find the attributes other resources read by asking only them.

    To store a resource's attributes after its check, stock Heat asks every
    enabled resource of the stack which of them it reads, and so parses
    every definition of the stack on every resource check (the lazy
    definitions notwithstanding): for tripleo-heat-templates' stacks of a
    hundred resources that was a third of the engine's CPU. Only a resource
    whose raw snippet names this one in an attribute function (or names a
    computed resource) can read it; those are asked, by Heat's own code.
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
        if not in_resources or not isinstance(
                template, hot_template.HOTemplate20130523):
            return stock(self, stk_defn, in_resources, in_outputs, load_all)
        refd = stock(self, stk_defn, False, in_outputs, load_all)
        readers, computed = _attribute_readers(template)
        for name in readers.get(self.name, set()) | computed:
            try:
                defn = stk_defn.resource_definition(name)
            except KeyError:  # disabled by a condition
                continue
            refd.update(defn.dep_attrs(self.name, load_all))
        if attributes.ALL_ATTRIBUTES in refd:
            refd.remove(attributes.ALL_ATTRIBUTES)
            refd |= (set(self.attributes) - {self.SHOW})
        return refd

    patches.replace(cls, 'referenced_attrs', referenced_attrs)
