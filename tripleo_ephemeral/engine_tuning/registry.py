"""Every engine tuning shim, declared once (:mod:`.spec`). No Heat here.

A shim is switched on by the first ``[ephemeral_heat]`` option it lists
(unless it is always on), and replaces or relies on the targets it lists,
each with the fingerprints (:mod:`.fingerprint`) of the source it was
checked on. The runner's options (``runner_options.OPTS``), the
launcher's tuned and stock values (``heat_launcher.tuning.Tuning``), the
guard and the tests all come from here.

To re-check on a new release: ``python tools/check_tuning.py`` prints
each target's fingerprint beside the recorded ones. Read the diff of each
target that changed, fix the shim if it must change, then add the new
fingerprint (keep the old ones while those releases are supported) and the
release to ``checked_on``.
"""

from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

#: The releases the fingerprints were taken on. Every target matched the
#: same fingerprint on both Heats, oslo.dbs and oslo.messagings.
HEAT = ('openstack-heat 26.0.2', 'openstack-heat 27.0.1')
OSLO_DB = ('oslo.db 18.0.0', 'oslo.db 18.1.1')
OSLO_MESSAGING = ('oslo.messaging 17.3.0', 'oslo.messaging 18.3.1')
PYTHON = ('Python 3.11.7',)
FUTURIST = ('futurist 3.2.1',)
#: The in-memory bus's driver was read on this one only.
FAKE_BUS = ('oslo.messaging 17.3.0',)

#: Seconds a stopping runner gives in-flight work: enough for a fast
#: create to cancel its tree and convert it (1.3-2.5 s measured on a wide
#: create), so the dump holds a consistent convergence tree.
STOP_GRACE = 3.0

#: The runner's own settings (the launcher writes them): not tunings.
RUNNER_SETTINGS = (
    Option('bind_host', 'host', '127.0.0.1',
           help='Address the API listens on.'),
    Option('bind_port', 'port', 8006, help='Port the API listens on.'),
    Option('stop_grace', 'float', STOP_GRACE, min=0.0,
           help='Seconds a stopping runner gives the engine\'s in-flight '
                'work (and its listeners) before it exits. '
                'Heat\'s own stop waits until the '
                'worker has run every queued resource check, i.e. the whole '
                'create; an ephemeral Heat exits instead (its transactions '
                'are atomic, and a Heat started later on the database marks '
                'the stacks a dead engine left in progress FAILED).'),
)

#: Heat's own ``DEFAULT.executor_thread_pool_size``: (tuned, stock). At a
#: short leaf-trigger delay 64 threads hung a 200-member create (all
#: waiting on nested stacks); 256 did not.
EXECUTOR_THREAD_POOL_SIZE = (256, 64)

