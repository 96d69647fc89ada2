"""A fast create's stack state writes without the reads around them.

Inside a fast create (:mod:`.fast_create`) every nested stack is a legacy
stack of this thread, and stock Heat surrounds each of its state writes
with reads of rows it already knows:

* ``Stack._persist_state`` (a stack goes IN_PROGRESS) loads the stack's
  row to see that it exists, then updates it;
* ``Stack.persist_state_and_release_lock`` (it ends) loads the row too,
  updates it and deletes the stack's lock held by ``engine_id`` None,
  which no lock ever is (a lock names the engine holding it): that
  statement never deletes a row;
* ``Stack.root_stack_id`` walks the owners up to the root, a query per
  level, for every nested stack of the tree (and
  :mod:`.lean_database_writes` keeps it only per stack object).

And its new rows are written through SQLAlchemy's ORM around one
statement each: a stack's name looked up (the whole row and its template
loaded to see that there is none), its row inserted (a unit of work
flushed), and at its conversion to convergence its row updated by an ORM
bulk update.

Here the row is updated at once (one ``UPDATE``, its ``updated_at`` set
by the column's own default as stock's ``Query.update`` sets it) and the
event added after it in the same transaction, where stock added it after
the read: a row that is missing (it never is, in a create this thread
owns) goes the stock way. A stack's root is its owner's: once known for
a stack of the tree it is answered from memory for the stacks it owns. A
new stack's name is looked up by its id alone (a row found goes the stock
way, which refuses the name), its row is one ``INSERT`` (the object built
from what was written, as the ORM's after its flush), and the stored
stack of a conversion is one ``UPDATE`` of the values stock's store
writes, under its conditions.
Outside a fast create, and for convergence stacks, Heat runs its own.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

_ROOTS = 'lean_root_ids'


def install(patches: Patches) -> None:
    """Stack state writes without read-backs in a fast create (see the
    module)."""
    import sqlalchemy
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import stack

    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    stacks = models.Stack.__table__
    update_state = stacks.update().where(
        stacks.c.id == sqlalchemy.bindparam('lean_stack_id'),
        stacks.c.deleted_at.is_(None))

    def lean(stk):
        return (fast_create.current() is not None and not stk.convergence
                and stk.id is not None)

    def write_state(stk):
        """UPDATE the state, then the event, in one transaction; False when
        no row was updated (nothing written)."""
        values = db_api._truncate_status_reason(
            {'action': stk.action, 'status': stk.status,
             'status_reason': str(stk.status_reason)})
        with db_api.context_manager.writer.using(stk.context) as session:
            if not session.execute(update_state, dict(
                    values, lean_stack_id=stk.id)).rowcount:
                return False
            stk._send_notification_and_add_event()
        return True

    stock_persist = stack.Stack._persist_state

    def _persist_state(self):
        if not lean(self) or not write_state(self):
            return stock_persist(self)

    stock_release = stack.Stack.persist_state_and_release_lock

    def persist_state_and_release_lock(self, engine_id):
        if engine_id is not None or not lean(self) or not write_state(self):
            return stock_release(self, engine_id)

    patches.replace(stack.Stack, '_persist_state', _persist_state)
    patches.replace(stack.Stack, 'persist_state_and_release_lock',
                    persist_state_and_release_lock)

    stock_root = stack.Stack.root_stack_id

    def root_stack_id(self):
        fast = fast_create.current()
        if fast is None or not self.owner_id:
            return stock_root(self)
        roots = fast.__dict__.setdefault(_ROOTS, {})
        root = roots.get(self.owner_id)
        if root is None:
            root = stock_root(self)
            if root is not None:
                roots[self.owner_id] = root
        if self.id is not None:
            roots[self.id] = root
        return root

    patches.replace(stack.Stack, 'root_stack_id', root_stack_id)
    _install_rows(patches, lean)


def _install_rows(patches, lean):
    """A new stack's name check and row, and a converted stack's store,
    by single statements."""
    import sqlalchemy
    from heat.common import exception
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import stack
    from heat.objects import stack as stack_object

    from tripleo_ephemeral.engine_tuning.tunings import fast_create
    from tripleo_ephemeral.engine_tuning.tunings import (
        fast_create_lean_rows as lean_rows)

    def in_fast_create():
        return fast_create.current() is not None

    def visible(context, query):
        """Stock's _stack_get_by_name filters."""
        return db_api._soft_delete_aware_query(context, query).filter(
            sqlalchemy.or_(
                models.Stack.tenant == context.project_id,
                models.Stack.stack_user_project_id == context.project_id))

    stock_by_name = stack_object.Stack.get_by_name.__func__

    def get_by_name(cls, context, stack_name):
        if in_fast_create():
            with db_api.context_manager.reader.using(context):
                found = visible(context, models.Stack.id).filter_by(
                    name=str(stack_name)).first()
            if found is None:
                return None
        return stock_by_name(cls, context, stack_name)

    patches.replace(stack_object.Stack, 'get_by_name',
                    classmethod(get_by_name))

    stacks = models.Stack.__table__
    keys = lean_rows.columns(models.Stack)
    stock_create = stack_object.Stack.create.__func__

    def create(cls, context, values):
        if not in_fast_create():
            return stock_create(cls, context, values)
        row = models.Stack()
        row.update(values)
        with db_api.context_manager.writer.using(context) as session:
            lean_rows.insert_new(session, row)
            # Stock's check that this is the oldest stack of its name.
            earliest = visible(context, models.Stack.id).filter_by(
                name=row.name).order_by(models.Stack.created_at).first()
            if earliest is not None and earliest.id != row.id:
                session.execute(stacks.delete().where(
                    stacks.c.id == row.id))
                raise exception.StackExists(stack_name=row.name)
        return cls._from_db_object(context, cls(context), row)

    patches.replace(stack_object.Stack, 'create', classmethod(create))

    stock_store = stack.Stack.store

    def store(self, backup=False, exp_trvsl=None,
              ignore_traversal_check=False, use_stored_context=False):
        if (not in_fast_create() or self.id is None or not self.convergence
                or self.refresh_cred or self.t.id is None):
            return stock_store(self, backup, exp_trvsl,
                               ignore_traversal_check, use_stored_context)
        s = self.get_kwargs_for_cloning(keep_status=True, only_db=True)
        s['name'] = self.name
        s['backup'] = backup
        s['updated_at'] = self.updated_time
        s['raw_template_id'] = self.t.id
        if exp_trvsl is None and not ignore_traversal_check:
            exp_trvsl = self.current_traversal
        values = db_api._truncate_status_reason(s)
        if not keys.keys() >= values.keys():
            return stock_store(self, backup, exp_trvsl,
                               ignore_traversal_check, use_stored_context)
        update = stacks.update().where(stacks.c.id == self.id,
                                       stacks.c.deleted_at.is_(None))
        if not self.context.is_admin:
            update = update.where(sqlalchemy.or_(
                stacks.c.tenant == self.context.project_id,
                stacks.c.stack_user_project_id == self.context.project_id))
        if exp_trvsl is not None:
            update = update.where(stacks.c.current_traversal == exp_trvsl)
        with db_api.context_manager.writer.using(
                self.context) as session:
            updated = session.execute(update.values(
                {keys[key]: value for key, value in values.items()})
            ).rowcount
        if not updated:  # stock finds out why, and returns None
            return stock_store(self, backup, exp_trvsl,
                               ignore_traversal_check, use_stored_context)
        self._store_tags()
        self._set_param_stackid()
        return self.id

    patches.replace(stack.Stack, 'store', store)


SHIM = Shim(
    # Only inside a fast create, for its legacy stacks. It wraps
    # Stack.root_stack_id as lean_database_writes leaves it (checked
    # there).
    'fast_create_lean_stacks', install, checked_on=HEAT,
    options=(Option(
        'fast_create_lean_stacks', 'bool', False, True,
        help='During a fast create, write a nested stack\'s state '
             'with one UPDATE (no read of its row before, no delete of '
             'a lock it never holds), answer its root from its '
             'owner\'s, known in memory, instead of a query per level '
             'up the tree, and check a new stack\'s name, insert its '
             'row and store it converted with one statement each '
             'instead of through the ORM.'),),
    wraps=('lean_database_writes',),
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
               '92734564d8e94953', '0faa590b21462c9b')))
