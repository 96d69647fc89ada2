"""Resource and event writes without the reads stock Heat wraps them in.

Every state change of a resource stores its row and adds an event. Stock
Heat loads the resource row to update it and then reads it back with
three joined tables for callers that all drop it; it reads back the event
it just inserted (its properties joined, which the event object never
looks at); and each resource stored asks for its stack's root, walking
the nested stacks up a query per level, for a value that never changes.
On a realistic node's create these reads were two in five statements.
Here:

* ``Resource.update_by_id`` / ``update_and_save`` are one ``UPDATE`` of
  the values given (the row ends the same: the resource's ``updated_at``
  has no automatic value); a missing row or a value that is not a column
  goes the stock way, errors included;
* an event is one ``INSERT`` (the pruning of old events as stock does
  it) and its object is built from the values written, on SQLite, which
  keeps the timestamp's microseconds as written (a server database
  truncates them: there the stock insert and read-back stay);
* a new stack's row is checked to be the oldest of its name by reading
  ids, not the stacks with their templates and environments (stock's
  check decodes the whole template and environment of the stack it
  just wrote, for every nested stack);
* a stack's root id is looked up once per stack object;
* a template is stored without building the object stock builds from the
  row (a deep copy of the environment, decrypted) for a caller that keeps
  its id alone.
"""

import logging
import random

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target

LOG = logging.getLogger(__name__)


def _prune_events(db_api, context, stack_id):
    """Heat's pruning of a stack's oldest events, as its ``event_create``
    does it: looked at for one insert in ``event_purge_batch_size / 2`` on
    average; when the stack holds ``max_events_per_stack`` events, a batch
    of the oldest goes."""
    from oslo_config import cfg
    from oslo_db import exception as db_exception

    limit = cfg.CONF.max_events_per_stack
    batch = cfg.CONF.event_purge_batch_size
    if stack_id is None or not limit or random.uniform(0, 1) >= 2.0 / batch:
        return
    if db_api._event_count_all_by_stack(context, stack_id) < limit:
        return
    try:
        db_api._delete_event_rows(context, stack_id, batch)
    except db_exception.DBError as exc:
        LOG.error('Failed to purge events: %s', exc)


def install(patches: Patches) -> None:
    """Leave out the read-backs of resource updates, events, new stacks
    and templates, and repeated root id lookups (see the module)."""
    import sqlalchemy
    from heat.common import exception
    from heat.db import api as db_api
    from heat.db import models
    from heat.engine import stack
    from heat.engine import template
    from heat.objects import event as event_object
    from heat.objects import resource as resource_object

    resources = models.Resource.__table__
    # One statement, its SET clause the columns of the values it is run
    # with (compiled once per set of columns).
    update_one = resources.update().where(
        resources.c.id == sqlalchemy.bindparam('lean_resource_id'))
    resource_columns = {
        attr.key: attr.columns[0].name
        for attr in sqlalchemy.inspect(models.Resource).column_attrs}

    @db_api.context_manager.writer
    def update_resource(context, resource_id, values):
        values = db_api._truncate_status_reason(values)
        if values and resource_columns.keys() >= values.keys():
            params = {resource_columns[key]: value
                      for key, value in values.items()}
            params['lean_resource_id'] = resource_id
            if context.session.execute(update_one, params).rowcount:
                return
        # Anything else (no such row, a key that is not a column) as stock.
        row = context.session.get(models.Resource, resource_id)
        row.update(values)
        row.save(context.session)

    def update_by_id(cls, context, resource_id, values):
        update_resource(context, resource_id, values)

    def update_and_save(self, values):
        update_resource(self._context, self.id, values)

    patches.replace(resource_object.Resource, 'update_by_id',
                    classmethod(update_by_id))
    patches.replace(resource_object.Resource, 'update_and_save',
                    update_and_save)

    stock_event_create = db_api.event_create
    insert_event = models.Event.__table__.insert()
    event_columns = {attr.columns[0].name: attr.key
                     for attr in sqlalchemy.inspect(models.Event).column_attrs}

    @db_api.retry_on_db_error
    @db_api.context_manager.writer
    def create_event(context, values):
        if context.session.get_bind().dialect.name != 'sqlite':
            return dict(stock_event_create(context, values))
        _prune_events(db_api, context, values.get('stack_id'))
        # The model's own setters first (a reason is cut at 255
        # characters), then one INSERT of what they set; the object gets
        # the row's values as dict() of an inserted model gives them: the
        # columns given, their defaults (uuid, created_at), None for the
        # rest, the new id.
        model = models.Event()
        model.update(values)
        result = context.session.execute(insert_event, {
            name: model.__dict__[key] for name, key in event_columns.items()
            if key in model.__dict__})
        written = result.last_inserted_params()
        row = {key: written.get(name) for name, key in event_columns.items()}
        row['id'] = result.inserted_primary_key[0]
        return row

    def create(cls, context, values):
        return cls._from_db_object(context, cls(context=context),
                                   create_event(context, values))

    patches.replace(event_object.Event, 'create', classmethod(create))

    @db_api.context_manager.writer
    def create_stack_row(context, values):
        row = models.Stack()
        row.update(values)
        row.save(context.session)
        # Stock's check that this is the oldest stack of its name the
        # project sees, reading the id alone.
        earliest = db_api._soft_delete_aware_query(
            context, models.Stack.id).filter(sqlalchemy.or_(
                models.Stack.tenant == context.project_id,
                models.Stack.stack_user_project_id == context.project_id,
            )).filter_by(name=row.name).order_by(
                models.Stack.created_at).first()
        if earliest is not None and earliest.id != row.id:
            context.session.query(models.Stack).filter_by(
                id=row.id).delete()
            raise exception.StackExists(stack_name=row.name)
        return row

    patches.replace(db_api, 'stack_create', create_stack_row)

    stock_root = stack.Stack.root_stack_id

    def root_stack_id(self):
        known = self.__dict__.get('_lean_root_id')
        if known is not None and known[0] == self.owner_id:
            return known[1]
        root = stock_root(self)
        self.__dict__['_lean_root_id'] = (self.owner_id, root)
        return root

    patches.replace(stack.Stack, 'root_stack_id', root_stack_id)

    def store_template(self, context):
        values = {'template': self.t,
                  'files_id': self.files.store(context),
                  'environment': self.env.env_as_dict()}
        if self.id is None:
            self.id = db_api.raw_template_create(context, values).id
        else:
            if values['files_id']:
                values['files'] = None  # as RawTemplate.update_by_id
            db_api.raw_template_update(context, self.id, values)
        return self.id

    patches.replace(template.Template, 'store', store_template)


SHIM = Shim(
    'lean_database_writes', install, checked_on=HEAT,
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
               '0b7450502b1f1621')))
