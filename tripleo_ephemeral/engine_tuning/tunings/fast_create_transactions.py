"""The transactions of a fast create: one per slice of its work.

A fast create (:mod:`.fast_create`) writes the whole tree from one thread,
and stock Heat opens a database session and a transaction for each call
of its database API: about a dozen per resource, a quarter of the CPU of
a realistic node's create. Here the steps of the create's tasks share one
session, whose transaction is committed once a slice of the work has run
``fast_create_transaction_slice`` seconds (checked at the next step of any
task of the tree):

* every database call of the create's thread with the tree's context
  joins that session, the engine RPC calls it runs inline included;
* every read still comes from the database (``populate_existing``), as
  with a session per call, and at each commit the session lets go of its
  objects as the end of a stock session does;
* SQLite's write lock is held for a slice: another thread's writes wait
  that long at most (a single step of a wide tree is the longest slice,
  about a second for a 200-member group); reads do not wait
  (:mod:`.sqlite_begin_immediate`);
* a call of the thread with another context, which would wait for that
  lock, commits the slice first;
* an error that is not the database's commits what the slice wrote (stock
  committed each call as it went); a database error rolls the slice back,
  as it would have rolled back its call.
"""

import logging
import threading
import time

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import OSLO_DB
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

LOG = logging.getLogger(__name__)

_local = threading.local()


class Slice:
    """The session of a fast create's work and its open transaction."""

    def __init__(self, session, length):
        self.session = session
        self.length = length
        self.since = time.monotonic()
        #: The connection of the open transaction (None: none is open).
        self.connection = None

    def began(self, _session, _transaction, connection):
        """The session's ``after_begin``: a transaction is open."""
        self.connection = connection
        self.since = time.monotonic()

    def due(self):
        return time.monotonic() - self.since >= self.length

    def commit(self):
        """Commit what the slice wrote; forget the objects it loaded."""
        self.connection = None
        self.session.commit()
        self.session.expunge_all()
        self.since = time.monotonic()

    def another_connection(self, connection):
        """The thread opens another connection while the slice holds the
        lock: release it."""
        if self.connection is not None and connection is not self.connection:
            LOG.debug('A database call with another context: committing '
                      'the fast create\'s transaction first')
            self.commit()


def current():
    """The open slice of this thread, or None."""
    return getattr(_local, 'slice', None)


def install(patches: Patches, fast_create_transaction_slice: float) -> None:
    """Group a fast create's database calls (see the module)."""
    from heat.common import messaging
    from heat.engine import scheduler
    from sqlalchemy import engine as sa_engine

    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    def stepping(stock):
        def step(self, *args, **kwargs):
            fast = fast_create.current()
            if fast is None or fast.context is None:
                return stock(self, *args, **kwargs)
            open_slice = current()
            if open_slice is None:
                return _in_slice(fast.context, fast_create_transaction_slice,
                                 stock, self, *args, **kwargs)
            if open_slice.connection is not None and open_slice.due():
                open_slice.commit()
            return stock(self, *args, **kwargs)
        return step

    for name in ('start', 'step'):
        patches.replace(scheduler.TaskRunner, name,
                        stepping(getattr(scheduler.TaskRunner, name)))

    stock_deserialize = messaging.RequestContextSerializer.deserialize_context

    def deserialize_context(ctxt):
        context = stock_deserialize(ctxt)
        if current() is not None:
            # an RPC call the fast create runs inline: same transaction
            context._enginefacade_context = (
                fast_create.current().context._enginefacade_context)
        return context

    patches.replace(messaging.RequestContextSerializer,
                    'deserialize_context', staticmethod(deserialize_context))

    def on_connect(conn):
        # before the connection's BEGIN (IMMEDIATE), which would wait
        open_slice = current()
        if open_slice is not None:
            open_slice.another_connection(conn)

    patches.listen(sa_engine.Engine, 'engine_connect', on_connect)


def _in_slice(context, length, stock, runner, *args, **kwargs):
    """Run the step of the tree's outermost task in slices."""
    from heat.db import api as db_api
    from oslo_db import exception as db_exception
    from sqlalchemy import event
    from sqlalchemy import exc as sa_exception

    error = None
    with db_api.context_manager.writer.using(context) as session:
        work = Slice(session, length)
        event.listen(session, 'after_begin', work.began)
        event.listen(session, 'do_orm_execute', _from_the_database)
        _fresh_get(session)
        _local.slice = work
        try:
            return stock(runner, *args, **kwargs)
        except (db_exception.DBError, sa_exception.SQLAlchemyError):
            raise
        except Exception as exc:
            error = exc
        finally:
            _local.slice = None
    raise error


def _from_the_database(orm_execute_state):
    """Reads refresh the objects the session holds, as a new session's."""
    if orm_execute_state.is_select:
        orm_execute_state.update_execution_options(populate_existing=True)


def _fresh_get(session):
    """``Session.get`` reads the row even when the session holds it."""
    stock_get = session.get

    def get(*args, **kwargs):
        kwargs.setdefault('populate_existing', True)
        return stock_get(*args, **kwargs)

    session.get = get


SHIM = Shim(
    # After fast_create: its steps run inside a fast create only.
    'fast_create_transactions', install, checked_on=HEAT + OSLO_DB,
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
               '_session', 'fbbbd706276384a4')))
