"""The shims of the engine's own work outside the fast create
(:mod:`.registry`'s part; the fast create's: :mod:`.shims_create`):
Heat's hard-coded sleeps (:mod:`.sleeps`; a fast create's zero sleep
too), resource definitions and
templates parsed on demand (:mod:`.definitions`, :mod:`.attributes`),
snippet walks with fast paths (:mod:`.snippets`), registry lookups
(:mod:`.registry_globs`) and parents woken by
their nested stacks (:mod:`.wakeups`). No Heat here.
"""

from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

SHIMS = (
    Shim(
        'leaf_trigger_delay', 'leaf_trigger_delay', checked_on=HEAT,
        options=(Option(
            'leaf_trigger_delay', 'float', 1.0, 0.05, min=0.0,
            help='Seconds the convergence engine sleeps between triggering '
                 'two leaf resources (Heat hard-codes 1).'),),
        # Read by Stack._converge_create_or_update and Stack.validate.
        targets=(target('heat.engine.stack.time', '3452e9e60d7bfd61'),)),
    Shim(
        # After leaf_trigger_delay: it wraps the time module that shim
        # gives heat.engine.stack. Only in a fast create's thread.
        'fast_create_no_yield', 'fast_create_no_yield', checked_on=HEAT,
        options=(Option(
            'fast_create_no_yield', 'bool', False, True,
            help='In a fast create\'s thread, return at once from the '
                 'zero-second sleep Stack.validate makes after each '
                 'resource (an eventlet yield; with real threads it gives '
                 'the core away on a busy machine).'),),
        # Read by Stack.validate (sleep(0)) and the convergence leaf
        # trigger (sleep(1), left to the module it wraps).
        targets=(target('heat.engine.stack.time', '3452e9e60d7bfd61'),)),
    Shim(
        # 0.2 s brought no gain and one 200-member create failed with it
        # under load: the tuned value is Heat's, so it stays off.
        'task_poll_interval', 'task_poll_interval', checked_on=HEAT,
        options=(Option(
            'task_poll_interval', 'float', 1.0, 1.0, min=0.01,
            help='Seconds between two checks of a resource in progress '
                 '(Heat hard-codes 1; a parent checks its nested stack this '
                 'often).'),),
        targets=(
            target('heat.engine.scheduler.TaskRunner._sleep',
                   '36a3a7b358fbf771'),
            target('heat.engine.scheduler.TaskRunner.__call__',
                   '7cc15b672ae3703a'),
            target('heat.engine.scheduler.TaskRunner.run_to_completion',
                   'b7ae2402989e7eed'))),
    Shim(
        'resource_chain_concurrency', 'resource_chain_concurrency',
        checked_on=HEAT,
        options=(Option(
            'resource_chain_concurrency', 'int', 0, 16, min=0,
            help='Members of a concurrent OS::Heat::ResourceChain created '
                 'at once. Heat allows as many as there are running '
                 'engines (0 keeps that rule), which creates the chain one '
                 'member at a time on a single engine.'),),
        # Read by ResourceChain.child_template.
        targets=(target(
            'heat.engine.resources.openstack.heat.resource_chain.'
            'service_objects', '7023f7e7462b3274'),)),
    Shim(
        'lazy_resource_definitions', 'lazy_resource_definitions',
        checked_on=HEAT,
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
                   'resource_definitions', '673153e9615a22e4'))),
    Shim(
        'narrow_referenced_attrs', 'narrow_referenced_attrs', checked_on=HEAT,
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
                   '_parse_args', 'a350dee956b2addf'))),
    Shim(
        'fast_template_parse', 'fast_template_parse', checked_on=HEAT,
        options=(Option(
            'fast_template_parse', 'bool', False, True,
            help='Parse templates with exact-type checks first (same '
                 'results as Heat\'s parser, faster).'),),
        targets=(target('heat.engine.template.parse', 'c17ef784deb8bc28'),)),
    Shim(
        'template_validate_unhashed', 'template_validate_unhashed',
        checked_on=HEAT,
        options=(Option(
            'template_validate_unhashed', 'bool', False, True,
            help='Check a template\'s sections and resource types on '
                 'every validation instead of hashing the whole template '
                 'to skip checks it passed before (a quarter of the '
                 'cost, the same outcome).'),),
        targets=(target('heat.engine.template.Template.validate',
                        'f5ff995d18ca97e7'),)),
    Shim(
        # After narrow_referenced_attrs, which relies on (and checks) the
        # attribute walks this replaces.
        'fast_snippet_walks', 'fast_snippet_walks', checked_on=HEAT,
        options=(Option(
            'fast_snippet_walks', 'bool', False, True,
            help='Resolve, validate, hash and find the dependencies and '
                 'attributes of template snippets with exact-type checks '
                 'for their plain dicts, lists and scalars first (the same '
                 'walks and results as Heat\'s, which asks abstract base '
                 'classes at every node).'),),
        targets=(
            target('heat.engine.function.resolve', '97c0df6e8f40c526'),
            target('heat.engine.function._non_null_item',
                   '34b2f1dd050df00d'),
            target('heat.engine.function._non_null_value',
                   '49ac839794ecdd09'),
            target('heat.engine.function.validate', 'b11f625b46aa2cb0'),
            target('heat.engine.function.dependencies', 'd5ebd06581d9a636'),
            target('heat.engine.function.dep_attrs', 'b8163258985f9f1b'),
            target('heat.engine.function.all_dep_attrs', '4d6cd809fa9a7d64'),
            target('heat.engine.rsrc_defn._hash_data', '7786409a2e3275f7'))),
    Shim(
        'fast_registry_globs', 'fast_registry_globs', checked_on=HEAT,
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
                   'get_resource_info', '2abc7072a85e735d'))),
    Shim(
        'nested_stack_wakeups', 'nested_stack_wakeups',
        checked_on=HEAT, when='in_process',
        options=(Option(
            'nested_stack_wait', 'float', 0.0, 10.0, min=0.0,
            help='With every engine in this process: seconds a parent '
                 'resource waits to be woken by its nested stack\'s next '
                 'state change before it polls again (0: poll every '
                 'task_poll_interval, as Heat does).'),),
        targets=(
            target('heat.db.api.stack_update', '045bf8c056a31e1c'),
            target('heat.db.api.stack_delete', '176422497d2ae3cf'),
            target('heat.db.api.persist_state_and_release_lock',
                   'c65c9547edaf191d'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   '_check_status_complete', '38a8fa8091501a24'))),
    Shim(
        'skip_unconsumed_notifications', 'skip_unconsumed_notifications',
        checked_on=HEAT,
        options=(Option(
            'skip_unconsumed_notifications', 'bool', False, True,
            help='Format stack notifications only when a notification '
                 'driver is set, and dispatch events only to a stack with '
                 'event sinks.'),),
        targets=(
            target('heat.engine.notification.stack.send',
                   '992011576afb3e54'),
            target('heat.engine.stack.Stack.dispatch_event',
                   '12ef356124643559'))),
)