SHIMS = (
    Shim(
        'thread_safe_yaql', 'threads', always_on=True, checked_on=HEAT,
        targets=(target('heat.engine.hot.functions.Yaql._parse',
                        '861fc03020d0675f'),)),
    Shim(
        'thread_safe_ast_parse', 'threads', always_on=True,
        checked_on=PYTHON,
        targets=(target('ast.parse', 'c115d14d39c5468a'),)),
    Shim(
        'sqlite_begin_immediate', 'sqlite', off=False, checked_on=OSLO_DB,
        options=(Option(
            'sqlite_begin_immediate', 'bool', True, True,
            help='Start every SQLite transaction with BEGIN IMMEDIATE so '
                 'concurrent engine threads queue instead of failing with '
                 '"database is locked".'),),
        # Its BEGIN that a transaction already marked open skips.
        targets=(target('oslo_db.sqlalchemy.engines._init_events[sqlite]',
                        'f9228dd403b8bb80'),)),
    Shim(
        # SQLAlchemy's public events only: nothing to fingerprint.
        'sqlite_pragmas', 'sqlite', always_on=True,
        options=(
            Option('sqlite_busy_timeout_ms', 'int', 600000, 600000, min=0,
                   help='How long a SQLite writer waits for the lock. '
                        'Every transaction takes the lock at BEGIN, so '
                        'waiting cannot deadlock; SQLite waits by polling, '
                        'not in a queue, and at 60 s a 200-member create on '
                        'an overloaded machine failed with "database is '
                        'locked".'),
            Option('sqlite_journal_mode', 'str', 'DELETE', 'WAL',
                   help='PRAGMA journal_mode for SQLite databases.'),
            Option('sqlite_synchronous', 'str', 'FULL', 'NORMAL',
                   help='PRAGMA synchronous for SQLite databases.'))),
    Shim(
        'sqlite_pool', 'sqlite', checked_on=OSLO_DB,
        options=(Option(
            'sqlite_pool_size', 'int', 0, 32, min=0,
            help='SQLite connections kept open for reuse (more are opened '
                 'when needed). oslo.db opens and closes one per '
                 'transaction (0 keeps that).'),),
        targets=(target(
            'oslo_db.sqlalchemy.engines._init_connection_args[sqlite]',
            'adf2b5d5e550ec80'),)),
    Shim(
        # oslo.db's public thread_checkin setting: nothing to fingerprint.
        'checkin_yield', 'sqlite', stage='database',
        options=(Option(
            'checkin_yield', 'bool', True, False,
            help='Sleep 0 s each time a database connection goes back to '
                 'the pool, as oslo.db does for eventlet; with real threads '
                 'that only hands the interpreter to another thread.'),)),
    Shim(
        'atomic_sync_points', 'sync_points', checked_on=HEAT,
        options=(Option(
            'atomic_sync_points', 'bool', False, True,
            help='Read and update a convergence sync point in one database '
                 'transaction instead of retrying after a random wait when '
                 'another thread updated it first.'),),
        targets=(
            target('heat.engine.sync_point.update_sync_point',
                   '79ab891915bda9f1'),
            target('heat.engine.sync_point.update_input_data',
                   '5c5fa06286190cb9'))),
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
        'leaf_trigger_delay', 'sleeps', checked_on=HEAT,
        options=(Option(
            'leaf_trigger_delay', 'float', 1.0, 0.05, min=0.0,
            help='Seconds the convergence engine sleeps between triggering '
                 'two leaf resources (Heat hard-codes 1).'),),
        # Read by Stack._converge_create_or_update and Stack.validate.
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
            help='Ask only the resources whose template snippet names a '
                 'resource in an attribute function which of its attributes '
                 'they read, instead of parsing every resource definition '
                 'of the stack to ask them all.'),),
        targets=(
            target('heat.engine.resource.Resource.referenced_attrs',
                   '26b35a1f6a894020'),
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
    Shim(
        'rpc_idle_poll_max', 'messaging', checked_on=OSLO_MESSAGING,
        when='message_bus',
        options=(Option(
            'rpc_idle_poll_max', 'float', 5.0, 0.5, min=0.01,
            help='Longest wait, in seconds, of an idle message bus '
                 'listener before it looks again (oslo.messaging '
                 'hard-codes 5). A stopping engine finishes its listeners '
                 'one after another, each at its next look.'),),
        # Read by AMQPListener.poll and ReplyWaiter.poll.
        targets=(target(
            'oslo_messaging._drivers.amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MAX',
            '8a74fb873d60c013'),)),
    Shim(
        'in_process_bus_wakeup', 'messaging', checked_on=FAKE_BUS,
        when='in_process',
        options=(Option(
            'in_process_bus_wakeup', 'bool', False, True,
            help='With every engine in this process: wake the in-memory '
                 'bus\'s listeners when a message arrives instead of '
                 'every 50 ms (each API request and engine RPC waited up '
                 'to that long to be taken).'),),
        targets=(
            target('oslo_messaging._drivers.impl_fake.FakeListener.poll',
                   '063fbedf727d0566'),
            target('oslo_messaging._drivers.impl_fake.FakeListener.'
                   '__init__', 'e3518514700de507'),
            target('oslo_messaging._drivers.impl_fake.FakeExchange.'
                   'deliver_message', '7d79fceb39059e79'),
            target('oslo_messaging._drivers.impl_fake.FakeExchange.poll',
                   'b19559a706275ace'))),
    Shim(
        'prompt_executor_stop', 'messaging', checked_on=FUTURIST,
        options=(Option(
            'prompt_executor_stop', 'bool', False, True,
            help='Wake a stopping RPC server\'s idle worker threads at '
                 'once (futurist\'s look at them every second made an '
                 'engine that had served requests take a second more to '
                 'stop).'),),
        targets=(
            target('futurist._futures.ThreadPoolExecutor.shutdown',
                   'd83ef86ad48b243e'),
            target('futurist._thread.ThreadWorker._wait_for_work',
                   '09e89c8fdc438598'),
            target('futurist._thread.ThreadWorker.run',
                   'a7d17715d6d8b22d'))),
    Shim(
        # Python's public gc module: nothing to fingerprint.
        'gc_freeze', 'collector', stage='started',
        options=(Option(
            'gc_freeze', 'bool', False, True,
            help='Move every object that exists once Heat has started out '
                 'of the garbage collector\'s reach (gc.freeze): full '
                 'collections then scan only what came after.'),)),
    Shim(
        'gc_thresholds', 'collector', stage='started',
        options=(Option(
            'gc_thresholds', 'list', '', '10000,20,20',
            help='Thresholds of Python\'s cyclic garbage collector, '
                 'generation 0,1,2 (empty: Python\'s 700,10,10).'),)),
)


def tunings():
    """Every tuning option of the shims, in order."""
    return tuple(opt for shim in SHIMS for opt in shim.options)


def shim(name):
    """The shim called ``name``."""
    for candidate in SHIMS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)
