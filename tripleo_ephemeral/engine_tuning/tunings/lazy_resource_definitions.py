"""Resource definitions parsed on demand.

Every resource check loads its stack afresh and stock Heat then parses the
definitions of *all* the stack's resources to use one or two; for the
~100-resource stacks of tripleo-heat-templates that parsing was the
largest part of the engine's CPU. Here a definition is parsed when it is
first asked for, by the same Heat code.
"""

import collections.abc

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


class _OneResource(collections.abc.Mapping):
    """A read-only view of a template dict with a single resource in it.

    Heat's own ``resource_definitions`` then parses just that resource:
    same keys check, same condition handling, same errors.
    """

    def __init__(self, tmpl_dict, section, name):
        self._t = tmpl_dict
        self._section = section
        self._name = name

    def __getitem__(self, key):
        value = self._t[key]
        if key == self._section:
            return {self._name: value[self._name]}
        return value

    def __iter__(self):
        return iter(self._t)

    def __len__(self):
        return len(self._t)


def _parse_one(template, stk_defn, name):
    """The definition of ``name`` alone, by Heat's ``resource_definitions``.

    It runs on a shallow copy of the template whose resources section holds
    only ``name`` (the shared template is never changed, so other threads
    are not affected). Raises KeyError, as stock Heat does, when the
    resource is absent or its condition disables it.
    """
    template.conditions(stk_defn)  # evaluated once, cached on the template
    # A shallow copy: Template.__new__ picks a class by version, so build
    # it by hand. It shares the conditions cache.
    view = object.__new__(type(template))
    view.__dict__.update(template.__dict__)
    view.t = _OneResource(template.t, template.RESOURCES, name)
    return view.resource_definitions(stk_defn)[name]


def install(patches: Patches) -> None:
    """Parse a stack's resource definitions one at a time, on demand."""
    from heat.engine import stk_defn
    from heat.engine.hot import template as hot_template

    cls = stk_defn.StackDefinition
    stock_resource_definition = cls.resource_definition
    stock_load = cls._load_rsrc_defns

    def partial(self):
        return self.__dict__.setdefault('_lazy_defns', {})

    def resource_definition(self, resource_name):
        if (self._resource_defns is not None or not isinstance(
                self._template, hot_template.HOTemplate20130523)):
            return stock_resource_definition(self, resource_name)
        done = partial(self)
        if resource_name not in done:
            if resource_name not in (self._template.t.get(
                    self._template.RESOURCES) or {}):
                raise KeyError(resource_name)
            done[resource_name] = _parse_one(self._template, self,
                                             resource_name)
        return done[resource_name]

    def _load_rsrc_defns(self):
        stock_load(self)
        # Keep the definitions already handed out: callers may hold them.
        for name, defn in partial(self).items():
            if name in self._resource_defns:
                self._resource_defns[name] = defn
        partial(self).clear()

    def forget(stack_definition, resource_name):
        stack_definition.__dict__.get('_lazy_defns', {}).pop(
            resource_name, None)

    stock_add, stock_remove = stk_defn.add_resource, stk_defn.remove_resource
    stock_update = stk_defn.update_resource_data

    def add_resource(stack_definition, resource_definition):
        forget(stack_definition, resource_definition.name)
        return stock_add(stack_definition, resource_definition)

    def remove_resource(stack_definition, resource_name):
        forget(stack_definition, resource_name)
        return stock_remove(stack_definition, resource_name)

    def update_resource_data(stack_definition, resource_name, resource_data):
        stock_update(stack_definition, resource_name, resource_data)
        for defn in stack_definition.__dict__.get('_lazy_defns', {}).values():
            if resource_name in defn.required_resource_names():
                defn._all_dep_attrs = None

    patches.replace(cls, 'resource_definition', resource_definition)
    patches.replace(cls, '_load_rsrc_defns', _load_rsrc_defns)
    patches.replace(stk_defn, 'add_resource', add_resource)
    patches.replace(stk_defn, 'remove_resource', remove_resource)
    patches.replace(stk_defn, 'update_resource_data', update_resource_data)


SHIM = Shim(
    'lazy_resource_definitions', install, checked_on=HEAT,
    options=(Option(
        'lazy_resource_definitions', 'bool', False, True,
        help='Parse a resource definition when it is first needed '
             'instead of all of a stack\'s on every resource check.'),),
    targets=(
        target('heat.engine.stk_defn.StackDefinition.'
               'resource_definition', '6845ac013a5aed77'),
        target('heat.engine.stk_defn.StackDefinition._load_rsrc_defns',
               'ac2921e8fdba7761'),
        target('heat.engine.stk_defn.add_resource', '6a003868966743e4'),
        target('heat.engine.stk_defn.remove_resource',
               '14a1effa77fd12ea'),
        target('heat.engine.stk_defn.update_resource_data',
               '7172c769e76f0b76'),
        target('heat.engine.hot.template.HOTemplate20130523.'
               'resource_definitions', '673153e9615a22e4')))
