"""The ``[ephemeral_heat]`` options of the ``tripleo-heat-all`` runner.

Their defaults are Heat's own behaviour; the launcher writes the tuned
values (``heat_launcher.base.RUNNER_TUNINGS``) into heat.conf. A module of
its own so the options can be read without starting the runner's backend.
"""

from oslo_config import cfg

OPTS = [
    cfg.HostAddressOpt('bind_host', default='127.0.0.1',
                       help='Address the API listens on.'),
    cfg.PortOpt('bind_port', default=8006, help='Port the API listens on.'),
    cfg.FloatOpt('leaf_trigger_delay', default=1.0, min=0.0,
                 help='Seconds the convergence engine sleeps between '
                      'triggering two leaf resources (Heat hard-codes 1).'),
    cfg.FloatOpt('task_poll_interval', default=1.0, min=0.01,
                 help='Seconds between two checks of a resource in progress '
                      '(Heat hard-codes 1; a parent checks its nested stack '
                      'this often).'),
    cfg.BoolOpt('sqlite_begin_immediate', default=True,
                help='Start every SQLite transaction with BEGIN IMMEDIATE '
                     'so concurrent engine threads queue instead of failing '
                     'with "database is locked".'),
    cfg.StrOpt('sqlite_journal_mode', default='WAL',
               help='PRAGMA journal_mode for SQLite databases.'),
    cfg.StrOpt('sqlite_synchronous', default='NORMAL',
               help='PRAGMA synchronous for SQLite databases.'),
    cfg.IntOpt('sqlite_busy_timeout_ms', default=600000, min=0,
               help='How long a SQLite writer waits for the lock. Every '
                    'transaction takes the lock at BEGIN, so waiting cannot '
                    'deadlock; SQLite waits by polling, not in a queue, and '
                    'at 60 s a 200-member create on an overloaded machine '
                    'failed with "database is locked".'),
    cfg.IntOpt('sqlite_pool_size', default=0, min=0,
               help='SQLite connections kept open for reuse (more are '
                    'opened when needed). oslo.db opens and closes one per '
                    'transaction (0 keeps that).'),
    cfg.BoolOpt('checkin_yield', default=True,
                help='Sleep 0 s each time a database connection goes back '
                     'to the pool, as oslo.db does for eventlet; with real '
                     'threads that only hands the interpreter to another '
                     'thread.'),
    cfg.BoolOpt('atomic_sync_points', default=False,
                help='Read and update a convergence sync point in one '
                     'database transaction instead of retrying after a '
                     'random wait when another thread updated it first.'),
    cfg.IntOpt('resource_chain_concurrency', default=0, min=0,
               help='Members of a concurrent OS::Heat::ResourceChain '
                    'created at once. Heat allows as many as there are '
                    'running engines (0 keeps that rule), which creates '
                    'the chain one member at a time on a single engine.'),
    cfg.BoolOpt('fast_template_parse', default=False,
                help='Parse templates with exact-type checks first (same '
                     'results as Heat\'s parser, faster).'),
    cfg.BoolOpt('lazy_resource_definitions', default=False,
                help='Parse a resource definition when it is first needed '
                     'instead of all of a stack\'s on every resource '
                     'check.'),
    cfg.FloatOpt('nested_stack_wait', default=0.0, min=0.0,
                 help='With every engine in this process: seconds a parent '
                      'resource waits to be woken by its nested stack\'s '
                      'next state change before it polls again (0: poll '
                      'every task_poll_interval, as Heat does).'),
    cfg.BoolOpt('skip_unconsumed_notifications', default=False,
                help='Format stack notifications only when a notification '
                     'driver is set, and dispatch events only to a stack '
                     'with event sinks.'),
    cfg.BoolOpt('narrow_referenced_attrs', default=False,
                help='Ask only the resources whose template snippet names '
                     'a resource in an attribute function which of its '
                     'attributes they read, instead of parsing every '
                     'resource definition of the stack to ask them all.'),
    cfg.ListOpt('gc_thresholds', default=[],
                help='Thresholds of Python\'s cyclic garbage collector, '
                     'generation 0,1,2 (empty: Python\'s 700,10,10).'),
    cfg.FloatOpt('rpc_idle_poll_max', default=5.0, min=0.01,
                 help='Longest wait, in seconds, of an idle message bus '
                      'listener before it looks again (oslo.messaging '
                      'hard-codes 5). A stopping engine finishes its '
                      'listeners one after another, each at its next look.'),
    cfg.BoolOpt('gc_freeze', default=False,
                help='Move every object that exists once Heat has started '
                     'out of the garbage collector\'s reach (gc.freeze): '
                     'full collections then scan only what came after.'),
]
