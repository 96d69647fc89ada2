"""A fast create's new rows written by single statements of SQLAlchemy Core.

Inside a fast create (:mod:`.fast_create`) most of the database's cost
was SQLAlchemy's ORM around a few statements, not the statements: each
new resource row and each properties or attributes row is an ORM object
flushed through a unit of work, each attributes row is pointed at by an
ORM bulk update that first evaluates its criteria against the session's
objects, and each nested stack converted to convergence at its end
(:mod:`.fast_create_release`) loads all its resources back, properties and
attributes joined and decoded, to learn the ids it holds in memory.
Here, during a fast create:

* a new template, resource, properties or attributes row is one
  ``INSERT`` of what the ORM would insert (the model's own setters
  first, the columns' defaults, the new id), and the caller gets the
  same values it got from the ORM object;
* a resource's attributes row is pointed at with one ``UPDATE`` under
  stock's conditions (its atomic key, no engine, no other attributes
  row); when that updates nothing the attributes row it wrote is
  deleted, as stock deletes it;
* a nested stack this thread created and has just finished (CREATE
  COMPLETE) is converted from the resources in memory (their rows are
  those it stored: the stack is new and nothing else writes to it),
  their ``requires`` and template written by one ``executemany``; the
  rest of the conversion is Heat's own.

Outside a fast create Heat runs its own code.
"""

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target


#: model -> {attribute: column name} of its columns
_COLUMNS: dict[type, dict[str, str]] = {}


def columns(model):
    """{attribute: column name} of an ORM model's columns."""
    found = _COLUMNS.get(model)
    if found is None:
        import sqlalchemy
        found = _COLUMNS[model] = {
            attr.key: attr.columns[0].name
            for attr in sqlalchemy.inspect(model).column_attrs}
    return found


def insert_new(session, obj):
    """INSERT the new ORM object ``obj`` with one statement; return it as
    the ORM's flush leaves it: the columns' defaults and its new id
    filled in (None for a column neither given nor defaulted)."""
    keys = columns(type(obj))
    result = session.execute(type(obj).__table__.insert(), {
        name: obj.__dict__[key] for key, name in keys.items()
        if key in obj.__dict__})
    written = result.last_inserted_params()
    for key, name in keys.items():
        if key not in obj.__dict__:
            setattr(obj, key, written.get(name))
    if 'id' in keys:
        obj.id = result.inserted_primary_key[0]
    return obj


