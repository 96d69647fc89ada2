"""The shims of the engine's own work (:mod:`.registry`'s part).

The fast create (:mod:`.fast_create`), Heat's hard-coded sleeps
(:mod:`.sleeps`), yaql results kept during a fast create
(:mod:`.yaql_memo`), parameter_defaults encoded once
(:mod:`.shared_defaults`), resource definitions and templates parsed on demand
(:mod:`.definitions`, :mod:`.attributes`) and parents woken by their
nested stacks (:mod:`.wakeups`). No Heat here.
"""

from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import OSLO_DB
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import YAQL
from tripleo_ephemeral.engine_tuning.spec import target

SHIMS = (
    Shim(
        # Before the shims that replace TaskRunner._sleep: its fingerprint
        # is taken of Heat's own. The targets that differ between the two
        # Heats (EngineService methods, Stack.create) differ only in
        # osprofiler's tracing wrapper; their code is the same.
        'fast_create', 'fast_create', checked_on=HEAT,
        options=(Option(
            'fast_create', 'bool', False, True,
            help='Create a fresh root stack on Heat\'s legacy engine with '
                 'every nested stack created and stepped in the root\'s '
                 'engine thread, then convert the tree with Heat\'s own '
                 'migrate_to_convergence: a third of the CPU of a '
                 'convergence create. Updates, deletes, adopt and restored '
                 'stacks stay on convergence.'),),
        targets=(
            target('heat.engine.service.EngineService.create_stack',
                   '40111cf36d0d0ed9', 'edc6ddbbd7036ec1'),
            target('heat.engine.service.EngineService.'
                   '_parse_template_and_validate_stack', '5d5cb1f85bc04dfd'),
            target('heat.engine.service.EngineService._validate_new_stack',
                   '93529472815bebe7'),
            target('heat.engine.service.EngineService.show_stack',
                   'cd7f264467aba8b0', '964112c656589316'),
            target('heat.engine.service.EngineService.migrate_convergence_1',
                   '999e94515493bde5', '0306bc9c9fef007a'),
            target('heat.engine.service.EngineService.stop',
                   'a1db58ee85989594', '97910c27d8e0b3af'),
            target('heat.engine.service.ThreadGroupManager.send',
                   '98919dfdffa197b0'),
            target('heat.rpc.client.EngineClient.call', 'b29aee6959858bc8'),
            target('heat.common.messaging.RequestContextSerializer.'
                   'serialize_context', '78135fe1c969b87a'),
            target('heat.common.messaging.RequestContextSerializer.'
                   'deserialize_context', 'ce587246fc78a819'),
            target('heat.engine.stack.Stack.create',
                   '5d880bc4d3c26a71', 'ea8e4b1771e4f4d8'),
            target('heat.engine.stack.Stack.defer_state_persist',
                   '98e0fd09613a739a'),
            target('heat.engine.stack.Stack.persist_state_and_release_lock',
                   'cd663513cd14b1cc'),
            target('heat.engine.stack.Stack.migrate_to_convergence',
                   'b55028ca9eafb80d'),
            # What the migration stores back of a stack in memory.
            target('heat.engine.stack.Stack.store',
                   '92734564d8e94953', '0faa590b21462c9b'),
            target('heat.engine.stack.Stack.get_kwargs_for_cloning',
                   'b74b69b47a920b7f'),
            target('heat.engine.stack.Stack._from_db', '6f03ea53277e509f'),
            target('heat.engine.scheduler.TaskRunner._sleep',
                   '36a3a7b358fbf771'),
            target('heat.engine.resource.Resource.state_set',
                   '790050083523fa91'),
            target('heat.engine.resource.Resource.node_data',
                   'c6d321fc9e6f0428'),
            target('heat.engine.resource.Resource.store_attributes',
                   'e30f54a8e2cf9ffa'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'create_with_template', 'b4eb00b4d5aeb1bb'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'check_create_complete', '52a8b403983ec6d6'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'get_output', 'c58771ba1f0e3fa7'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'handle_create_cancel', '8ca9c4b9e77430ae'),
            target('heat.engine.resources.template_resource.'
                   'TemplateResource.get_reference_id', '7d5f13538fd985fb'),
            target('heat.engine.resources.openstack.heat.resource_group.'
                   'ResourceGroup.handle_create', '0ae490ff332d5a40'))),
    Shim(
        # After fast_create: its steps run inside a fast create only.
        'fast_create_transactions', 'fast_transactions',
        checked_on=HEAT + OSLO_DB,
        options=(Option(
            'fast_create_transaction_slice', 'float', 0.0, 0.2, min=0.0,
            help='Seconds of a fast create\'s work written in one database '
                 'transaction (0: a transaction per database call, as '
                 'stock Heat). Other threads\' writes wait that long at '
                 'most for the SQLite lock (a single step of a wide tree '
                 'can take longer); reads do not wait.'),),
        targets=(
            target('heat.engine.scheduler.TaskRunner.start',
                   'fa83c35c25b6de66'),
            target('heat.engine.scheduler.TaskRunner.step',
                   '4800be7e864a4878'),
            target('heat.common.messaging.RequestContextSerializer.'
                   'deserialize_context', 'ce587246fc78a819'),
            target('oslo_db.sqlalchemy.enginefacade.'
                   '_transaction_contexts_by_thread', '16c057ea29a138b3'),
            target('oslo_db.sqlalchemy.enginefacade._TransactionContext.'
                   '_session', 'fbbbd706276384a4'))),
    Shim(
        # After fast_create: only inside a fast create.
        'fast_create_yaql_cache', 'yaql_memo', checked_on=HEAT,
        options=(Option(
            'fast_create_yaql_cache', 'bool', False, True,
            help='During a fast create, give a copy of the first result '
                 'when a yaql expression is evaluated again on the same '
                 'data (expressions naming now are always evaluated).'),),
        targets=(
            # What result() evaluates: the expression on the data.
            target('heat.engine.hot.functions.Yaql.result',
                   '5fc27f2d92846592'),
            target('heat.engine.hot.functions.Yaql.__init__',
                   '4ca08943861317bb'))),
    Shim(
        'fast_yaql_input', 'yaql_memo', checked_on=YAQL,
        options=(Option(
            'fast_yaql_input', 'bool', False, True,
            help='Convert a yaql expression\'s input data (THT\'s role '
                 'data) into yaql\'s immutable types with exact-type checks '
                 'for plain dicts, lists and scalars first (the same result '
                 'as yaql\'s own conversion, which asks abstract base '
                 'classes at every node).'),),
        targets=(
            target('yaql.language.utils.convert_input_data',
                   '71e8c9681b6a011d'),
            # Where an evaluation converts its data.
            target('yaql.language.expressions.Statement.evaluate',
                   'fba35f8379c7e5d9'))),
    Shim(
        # After fast_create: it wraps the fast check_create_complete.
        'fast_create_release', 'fast_release', checked_on=HEAT[:1],
        options=(Option(
            'fast_create_release', 'bool', False, True,
            help='During a fast create, finish each nested stack that '
                 'ended CREATE_COMPLETE at once (outputs computed, '
                 'converted to convergence) and let go of it, instead of '
                 'keeping the whole tree in memory until the root\'s '
                 'create ends.'),),
        # It wraps fast_create's check_create_complete and reads outputs
        # as its get_output does (both checked there); does nothing
        # outside a fast create.
        targets=(
            target('heat.engine.resources.stack_resource.StackResource.'
                   'nested', '116d7aaee3def86f'),
            target('heat.engine.stack.Stack.migrate_to_convergence',
                   'b55028ca9eafb80d'))),
    Shim(
        # After fast_create: only inside a fast create.
        'fast_create_shared_defaults', 'shared_defaults',
        checked_on=HEAT[:1],
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
                   '9fb1f1a338fb2f89'))),
    Shim(
        # After fast_create_release: it replaces migrate_to_convergence,
        # which that shim checks. Only inside a fast create.
        'fast_create_lean_rows', 'lean_rows', checked_on=HEAT,
        options=(Option(
            'fast_create_lean_rows', 'bool', False, True,
            help='During a fast create, insert template, resource, '
                 'properties and attributes rows with one statement each '
                 'instead of '
                 'through the ORM, point a resource at its attributes with '
                 'one UPDATE, and convert a finished nested stack to '
                 'convergence from the resources in memory instead of '
                 'loading them all back.'),),
        targets=(
            target('heat.db.api.raw_template_create', '1297a8e84c4a2890'),
            target('heat.objects.raw_template.RawTemplate.create',
                   '0bf304d10471a69b'),
            target('heat.objects.raw_template.RawTemplate.from_db_object',
                   '3a54f3a61ce06707'),
            target('heat.db.api._resource_create', '8f690142e1f9ecb1'),
            target('heat.db.api.resource_create', '6faa826bdf38c657'),
            target('heat.db.api._resource_prop_data_create_or_update',
                   'f0b062946d1d9920'),
            target('heat.db.api.resource_prop_data_create_or_update',
                   '6d0465473e1180bb'),
            target('heat.db.api.resource_attr_id_set', '54f4c6498e02b8d6'),
            target('heat.db.api._add_atomic_key_to_values',
                   'b42c12e420df611d'),
            # What the callers read of the rows they get.
            target('heat.objects.resource.Resource._from_db_object',
                   '0e03ac7a51330b37'),
            target('heat.objects.resource_properties_data.'
                   'ResourcePropertiesData._from_db_object',
                   '8884dc8749031e74'),
            target('heat.objects.resource.Resource.store_attributes',
                   '551cb9ab1c4882bf'),
            # The conversion, what it reads and writes per resource, and
            # which resources a nested stack stored.
            target('heat.engine.stack.Stack.migrate_to_convergence',
                   'b55028ca9eafb80d'),
            target('heat.objects.resource.Resource.convert_to_convergence',
                   '18a45e7f3ab693c7'),
            target('heat.db.api.resource_get_all_active_by_stack',
                   'c0f95ef8a0df4ac5'),
            target('heat.engine.stack.Stack._store_resources',
                   'a3d57c325ad3ec59'))),
    Shim(
        # After fast_create: it wraps the fast get_output and the
        # outputs computed in memory; only inside a fast create.
        'fast_create_final_outputs', 'fast_outputs', checked_on=HEAT,
        options=(Option(
            'fast_create_final_outputs', 'bool', False, True,
            help='During a fast create, answer a null output of a nested '
                 'stack that has ended from the outputs computed in memory '
                 'when it ended, instead of loading the stack from the '
                 'database to compute them again (stock Heat takes a null '
                 'for an output not computed yet).'),),
        # It wraps fast_create's get_output (StackResource.get_output is
        # checked there) and answers what that would ask.
        targets=(
            target('heat.engine.service.EngineService.show_stack',
                   'cd7f264467aba8b0', '964112c656589316'),)),
    Shim(
        # Only inside a fast create, for its legacy stacks. It wraps
        # Stack.root_stack_id as lean_database_writes leaves it (checked
        # there).
        'fast_create_lean_stacks', 'lean_stacks', checked_on=HEAT,
        options=(Option(
            'fast_create_lean_stacks', 'bool', False, True,
            help='During a fast create, write a nested stack\'s state '
                 'with one UPDATE (no read of its row before, no delete of '
                 'a lock it never holds), answer its root from its '
                 'owner\'s, known in memory, instead of a query per level '
                 'up the tree, and check a new stack\'s name, insert its '
                 'row and store it converted with one statement each '
                 'instead of through the ORM.'),),
        targets=(
            target('heat.engine.stack.Stack._persist_state',
                   '33d6f722cd99559e'),
            target('heat.engine.stack.Stack.persist_state_and_release_lock',
                   'cd663513cd14b1cc'),
            target('heat.engine.stack.Stack._send_notification_and_add_event',
                   '3944b03e39eed7c7'),
            # What stock writes and reads there.
            target('heat.objects.stack.Stack.update_and_save',
                   '5721eec40880e64e'),
            target('heat.db.api.stack_update', '045bf8c056a31e1c'),
            target('heat.db.api.persist_state_and_release_lock',
                   'c65c9547edaf191d'),
            target('heat.db.api.stack_get_root_id', '24795631a9e05509'),
            # A new stack's name check and row (heat.db.api.stack_create is
            # checked by lean_database_writes, which replaces it), and the
            # store of a converted stack.
            target('heat.engine.service.EngineService._validate_new_stack',
                   '93529472815bebe7'),
            target('heat.objects.stack.Stack.get_by_name',
                   '9fff328edbac23d0'),
            target('heat.db.api._stack_get_by_name', '18e4ab4013eec635'),
            target('heat.db.api._soft_delete_aware_query',
                   '88c01e4ae229fb0c'),
            target('heat.objects.stack.Stack.create', '1d6879a309aaba18'),
            target('heat.objects.stack.Stack._from_db_object',
                   '0016e5418a3de5fe'),
            target('heat.engine.stack.Stack.store',
                   '92734564d8e94953', '0faa590b21462c9b'))),
    Shim(
        'leaf_trigger_delay', 'sleeps', checked_on=HEAT,
        options=(Option(
            'leaf_trigger_delay', 'float', 1.0, 0.05, min=0.0,
            help='Seconds the convergence engine sleeps between triggering '
                 'two leaf resources (Heat hard-codes 1).'),),
        # Read by Stack._converge_create_or_update and Stack.validate.
        targets=(target('heat.engine.stack.time', '3452e9e60d7bfd61'),)),
    Shim(
        # After leaf_trigger_delay: it wraps the time module that shim
        # gives heat.engine.stack. Only in a fast create's thread.
        'fast_create_no_yield', 'sleeps', checked_on=HEAT,
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
        'task_poll_interval', 'sleeps', checked_on=HEAT,
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
        'resource_chain_concurrency', 'sleeps', checked_on=HEAT,
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
        'lazy_resource_definitions', 'definitions', checked_on=HEAT,
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
        'narrow_referenced_attrs', 'attributes', checked_on=HEAT,
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
        'fast_template_parse', 'definitions', checked_on=HEAT,
        options=(Option(
            'fast_template_parse', 'bool', False, True,
            help='Parse templates with exact-type checks first (same '
                 'results as Heat\'s parser, faster).'),),
        targets=(target('heat.engine.template.parse', 'c17ef784deb8bc28'),)),
    Shim(
        'template_validate_unhashed', 'definitions', checked_on=HEAT,
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
        'fast_snippet_walks', 'snippets', checked_on=HEAT,
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
        'nested_stack_wakeups', 'wakeups', checked_on=HEAT, when='in_process',
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
        'skip_unconsumed_notifications', 'wakeups', checked_on=HEAT,
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
