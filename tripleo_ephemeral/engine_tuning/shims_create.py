"""The shims of the fast create (:mod:`.registry`'s part): the create
itself (:mod:`.fast_create`), its transactions (:mod:`.fast_transactions`),
yaql results kept and yaql's input converted during it
(:mod:`.yaql_memo`), finished nested stacks let go of
(:mod:`.fast_release`), parameter_defaults encoded once
(:mod:`.shared_defaults`), outputs answered from memory
(:mod:`.fast_outputs`) and its rows, stacks and resource data written by
single statements (:mod:`.lean_rows`, :mod:`.lean_stacks`,
:mod:`.lean_data`) and nested stacks' registries copied
(:mod:`.child_env`). No Heat here.
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
        'fast_create_transactions', 'fast_create_transactions',
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
        'fast_create_yaql_cache', 'fast_create_yaql_cache', checked_on=HEAT,
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
        'fast_yaql_input', 'fast_yaql_input', checked_on=YAQL,
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
        'fast_create_release', 'fast_create_release', checked_on=HEAT[:1],
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
        'fast_create_shared_defaults', 'fast_create_shared_defaults',
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
        'fast_create_lean_rows', 'fast_create_lean_rows', checked_on=HEAT,
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
        'fast_create_final_outputs', 'fast_create_final_outputs',
        checked_on=HEAT,
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
        'fast_create_lean_stacks', 'fast_create_lean_stacks', checked_on=HEAT,
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
        # Only inside a fast create; it writes rows as lean_rows does.
        'fast_create_lean_resource_data', 'fast_create_lean_resource_data',
        checked_on=HEAT,
        options=(Option(
            'fast_create_lean_resource_data', 'bool', False, True,
            help='During a fast create, write a resource data row of a '
                 'key the resource has no row of (a deployed server\'s '
                 'credentials) with one INSERT of SQLAlchemy Core, after '
                 'one SELECT, instead of an ORM query and flush.'),),
        targets=(
            target('heat.db.api.resource_data_set', 'a4da377289a33a9e'),
            target('heat.db.api._resource_data_get_by_key',
                   '3d9941a15a1e1e08'),
            # What the callers get back.
            target('heat.objects.resource_data.ResourceData.set',
                   '7abe2973b252bc54'))),
    Shim(
        # Only inside a fast create.
        'fast_create_child_environment', 'fast_create_child_environment',
        checked_on=HEAT,
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
                   '28a025fc01a730e1'))),
)
