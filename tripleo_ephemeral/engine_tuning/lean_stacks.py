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
  :mod:`.lean_writes` keeps it only per stack object).

Here the row is updated at once (one ``UPDATE``, its ``updated_at`` set
by the column's own default as stock's ``Query.update`` sets it) and the
event added after it in the same transaction, where stock added it after
the read: a row that is missing (it never is, in a create this thread
owns) goes the stock way. A stack's root is its owner's: once known for
a stack of the tree it is answered from memory for the stacks it owns.
Outside a fast create, and for convergence stacks, Heat runs its own.
"""

_ROOTS = 'lean_root_ids'


def install_fast_create_lean_stacks(patches):
    """Stack state writes without read-backs in a fast create (see the
    module)."""
    import sqlalchemy
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import stack

    from tripleo_ephemeral.engine_tuning import fast_create

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
