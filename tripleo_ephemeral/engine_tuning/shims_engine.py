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
                   '3ed6411749dabc8d', '13cc828c9f101ccd'),
            target('heat.engine.service.EngineService.'
                   '_parse_template_and_validate_stack', '89ee5a8689b29782'),
            target('heat.engine.service.EngineService._validate_new_stack',
                   'e6187570b71e0fcc'),
            target('heat.engine.service.EngineService.show_stack',
                   'cf4c664de4366d7b', '462b3c140b6940c7'),
            target('heat.engine.service.EngineService.migrate_convergence_1',
                   '1cb90f8bdb8bb2d5', 'fd7ae4001e00ead7'),
            target('heat.engine.service.EngineService.stop',
                   '08704affd1469e72', 'c258ae02b435a403'),
            target('heat.engine.service.ThreadGroupManager.send',
                   '57aa1f0c6f2c535d'),
            target('heat.rpc.client.EngineClient.call', 'fa38f1ced114533d'),
            target('heat.common.messaging.RequestContextSerializer.'
                   'serialize_context', 'c2fc827eaf5f231b'),
            target('heat.common.messaging.RequestContextSerializer.'
                   'deserialize_context', 'dfce240cac07b30b'),
            target('heat.engine.stack.Stack.create',
                   'f9e1a9ab23e5ef1c', '6a8717043d636275'),
            target('heat.engine.stack.Stack.defer_state_persist',
                   'a4e674e7b7ad0d58'),
            target('heat.engine.stack.Stack.persist_state_and_release_lock',
                   'e4bd12fa531d0a00'),
            target('heat.engine.stack.Stack.migrate_to_convergence',
                   'd7635b6dbe0228a3'),
            # What the migration stores back of a stack in memory.
            target('heat.engine.stack.Stack.store',
                   '72b64d321eca377e', '73c870558ca96c3c'),
            target('heat.engine.stack.Stack.get_kwargs_for_cloning',
                   '0d2f2aa558dd1efd'),
            target('heat.engine.stack.Stack._from_db', '7102b00fb8dad0dc'),
            target('heat.engine.scheduler.TaskRunner._sleep',
                   '55a562736123b4c5'),
            target('heat.engine.resource.Resource.state_set',
                   '4614f1132c25737a'),
            target('heat.engine.resource.Resource.node_data',
                   '209bff9076a6bd35'),
            target('heat.engine.resource.Resource.store_attributes',
                   'b782232b99f593a7'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'create_with_template', '9c564ec469d4458b'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'check_create_complete', '48ce56842fcab36d'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'get_output', '38d4930325f8e4de'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   'handle_create_cancel', '7a70234e9a039ceb'),
            target('heat.engine.resources.template_resource.'
                   'TemplateResource.get_reference_id', '4593bed21c8c129b'),
            target('heat.engine.resources.openstack.heat.resource_group.'
                   'ResourceGroup.handle_create', '4ae460ed43842872'))),
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
                   '2a4054b2db0d511c'),
            target('heat.engine.scheduler.TaskRunner.step',
                   'f4c01659918ace91'),
            target('heat.common.messaging.RequestContextSerializer.'
                   'deserialize_context', 'dfce240cac07b30b'),
            target('oslo_db.sqlalchemy.enginefacade.'
                   '_transaction_contexts_by_thread', '524e5725df55bd8c'),
            target('oslo_db.sqlalchemy.enginefacade._TransactionContext.'
                   '_session', 'bb1bf21e04118fb9'))),
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
                   'd65be2e2c20e6d43'),
            target('heat.engine.hot.functions.Yaql.__init__',
                   '203ca91adf9300fc'))),
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
                   '16dd409fb2eaf211'),
            # Where an evaluation converts its data.
            target('yaql.language.expressions.Statement.evaluate',
                   'c4f14ccee695ddfe'))),
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
                   'nested', 'da1539b9fabdc140'),
            target('heat.engine.stack.Stack.migrate_to_convergence',
                   'd7635b6dbe0228a3'))),
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
            target('heat.db.types.dumps', '5faadd4777480aed'),
            target('heat.engine.parameters.JsonParam.parse',
                   'f2813a95a2460500'),
            # Why the values come back: a child's parameter_defaults are
            # a new dict of its parent's values.
            target('heat.engine.environment.get_child_environment',
                   '692283b48f6ea3f4'),
            target('heat.engine.environment.Environment.load',
                   '268d5f6f32131380'),
            target('heat.engine.environment.Environment.env_as_dict',
                   'e9086ac79480d03b'),
            target('heat.engine.environment.Environment.user_env_as_dict',
                   '49f597df7b5002a5'))),
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
            target('heat.db.api.raw_template_create', 'abc09f5e6bd7f2b1'),
            target('heat.objects.raw_template.RawTemplate.create',
                   '4a6cc9c3c8a023f0'),
            target('heat.objects.raw_template.RawTemplate.from_db_object',
                   '706bcd41e72a39c2'),
            target('heat.db.api._resource_create', 'd23dc40b4a307775'),
            target('heat.db.api.resource_create', '1361f176007ba7a7'),
            target('heat.db.api._resource_prop_data_create_or_update',
                   '40b17f286e33d76d'),
            target('heat.db.api.resource_prop_data_create_or_update',
                   '103a6360823dcafd'),
            target('heat.db.api.resource_attr_id_set', '19de3b09bd7f0281'),
            target('heat.db.api._add_atomic_key_to_values',
                   '86ae477ce6592c9e'),
            # What the callers read of the rows they get.
            target('heat.objects.resource.Resource._from_db_object',
                   '785d3427af58ba9b'),
            target('heat.objects.resource_properties_data.'
                   'ResourcePropertiesData._from_db_object',
                   '3f1567f80d71984d'),
            target('heat.objects.resource.Resource.store_attributes',
                   '90481b705aa09b24'),
            # The conversion, what it reads and writes per resource, and
            # which resources a nested stack stored.
            target('heat.engine.stack.Stack.migrate_to_convergence',
                   'd7635b6dbe0228a3'),
            target('heat.objects.resource.Resource.convert_to_convergence',
                   '5df2ca97a7c8d1fe'),
            target('heat.db.api.resource_get_all_active_by_stack',
                   'cad86ca8e65f3a76'),
            target('heat.engine.stack.Stack._store_resources',
                   'ee5287be51b24af9'))),
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
                   'cf4c664de4366d7b', '462b3c140b6940c7'),)),
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
                   '4a3b17b241e9d83d'),
            target('heat.engine.stack.Stack.persist_state_and_release_lock',
                   'e4bd12fa531d0a00'),
            target('heat.engine.stack.Stack._send_notification_and_add_event',
                   '56b91ae1794f24c8'),
            # What stock writes and reads there.
            target('heat.objects.stack.Stack.update_and_save',
                   'abf46daa057e3926'),
            target('heat.db.api.stack_update', '18e1377959cdc748'),
            target('heat.db.api.persist_state_and_release_lock',
                   'd1a1014adacdd1ca'),
            target('heat.db.api.stack_get_root_id', '2f9b1b23cb7f0fe7'),
            # A new stack's name check and row (heat.db.api.stack_create is
            # checked by lean_database_writes, which replaces it), and the
            # store of a converted stack.
            target('heat.engine.service.EngineService._validate_new_stack',
                   'e6187570b71e0fcc'),
            target('heat.objects.stack.Stack.get_by_name',
                   '2c7d5563bba3b361'),
            target('heat.db.api._stack_get_by_name', '5556b85a1184348f'),
            target('heat.db.api._soft_delete_aware_query',
                   '3b22c0b5237d9f73'),
            target('heat.objects.stack.Stack.create', '123e99d5200c178f'),
            target('heat.objects.stack.Stack._from_db_object',
                   '8ad76fd8436b0e9e'),
            target('heat.engine.stack.Stack.store',
                   '72b64d321eca377e', '73c870558ca96c3c'))),
    Shim(
        'leaf_trigger_delay', 'sleeps', checked_on=HEAT,
        options=(Option(
            'leaf_trigger_delay', 'float', 1.0, 0.05, min=0.0,
            help='Seconds the convergence engine sleeps between triggering '
                 'two leaf resources (Heat hard-codes 1).'),),
        # Read by Stack._converge_create_or_update and Stack.validate.
        targets=(target('heat.engine.stack.time', 'b84dc8784e8fc527'),)),
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
        targets=(target('heat.engine.stack.time', 'b84dc8784e8fc527'),)),
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
                   '55a562736123b4c5'),
            target('heat.engine.scheduler.TaskRunner.__call__',
                   'ba8d0c05c57dbeae'),
            target('heat.engine.scheduler.TaskRunner.run_to_completion',
                   '430a894498d324b9'))),
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
            'service_objects', 'c6876de2df3ba44e'),)),
    Shim(
        'lazy_resource_definitions', 'definitions', checked_on=HEAT,
        options=(Option(
            'lazy_resource_definitions', 'bool', False, True,
            help='Parse a resource definition when it is first needed '
                 'instead of all of a stack\'s on every resource check.'),),
        targets=(
            target('heat.engine.stk_defn.StackDefinition.'
                   'resource_definition', 'a4030e59590d5cba'),
            target('heat.engine.stk_defn.StackDefinition._load_rsrc_defns',
                   '4894b42562ae13d9'),
            target('heat.engine.stk_defn.add_resource', '2e5c374324346ae1'),
            target('heat.engine.stk_defn.remove_resource',
                   '0d638ade9462264e'),
            target('heat.engine.stk_defn.update_resource_data',
                   '54251cc74f34b470'),
            target('heat.engine.hot.template.HOTemplate20130523.'
                   'resource_definitions', '01f905f35c14a302'))),
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
                   '26b35a1f6a894020'),
            target('heat.engine.output.OutputDefinition.dep_attrs',
                   'ae85edf4e2fc2908'),
            target('heat.engine.output.OutputDefinition.__init__',
                   'ee5ed169b4f0bd05'),
            target('heat.engine.function.all_dep_attrs', '64be79af1932785e'),
            target('heat.engine.function.dep_attrs', '66e5033010a7c45a'),
            target('heat.engine.hot.functions.GetAttThenSelect.dep_attrs',
                   'cc3d44e3dfb13244'),
            target('heat.engine.hot.functions.GetAttThenSelect.'
                   'all_dep_attrs', '3a0e1a47638130c5'),
            target('heat.engine.hot.functions.GetAtt._attr_path',
                   '4c42d9759964a71e'),
            target('heat.engine.stk_defn.StackDefinition.'
                   'enabled_output_names', '2d443a2ef2d0a055'),
            target('heat.engine.hot.functions.GetAttThenSelect._parse_args',
                   '4b0c158ec397b33a'),
            target('heat.engine.hot.functions.GetAttAllAttributes.'
                   '_parse_args', '5ef039eae8e61095'))),
    Shim(
        'fast_template_parse', 'definitions', checked_on=HEAT,
        options=(Option(
            'fast_template_parse', 'bool', False, True,
            help='Parse templates with exact-type checks first (same '
                 'results as Heat\'s parser, faster).'),),
        targets=(target('heat.engine.template.parse', '1b351b8b3d81ba67'),)),
    Shim(
        'template_validate_unhashed', 'definitions', checked_on=HEAT,
        options=(Option(
            'template_validate_unhashed', 'bool', False, True,
            help='Check a template\'s sections and resource types on '
                 'every validation instead of hashing the whole template '
                 'to skip checks it passed before (a quarter of the '
                 'cost, the same outcome).'),),
        targets=(target('heat.engine.template.Template.validate',
                        '9d684dc22d49bf80'),)),
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
            target('heat.engine.function.resolve', '3a1eddbc8468d40a'),
            target('heat.engine.function._non_null_item',
                   'ed64a286cbac6f8d'),
            target('heat.engine.function._non_null_value',
                   'adca269bc409f486'),
            target('heat.engine.function.validate', '20a89d333db84ca2'),
            target('heat.engine.function.dependencies', 'cbe2363e2f0dab3c'),
            target('heat.engine.function.dep_attrs', '66e5033010a7c45a'),
            target('heat.engine.function.all_dep_attrs', '64be79af1932785e'),
            target('heat.engine.rsrc_defn._hash_data', '5ecd3936a091e503'))),
    Shim(
        'nested_stack_wakeups', 'wakeups', checked_on=HEAT, when='in_process',
        options=(Option(
            'nested_stack_wait', 'float', 0.0, 10.0, min=0.0,
            help='With every engine in this process: seconds a parent '
                 'resource waits to be woken by its nested stack\'s next '
                 'state change before it polls again (0: poll every '
                 'task_poll_interval, as Heat does).'),),
        targets=(
            target('heat.db.api.stack_update', '18e1377959cdc748'),
            target('heat.db.api.stack_delete', '74ccde84c373c9b7'),
            target('heat.db.api.persist_state_and_release_lock',
                   'd1a1014adacdd1ca'),
            target('heat.engine.resources.stack_resource.StackResource.'
                   '_check_status_complete', '1396c035e71f5b86'))),
    Shim(
        'skip_unconsumed_notifications', 'wakeups', checked_on=HEAT,
        options=(Option(
            'skip_unconsumed_notifications', 'bool', False, True,
            help='Format stack notifications only when a notification '
                 'driver is set, and dispatch events only to a stack with '
                 'event sinks.'),),
        targets=(
            target('heat.engine.notification.stack.send',
                   '9df91fe34c681a48'),
            target('heat.engine.stack.Stack.dispatch_event',
                   '81247158eb032ab4'))),
)
