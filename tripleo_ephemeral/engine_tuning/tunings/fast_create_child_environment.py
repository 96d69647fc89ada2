"""A nested stack's resource registry copied from its parent's.

Heat gives every nested stack an environment of its own
(``environment.get_child_environment``): it writes the parent's whole
environment out as a dict (the resource registry walked, each user entry
turned back into its text) and loads that dict into a new environment,
where each entry is checked again for being a hook or a restricted action,
its class chosen from its name and value again, and placed by path. On
tripleo-heat-templates the registry holds some 280 entries, and a Compute
adds six nested stacks.

Inside a fast create (:mod:`.fast_create`) the new environment's registry
is copied from the parent's registry itself: the same levels in the same
order (a level made when its first entry is placed, as Heat's placing
makes it), hooks and restricted actions placed as the same values, and
for each user entry a new entry as Heat's ``ResourceInfo`` makes it from
the key and value Heat's dict would give it (the class its ``__new__``
chose for that key and value the first time, its fields set as its
``__init__`` sets them), on the new registry, placed where Heat's load
places it (a class entry by Heat's own ``_register_info``, for its
warnings). Anything else (a registry Heat's dict would not hold) goes
to Heat's own code; the parameters, parameter defaults and event sinks
are loaded by Heat's own ``Environment.load``, and the rest of the
function is Heat's.
Outside a fast create Heat runs its own code.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


class _Unusual(Exception):
    """A registry entry the copy does not take: Heat's code builds it."""


def install(patches: Patches) -> None:
    """Copy a nested stack's resource registry from its parent's during
    a fast create (see the module)."""
    import weakref

    from heat.common import environment_format as env_fmt
    from heat.engine import environment

    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    stock_child = environment.get_child_environment
    template_info = environment.TemplateResourceInfo
    # the classes made by ResourceInfo's own __init__ (and their parents')
    plain = (environment.MapResourceInfo, environment.GlobResourceInfo,
             template_info)
    for klass in plain[:2]:
        if '__init__' in vars(klass):
            raise RuntimeError('%s has an __init__ of its own' % klass)

    def place(registry, path, name, item):
        """Where ``_register_item`` and ``_register_info`` put it."""
        level = registry._registry
        for key in path:
            if key not in level:
                level[key] = {}
            level = level[key]
        level[name] = item

    def copy_level(source, target, path):
        for key, value in source.items():
            if isinstance(value, dict):
                copy_level(value, target, path + [key])
            elif key in ('hooks', 'restricted_actions'):
                # as_dict gives it as it is; load places it as it is
                if not (environment.is_hook_definition(key, value) or
                        environment.is_valid_restricted_action(key, value)):
                    raise _Unusual(key)
                place(target, path, key, value)
            elif not isinstance(value, environment.ResourceInfo):
                raise _Unusual(key)
            elif not value.user_resource:
                continue  # as_dict leaves it out
            else:
                copy_info(value, target, path, key)

    def copy_info(value, target, path, key):
        """What load makes of as_dict's text for one entry."""
        full = path + [key]
        text = value.value
        classes = fast_create.current().__dict__.setdefault(
            'registry_classes', {})
        try:
            klass = classes.get((key, text))
        except TypeError:  # a value that is not hashable
            klass = None
        if klass is None:
            info = environment.ResourceInfo(target, full, text)
            klass = type(info)
            if klass in plain:
                classes[(key, text)] = klass
        else:
            # ResourceInfo(target, full, text): the class its __new__
            # chose for this key and value, set as its __init__ sets it
            info = object.__new__(klass)
            info._registry = weakref.ref(target)
            info.path = full
            info.name = key
            info.value = text
            info.user_resource = True
            if klass is template_info:
                info.template_name = (
                    key if key.endswith(('.yaml', '.template')) else text)
                info.value = info.template_name
        if isinstance(info, environment.ClassResourceInfo):
            target._register_info(full, info)  # its warnings
        else:
            place(target, path, key, info)

    def get_child_environment(parent_env, child_params, item_to_remove=None,
                              child_resource_name=None):
        if (fast_create.current() is None or
                type(parent_env) is not environment.Environment):
            return stock_child(parent_env, child_params, item_to_remove,
                               child_resource_name)
        flat_params = child_params is not None and not any(
            section in child_params for section in env_fmt.SECTIONS)
        new_env = environment.Environment()
        try:
            copy_level(parent_env.registry._registry, new_env.registry, [])
        except _Unusual:
            return stock_child(parent_env, child_params, item_to_remove,
                               child_resource_name)
        # the rest of what stock's load(child_env) loads
        new_env.load({
            env_fmt.PARAMETERS: (child_params if flat_params else {}),
            env_fmt.PARAMETER_DEFAULTS: parent_env.param_defaults,
            env_fmt.EVENT_SINKS: parent_env._event_sinks})
        if not flat_params and child_params is not None:
            new_env.load(child_params)
        if item_to_remove is not None:
            new_env.registry.remove_item(item_to_remove)
        if child_resource_name:
            new_env.registry.remove_resources_except(child_resource_name)
        return new_env

    patches.replace(environment, 'get_child_environment',
                    get_child_environment)


SHIM = Shim(
    # Only inside a fast create.
    'fast_create_child_environment', install, checked_on=HEAT,
    options=(Option(
        'fast_create_child_environment', 'bool', False, True,
        help='During a fast create, copy a nested stack\'s resource '
             'registry from its parent\'s registry (the same levels, '
             'entries and values Heat\'s own code gives it) instead of '
             'writing the parent\'s environment out as a dict and '
             'loading it back.'),),
    targets=(
        target('heat.engine.environment.get_child_environment',
               '79c8f6e1811feccf'),
        # What stock does with the dict: the parent's registry written
        # out, loaded into the new one, each entry placed.
        target('heat.engine.environment.Environment.__init__',
               '64fc7ce03c9e69ba'),
        target('heat.engine.environment.Environment.load',
               '53c6ba418154edd9'),
        target('heat.engine.environment.Environment.user_env_as_dict',
               '9fb1f1a338fb2f89'),
        target('heat.engine.environment.ResourceRegistry.as_dict',
               '3eefc3afb867cbf8'),
        target('heat.engine.environment.ResourceRegistry.'
               '_load_registry', '4527ed6058ded22c'),
        target('heat.engine.environment.ResourceRegistry.'
               '_register_info', 'db8f5b62b84ed114'),
        target('heat.engine.environment.ResourceRegistry.'
               '_register_item', 'b16deacab451bb9f'),
        target('heat.engine.environment.ResourceInfo.__new__',
               '0cedfe77b1d89d0d'),
        target('heat.engine.environment.ResourceInfo.__init__',
               'a0fce20a87ed67c5'),
        target('heat.engine.environment.TemplateResourceInfo.__init__',
               '453c0f0f5fdd0b99'),
        target('heat.engine.environment.is_hook_definition',
               'f7932e6ea552b186'),
        target('heat.engine.environment.is_valid_restricted_action',
               '28a025fc01a730e1')))