def install(patches: Patches) -> None:
    """Write a fast create's new rows with single statements (see the
    module)."""
    import sqlalchemy
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import stack
    from oslo_utils import uuidutils

    from tripleo_ephemeral.engine_tuning.tunings import fast_create

    def lean():
        return fast_create.current() is not None

    stock_template_create = db_api.raw_template_create

    def raw_template_create(context, values):
        if not lean():
            return stock_template_create(context, values)
        row = models.RawTemplate()
        row.update(values)
        with db_api.context_manager.writer.using(context) as session:
            return insert_new(session, row)

    patches.replace(db_api, 'raw_template_create', raw_template_create)

    stock_resource_create = db_api._resource_create

    def _resource_create(context, values):
        if not lean():
            return stock_resource_create(context, values)
        row = models.Resource()
        row.data = []
        row.attr_data = None
        row.rsrc_attr_data = None
        row.update(db_api._truncate_status_reason(values))
        return insert_new(context.session, row)

    patches.replace(db_api, '_resource_create', _resource_create)

    stock_rpd = db_api._resource_prop_data_create_or_update

    def _resource_prop_data_create_or_update(context, values, rpd_id=None):
        if rpd_id is not None or not lean():
            return stock_rpd(context, values, rpd_id=rpd_id)
        row = models.ResourcePropertiesData()
        row.update(values)
        return insert_new(context.session, row)

    patches.replace(db_api, '_resource_prop_data_create_or_update',
                    _resource_prop_data_create_or_update)

    resources = models.Resource.__table__

    def pointing(key_matches):
        """Stock's UPDATE of a resource's attributes row, under its
        conditions (``atomic_key == None`` is SQL's IS NULL there)."""
        return resources.update().where(
            resources.c.id == sqlalchemy.bindparam('lean_id'), key_matches,
            resources.c.engine_id.is_(None),
            sqlalchemy.or_(
                resources.c.attr_data_id == sqlalchemy.bindparam(
                    'lean_attr'),
                resources.c.attr_data_id.is_(None))).values(
            attr_data_id=sqlalchemy.bindparam('lean_attr'),
            atomic_key=sqlalchemy.bindparam('lean_new_key'))

    point_at_attrs = pointing(
        resources.c.atomic_key == sqlalchemy.bindparam('lean_key'))
    point_unkeyed_at_attrs = pointing(resources.c.atomic_key.is_(None))
    attrs_rows = models.ResourcePropertiesData.__table__
    drop_attrs = attrs_rows.delete().where(
        attrs_rows.c.id == sqlalchemy.bindparam('lean_attr'))
    stock_attr_id_set = db_api.resource_attr_id_set

    def resource_attr_id_set(context, resource_id, atomic_key, attr_id):
        if lean():
            values = {'lean_id': resource_id, 'lean_attr': attr_id}
            db_api._add_atomic_key_to_values(values, atomic_key)
            values['lean_new_key'] = values.pop('atomic_key')
            if atomic_key is None:
                statement = point_unkeyed_at_attrs
            else:
                statement, values['lean_key'] = point_at_attrs, atomic_key
            with db_api.context_manager.writer.using(context) as session:
                if session.execute(statement, values).rowcount:
                    return True
                # As stock: another wrote first, or a stale key; the
                # attributes row written for it goes.
                session.execute(drop_attrs, {'lean_attr': attr_id})
                return False
        return stock_attr_id_set(context, resource_id, atomic_key, attr_id)

    patches.replace(db_api, 'resource_attr_id_set', resource_attr_id_set)

    convert = resources.update().where(
        resources.c.id == sqlalchemy.bindparam('lean_id')).values(
        requires=sqlalchemy.bindparam('lean_requires',
                                      type_=resources.c.requires.type),
        current_template_id=sqlalchemy.bindparam('lean_template'))
    stock_migrate = stack.Stack.migrate_to_convergence

    def migrate_to_convergence(self):
        fast = fast_create.current()
        if (fast is None or self.id not in fast.nested or self.convergence
                or self.state != (self.CREATE, self.COMPLETE)):
            return stock_migrate(self)
        held = self.resources
        if any(res.id is None for res in held.values()):
            return stock_migrate(self)
        res_id_dep = self.dependencies.translate(lambda res: res.id)
        current_template_id = self.t.id
        params = []
        for res in held.values():
            requires = set(res_id_dep.requires(res.id))
            res.requires = requires
            params.append({'lean_id': res.id,
                           'lean_requires': sorted(requires, reverse=True),
                           'lean_template': current_template_id})
        if params:
            with db_api.context_manager.writer.using(
                    self.context) as session:
                session.execute(convert, params)
        # the rest as Heat's own migrate_to_convergence
        self.current_traversal = uuidutils.generate_uuid()
        self.convergence = True
        prev_raw_template_id = self.prev_raw_template_id
        self.prev_raw_template_id = None
        self.store(ignore_traversal_check=True)
        if prev_raw_template_id:
            from heat.objects import raw_template as raw_template_object
            raw_template_object.RawTemplate.delete(self.context,
                                                   prev_raw_template_id)

    patches.replace(stack.Stack, 'migrate_to_convergence',
                    migrate_to_convergence)


SHIM = Shim(
    # After fast_create_release: it replaces migrate_to_convergence,
    # which that shim checks. Only inside a fast create.
    'fast_create_lean_rows', install, checked_on=HEAT,
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
               'a3d57c325ad3ec59')))
