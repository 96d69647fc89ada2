"""Convergence sync points read and written in one transaction."""

import threading

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


class _SyncPointRaced(Exception):
    """A sync point changed under a transaction that should have held it."""


def install(patches: Patches) -> None:
    """Read and write a convergence sync point in one transaction.

    Heat reads a sync point, merges its input in Python and writes it back
    only if its ``atomic_key`` did not move; when another writer got there
    first it retries after a random wait that grows exponentially, up to
    60 s. Here the read and the write are one writer transaction that
    holds the row from the read on: on SQLite every transaction starts
    with ``BEGIN IMMEDIATE``; on a server database the read locks the row
    (``SELECT ... FOR UPDATE``), so the pod's engines queue for it instead
    of colliding and backing off. If the write still finds the key moved,
    the transaction is rolled back and Heat's own retrying code runs.
    """
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import sync_point

    stock_sync = sync_point.update_sync_point
    stock_write = sync_point.update_input_data
    local = threading.local()

    def update_input_data(*args, **kwargs):
        rows = stock_write(*args, **kwargs)
        if not rows and getattr(local, 'atomic', False):
            raise _SyncPointRaced()
        return rows

    def lock_row(session, entity_id, traversal_id, is_update):
        if session.get_bind().dialect.name == 'sqlite':
            return  # BEGIN IMMEDIATE holds the whole database already
        session.query(models.SyncPoint).filter_by(
            entity_id=str(entity_id), traversal_id=traversal_id,
            is_update=is_update).with_for_update().first()

    def update_sync_point(cnxt, entity_id, traversal_id, is_update, *args,
                          **kwargs):
        local.atomic = True
        try:
            with db_api.context_manager.writer.using(cnxt) as session:
                lock_row(session, entity_id, traversal_id, is_update)
                return stock_sync(cnxt, entity_id, traversal_id, is_update,
                                  *args, **kwargs)
        except _SyncPointRaced:
            pass
        finally:
            local.atomic = False
        return stock_sync(cnxt, entity_id, traversal_id, is_update, *args,
                          **kwargs)

    patches.replace(sync_point, 'update_input_data', update_input_data)
    patches.replace(sync_point, 'update_sync_point', update_sync_point)


SHIM = Shim(
    'atomic_sync_points', install, checked_on=HEAT,
    options=(Option(
        'atomic_sync_points', 'bool', False, True,
        help='Read and update a convergence sync point in one database '
             'transaction instead of retrying after a random wait when '
             'another thread updated it first.'),),
    targets=(
        target('heat.engine.sync_point.update_sync_point',
               '1d2d370b23317063'),
        target('heat.engine.sync_point.update_input_data',
               '18ac1629790340e0')))
