"""Nested stacks of a fast create (:mod:`.fast_create`), in its thread.

Stock Heat creates a nested stack through an RPC ``create_stack`` (a new
engine thread, a stack lock), polls its status from the database every
second and reads its outputs through an RPC ``show_stack``. Inside a fast
create the parent resource does the same steps itself: the stack is
validated and stored as ``EngineService.create_stack`` does, its
``Stack.stack_task`` is stepped by the parent's ``check_create_complete``,
and its outputs are computed from the stack in memory as ``show_stack``
computes them.
"""

import logging

LOG = logging.getLogger(__name__)


def install(patches, current, stopping):
    """Replace the nested-stack steps of StackResource; ``current()`` is
    the fast create of this thread (None outside one); ``stopping`` is
    set when the engine stops (one root step can start hundreds of nested
    stacks: each checks it, so a stop does not wait for the step)."""
    from heat.common import exception
    from heat.engine import scheduler
    from heat.engine.resources import stack_resource
    from heat.engine.resources import template_resource
    from heat.objects import raw_template

    from heat.engine import resource

    stock_node_data = resource.Resource.node_data

    def node_data(self, stk_defn=None, for_resources=True, for_outputs=False):
        data = stock_node_data(self, stk_defn, for_resources, for_outputs)
        if (current() is not None and for_resources and
                for_outputs is False and self.id is not None):
            # As the convergence engine after a resource's check: the
            # cacheable attributes the outputs read cached too, and all of
            # them stored (reading the tree's outputs later needs them).
            stock_node_data(self, stk_defn, False, True)
            self.store_attributes()
        return data

    patches.replace(resource.Resource, 'node_data', node_data)

    from heat.engine.resources.openstack.heat import resource_group

    group = resource_group.ResourceGroup
    stock_group_create = group.handle_create

    def group_handle_create(self):
        if current() is None or self.stack.convergence:
            return stock_group_create(self)
        # A batch_create policy makes stock create an empty nested stack
        # and update it over RPC once per batch, in a thread of its own
        # (whose nested creates are then convergence creates), while this
        # thread waits. Batches pace server builds in a cloud; here the
        # whole group is created at once, as without the policy: the same
        # members, the group's nested stack CREATE_COMPLETE where stock's
        # ends UPDATE_COMPLETE.
        self._update_name_skiplist(self.properties)
        self.create_with_template(self._assemble_nested(
            self._resource_names()), self.child_params())

    patches.replace(group, 'handle_create', group_handle_create)

    cls = stack_resource.StackResource
    stock_create = cls.create_with_template
    stock_check = cls.check_create_complete
    stock_output = cls.get_output
    stock_cancel = cls.handle_create_cancel
    stock_reference = template_resource.TemplateResource.get_reference_id

    def create_with_template(self, child_template, user_params=None,
                             timeout_mins=None, adopt_data=None):
        fast = current()
        if fast is None or adopt_data is not None or self.stack.convergence:
            return stock_create(self, child_template, user_params,
                                timeout_mins, adopt_data)
        if stopping.is_set():
            raise exception.ResourceFailure('The engine is stopping', self,
                                            action=self.action)
        if timeout_mins is None:
            timeout_mins = self.stack.timeout_mins
        tmpl = self.child_definition(child_template, user_params).t
        tmpl.store(self.context)
        try:
            nested = _new_stack(fast.service, self, tmpl, timeout_mins)
        except AssertionError:
            raise
        except Exception as ex:
            # what the RPC create_stack's error becomes in stock Heat
            raw_template.RawTemplate.delete(self.context, tmpl.id)
            raise exception.ResourceFailure(str(ex), self,
                                            action=self.action)
        nested.store()
        self.resource_id_set(nested.id)
        nested._store_resources()
        runner = scheduler.TaskRunner(nested.stack_task,
                                      action=nested.CREATE, reverse=False,
                                      post_func=None)
        fast.nested[nested.id] = (nested, runner)
        fast.created += 1
        self._nested = nested
        self._outputs = None
        self._fast_runner = runner
        self._fast_outputs = False
        runner.start(timeout=nested.timeout_secs())

    def check_create_complete(self, cookie=None):
        runner = getattr(self, '_fast_runner', None)
        if runner is None:
            return stock_check(self, cookie)
        nested = self._nested
        if stopping.is_set():
            self._fast_runner = None
            cancel(nested, runner)
            raise exception.ResourceFailure('The engine is stopping', self,
                                            action=self.CREATE)
        try:
            if not runner.step():
                return False
        except Exception as ex:  # as Stack.create's reset_state_on_error
            nested.state_set(nested.CREATE, nested.FAILED, str(ex))
            raise
        finally:
            if runner.done() or nested.status != nested.IN_PROGRESS:
                self._fast_runner = None
                persist(nested)
        self._fast_outputs = True
        if nested.status == nested.FAILED:
            raise exception.ResourceFailure(nested.status_reason, self,
                                            action=self.CREATE)
        return True

    def handle_create_cancel(self, cookie):
        runner = getattr(self, '_fast_runner', None)
        if runner is None:
            return stock_cancel(self, cookie)
        # stock: stack_cancel_update over RPC, the nested stack's thread
        # cancelled; here its task is in this thread
        self._fast_runner = None
        cancel(self._nested, runner)

    def get_output(self, op):
        if getattr(self, '_fast_outputs', False) and self._nested is not None:
            outputs_in_memory(self)
        return stock_output(self, op)

    def get_reference_id(self):
        if (getattr(self, '_fast_outputs', False) and
                self._nested is not None and
                template_resource.STACK_ID_OUTPUT in self.attributes and
                template_resource.STACK_ID_OUTPUT not in
                self.attributes.cached_attrs):
            # stock asks show_output over RPC when no output was read yet
            outputs_in_memory(self)
        return stock_reference(self)

    patches.replace(cls, 'create_with_template', create_with_template)
    patches.replace(cls, 'check_create_complete', check_create_complete)
    patches.replace(cls, 'get_output', get_output)
    patches.replace(cls, 'handle_create_cancel', handle_create_cancel)
    patches.replace(template_resource.TemplateResource, 'get_reference_id',
                    get_reference_id)


