"""Heat's resource registry lookups, its wildcard entries found without a
function call per entry.

Each time Heat looks up a resource type (``get_resource_info``: every
resource's class, every template resource's template, in the user's
registry and then the global one), ``ResourceRegistry.iterable_by``
yields the entries that may match, and to find the wildcard ones
(``OS::TripleO::Network::*``) it calls a function of its own for each
of the registry's entries: 160 on average on tripleo-heat-templates'
nested stacks, 15,000 calls per added Compute.

Here ``iterable_by`` yields the same entries in the same order, by the
same tests, with the wildcard keys listed by one comprehension over the
registry's keys (``str.endswith`` of each, in C) before they are
matched; the list is made when the lookup reaches that point, as Heat's
filter reads the registry then. Nothing else changes.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """Wildcard entries listed without a call per entry (see the
    module)."""
    from heat.engine import environment

    info_class = environment.ResourceInfo

    def iterable_by(self, resource_type, resource_name=None):
        registry = self._registry
        is_templ_type = resource_type.endswith(('.yaml', '.template'))
        if self.global_registry is not None and is_templ_type:
            # a template given as the type: an entry made for it
            if resource_type not in registry:
                res = info_class(self, [resource_type], None)
                self._register_info([resource_type], res)
            yield registry[resource_type]

        if resource_name:
            impl = registry['resources'].get(resource_name)
            if impl and resource_type in impl:
                yield impl[resource_type]

        impl = registry.get(resource_type)
        if impl:
            yield impl

        for pattern in [key for key in registry if key.endswith('*')]:
            if registry[pattern].matches(resource_type):
                yield registry[pattern]

    patches.replace(environment.ResourceRegistry, 'iterable_by',
                    iterable_by)


SHIM = Shim(
    'fast_registry_globs', install, checked_on=HEAT,
    options=(Option(
        'fast_registry_globs', 'bool', False, True,
        help='Look up a resource type in a resource registry with its '
             'wildcard entries listed by one comprehension over its '
             'keys (the same entries, order and matching as Heat\'s, '
             'which calls a function for every entry of the registry '
             'at every lookup).'),),
    targets=(
        target('heat.engine.environment.ResourceRegistry.iterable_by',
               'b6645347cd6e71c3'),
        # Its caller, which consumes every entry before it changes the
        # registry.
        target('heat.engine.environment.ResourceRegistry.'
               'get_resource_info', '2abc7072a85e735d')))
