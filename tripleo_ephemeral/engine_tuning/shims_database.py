"""The shims of real threads and the database (:mod:`.registry`'s part).

Fixes for engine threads that are real threads (:mod:`.threads`), SQLite's
transactions, PRAGMAs and pool (:mod:`.sqlite`), writes without their
read-backs (:mod:`.lean_writes`) and the convergence sync points
(:mod:`.sync_points`). No Heat here.
"""

from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import OSLO_DB
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import PYTHON
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

SHIMS = (
    Shim(
        'thread_safe_yaql', 'thread_safe_yaql',
        always_on=True, checked_on=HEAT,
        targets=(target('heat.engine.hot.functions.Yaql._parse',
                        '4e9e068c98be2c06'),)),
    Shim(
        'thread_safe_ast_parse', 'thread_safe_ast_parse', always_on=True,
        checked_on=PYTHON,
        # 3.10 has no such depth check; 3.12 runs the collector only
        # between bytecodes (gh-97922), and 3.11.8 and 3.12.2 keep the depth
        # per call (gh-106905). Measured: eight threads parsing while
        # finalizers switched threads failed within seconds on 3.11.7 and
        # ran clean for 20 s on 3.10.13, 3.12.1 and 3.13.0.
        pythons=((3, 11, 0), (3, 11, 8)),
        unneeded='only Python 3.11.0 to 3.11.7 share the AST constructor\'s '
                 'recursion depth between threads',
        targets=(target('ast.parse', '3718cab268c3ffaa'),)),
    Shim(
        'sqlite_begin_immediate', 'sqlite_begin_immediate',
        off=False, checked_on=OSLO_DB,
        options=(Option(
            'sqlite_begin_immediate', 'bool', True, True,
            help='Start every SQLite transaction that may write with '
                 'BEGIN IMMEDIATE so concurrent engine threads queue '
                 'instead of failing with "database is locked" (an oslo.db '
                 'reader\'s with a plain BEGIN: it never waits).'),),
        targets=(
            # Its BEGIN that a transaction already marked open skips.
            target('oslo_db.sqlalchemy.engines._init_events[sqlite]',
                   '2022f8ed55a964de'),
            # Where a transaction's mode is known; a reader cannot write.
            target('oslo_db.sqlalchemy.enginefacade._TransactionContext.'
                   '_produce_block', '26b374ab58d1a5d4'),
            target('oslo_db.sqlalchemy.enginefacade.'
                   '_AbstractTransactionContext._writer',
                   'e1e121ab78859066'))),
    Shim(
        # SQLAlchemy's public events only: nothing to fingerprint.
        'sqlite_pragmas', 'sqlite_pragmas', always_on=True,
        untargeted='listens to SQLAlchemy\'s documented "connect" event '
                   'and runs SQLite\'s documented PRAGMAs: no code of Heat '
                   'or a library is replaced',
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
        'sqlite_pool', 'sqlite_pool', checked_on=OSLO_DB,
        options=(Option(
            'sqlite_pool_size', 'int', 0, 32, min=0,
            help='SQLite connections kept open for reuse (more are opened '
                 'when needed). oslo.db opens and closes one per '
                 'transaction (0 keeps that).'),),
        targets=(target(
            'oslo_db.sqlalchemy.engines._init_connection_args[sqlite]',
            'e5d2fe09d4e57c13'),)),
    Shim(
        # After sqlite_pragmas: its connect listener (busy_timeout) first.
        'sqlite_stack_indexes', 'sqlite_stack_indexes',
        untargeted='listens to SQLAlchemy\'s documented "connect" event '
                   'and creates two indexes with SQLite\'s CREATE INDEX IF '
                   'NOT EXISTS: no code of Heat or a library is replaced',
        options=(Option(
            'sqlite_stack_indexes', 'bool', False, True,
            help='Index resource.stack_id and event.stack_id in a SQLite '
                 'database (a server database indexes these foreign keys '
                 'itself): without them each query of a stack\'s resources '
                 'or events reads the whole table.'),)),
    Shim(
        # oslo.db's public thread_checkin setting: nothing to fingerprint.
        'checkin_yield', 'checkin_yield', stage='database',
        untargeted='sets oslo.db\'s documented thread_checkin option of '
                   'Heat\'s context manager through configure(): no code '
                   'is replaced, and a renamed manager fails the install',
        options=(Option(
            'checkin_yield', 'bool', True, False,
            help='Sleep 0 s each time a database connection goes back to '
                 'the pool, as oslo.db does for eventlet; with real threads '
                 'that only hands the interpreter to another thread.'),)),
    Shim(
        'lean_database_writes', 'lean_database_writes', checked_on=HEAT,
        options=(Option(
            'lean_database_writes', 'bool', False, True,
            help='Write resources, events, stacks and templates without '
                 'reading each row back (the callers drop what the read '
                 'returns), and look a stack\'s root up once per stack '
                 'object.'),),
        targets=(
            # What update_by_id and update_and_save ran, less its read.
            target('heat.db.api.resource_update_and_save',
                   'dfda96a5332f3c40'),
            target('heat.db.api._truncate_status_reason', 'a916d773b1b6e024'),
            target('heat.objects.resource.Resource.update_by_id',
                   '5d63d5c5dde80ca3'),
            target('heat.objects.resource.Resource.update_and_save',
                   '4e1bfdcf4c225518'),
            # What Event.create ran, less its read; the pruning it does.
            target('heat.db.api.event_create', '4deb98d5b36c5a29'),
            target('heat.db.api._event_count_all_by_stack',
                   '01a68d0a4841545e'),
            target('heat.db.api._delete_event_rows', '31fff0a571ae501e'),
            target('heat.objects.event.Event.create', 'c812166a9d79068a'),
            target('heat.objects.event.Event._from_db_object',
                   '61e5d8b3afe67737'),
            # What stack_create ran, its check reading ids alone.
            target('heat.db.api.stack_create', 'd0bb3c0f9dac1adc'),
            target('heat.db.api._stack_get_by_name', '18e4ab4013eec635'),
            target('heat.db.api._soft_delete_aware_query',
                   '88c01e4ae229fb0c'),
            target('heat.engine.stack.Stack.root_stack_id',
                   'b5994f2e176aa1e6'),
            # What Template.store ran, less the object built of the row.
            target('heat.engine.template.Template.store',
                   '3f045b38481aa126'),
            target('heat.objects.raw_template.RawTemplate.create',
                   '0bf304d10471a69b'),
            target('heat.objects.raw_template.RawTemplate.update_by_id',
                   '0b7450502b1f1621'))),
    Shim(
        'atomic_sync_points', 'atomic_sync_points', checked_on=HEAT,
        options=(Option(
            'atomic_sync_points', 'bool', False, True,
            help='Read and update a convergence sync point in one database '
                 'transaction instead of retrying after a random wait when '
                 'another thread updated it first.'),),
        targets=(
            target('heat.engine.sync_point.update_sync_point',
                   '1d2d370b23317063'),
            target('heat.engine.sync_point.update_input_data',
                   '18ac1629790340e0'))),
)