_PLAIN = (str, int, float, bool, type(None))


def outputs_in_memory(res):
    """show_stack's outputs of a nested stack this thread created (the
    StackResource ``res``'s), kept as its ``_outputs``."""
    from heat.engine import api
    from heat.engine import stk_defn
    from heat.rpc import api as rpc_api

    nested = res._nested
    for child in nested._explicit_dependencies():
        stk_defn.update_resource_data(
            nested.defn, child.name,
            child.node_data(for_resources=False, for_outputs=True))
    outputs = primitive(
        api.format_stack_outputs(nested.outputs, resolve_value=True))
    res._outputs = {o[rpc_api.OUTPUT_KEY]: o for o in outputs}
    res._fast_outputs = False


def primitive(value):
    """What Heat's RPC serializer makes of ``value`` (oslo's
    ``to_primitive`` with instances converted), walking exact dicts and
    lists and leaving plain scalars as they are itself: outputs are JSON
    data all but everywhere, and the stock walk tries some fifteen types
    on every node of THT's large outputs. Anything else goes to oslo (at
    the same depth: dicts and lists do not deepen it)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {primitive(k): primitive(v) for k, v in value.items()}
    if kind is list:
        return [primitive(item) for item in value]
    from oslo_serialization import jsonutils
    return jsonutils.to_primitive(value, convert_instances=True)


def persist(nested):
    """Write the nested stack's end state (COMPLETE or FAILED), once: the
    legacy engine writes it when the stack's thread ends."""
    if not getattr(nested, '_fast_persisted', False):
        nested._fast_persisted = True
        nested.persist_state_and_release_lock(None)


def cancel(nested, runner):
    """End a nested stack's create if it has not ended: its resources in
    progress aborted, the stack CREATE_FAILED (as a cancelled legacy
    create ends)."""
    if getattr(nested, '_fast_persisted', False):
        return
    runner.cancel()
    if nested.status == nested.IN_PROGRESS:
        nested.state_set(nested.CREATE, nested.FAILED,
                         'Stack CREATE cancelled')
    persist(nested)


def _new_stack(service, parent, tmpl, timeout_mins):
    """The nested Stack, validated as ``EngineService.create_stack`` (its
    ``_parse_template_and_validate_stack``) validates one."""
    from heat.engine import stack as parser

    name = parent.physical_resource_name()
    service._validate_new_stack(parent.context, name, tmpl)
    nested = parser.Stack(
        parent.context, name, tmpl,
        owner_id=parent.stack.id,
        nested_depth=parent._child_nested_depth(),
        user_creds_id=parent.stack.user_creds_id,
        stack_user_project_id=parent.stack.stack_user_project_id,
        convergence=False,
        parent_resource=parent.name,
        timeout_mins=timeout_mins,
        disable_rollback=True)
    service.resource_enforcer.enforce_stack(nested, is_registered_policy=True)
    service._validate_deferred_auth_context(parent.context, nested)
    nested.validate()
    nested.thread_group_mgr = parent.stack.thread_group_mgr
    return nested


#: What ``Stack.store`` writes from a stack (its
#: ``get_kwargs_for_cloning(keep_status=True, only_db=True)``, its name and
#: template), as (attribute of the Stack, field of its database row).
_STORED = (('owner_id', 'owner_id'), ('username', 'username'),
           ('disable_rollback', 'disable_rollback'),
           ('stack_user_project_id', 'stack_user_project_id'),
           ('user_creds_id', 'user_creds_id'),
           ('nested_depth', 'nested_depth'), ('convergence', 'convergence'),
           ('current_traversal', 'current_traversal'),
           ('prev_raw_template_id', 'prev_raw_template_id'),
           ('current_deps', 'current_deps'), ('action', 'action'),
           ('status', 'status'), ('status_reason', 'status_reason'),
           ('parent_resource_name', 'parent_resource_name'),
           ('tenant_id', 'tenant'), ('timeout_mins', 'timeout'),
           ('name', 'name'))
#: Compared as text: a reason is stored as ``str()`` of it, and the
#: context's ``user_creds_id`` is the text of the integer in the row.
_AS_TEXT = ('status_reason', 'user_creds_id')


def as_loaded(nested, db_stack):
    """The nested stack this thread created, as ``Stack.load`` of its row
    would give it for ``migrate_to_convergence`` (which stores it back):
    None when there is none, or when the row differs in what is stored
    (then it is loaded). Loading parses every template of the tree
    again."""
    if nested is None or nested.t.id != db_stack.raw_template_id:
        return None
    for attr, field in _STORED:
        value, stored = getattr(nested, attr), getattr(db_stack, field)
        if attr in _AS_TEXT and None not in (value, stored):
            value, stored = str(value), str(stored)
        if value != stored:
            return None
    # set by the database on each update of the row; a load reads it
    nested.updated_time = db_stack.updated_at
    return nested
