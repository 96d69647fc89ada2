"""A fast create's resource data rows written by single statements.

A resource keeps small named values in ``resource_data`` rows (a deployed
server: its user id, password, access key and secret, four per server on
tripleo-heat-templates). Stock Heat's ``resource_data_set`` reads the row
of that key through the ORM, and inserts a new ORM object (or changes the
one read) through a unit of work: a query and a flush per value, the
largest part of a deployed server's create after its metadata.

Inside a fast create (:mod:`.fast_create`) the row of that key is looked
for with one ``SELECT`` of SQLAlchemy Core; when there is none (a resource
being created: every such write of a create) the new row is one
``INSERT`` of what the ORM would insert
(:func:`.fast_create_lean_rows.insert_new`), encrypted first as stock
encrypts it, and the caller gets the same values it got from the ORM
object. A key that has a row goes to Heat's own code,
as does everything outside a fast create.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


def install(patches: Patches) -> None:
    """Write a fast create's new resource data rows with one statement
    each (see the module)."""
    import sqlalchemy
    from heat.common import crypt
    from heat.db import api as db_api
    from heat.db import models

    from tripleo_ephemeral.engine_tuning.tunings import fast_create
    from tripleo_ephemeral.engine_tuning.tunings import (
        fast_create_lean_rows as lean_rows)

    rows = models.ResourceData.__table__
    stock_set = db_api.resource_data_set

    def resource_data_set(context, resource_id, key, value, redact=False):
        if fast_create.current() is None:
            return stock_set(context, resource_id, key, value, redact)
        with db_api.context_manager.writer.using(context) as session:
            found = session.execute(
                sqlalchemy.select(rows.c.id).where(
                    rows.c.resource_id == resource_id,
                    rows.c.key == key).limit(1)).first()
            if found is not None:
                return stock_set(context, resource_id, key, value, redact)
            if redact:
                method, value = crypt.encrypt(value)
            else:
                method = ''
            row = models.ResourceData()
            row.key = key
            row.resource_id = resource_id
            row.redact = redact
            row.value = value
            row.decrypt_method = method
            return lean_rows.insert_new(session, row)

    patches.replace(db_api, 'resource_data_set', resource_data_set)


SHIM = Shim(
    # Only inside a fast create; it writes rows as fast_create_lean_rows
    # does.
    'fast_create_lean_resource_data', install, checked_on=HEAT,
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
               '7abe2973b252bc54')))
