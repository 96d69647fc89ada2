"""The fast path of a fresh create: one engine thread, the tree in memory.

Ephemeral Heat creates a fresh stack tree and reads its outputs; with
deployed servers every resource of it is internal to Heat. The
convergence engine spends most of that create on machinery built for
long work against other services (a stack reload, sync points and a
message per resource check; an RPC create, a lock and polling per nested
stack). Here a fresh root create (no adopt data, no parent) runs on
Heat's legacy engine in the engine thread stock Heat's legacy create
uses, and every nested stack of the tree is created in that same thread,
stepped by its parent resource instead of by a thread of its own:

* the nested stack is validated and stored as ``EngineService.create_stack``
  does (same checks, same rows), its resources created by Heat's own
  ``Stack.stack_task``; no RPC, no stack lock, no status polling;
* a parent reads the outputs of a nested stack it created that way from
  the stack in memory, as ``show_stack`` would compute them from the
  database (the same values, serialised as RPC would);
* the root's task steps without Heat's 1 s sleep while resources change
  state, and backs off to it while nothing does (a resource waiting for
  a signal);
* when the root create ends, every stack of the tree is converted with
  Heat's own ``Stack.migrate_to_convergence`` (what ``heat-manage
  migrate_convergence_1`` does): the saved tree is a convergence tree,
  and updates, deletes and a restored dump run on stock convergence
  (with :mod:`.fast_create_release`, a nested stack is converted, and
  let go of, as soon as it ends CREATE_COMPLETE).

Everything else (updates, deletes, adopt, nested stacks created outside
the fast create's thread, ``convergence_engine = false``) runs stock.
"""

import logging

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import HEAT
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim
from tripleo_ephemeral.engine_tuning.spec import target
from tripleo_ephemeral.engine_tuning.tunings.fast_create import state
# What the other tunings ask: the fast create running in this thread.
from tripleo_ephemeral.engine_tuning.tunings.fast_create.state import current

LOG = logging.getLogger(__name__)


def install(patches: Patches) -> None:
    """Create fresh root stacks on the fast path (see the module)."""
    from oslo_config import cfg
    from heat.common import context
    from heat.engine import resource
    from heat.engine import scheduler
    from heat.engine import service
    from heat.rpc import api as rpc_api

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)
    from tripleo_ephemeral.engine_tuning.tunings.fast_create import root

    # Under Heat's request_context (errors become RPC errors), as stock.
    stock_create_stack = service.EngineService.create_stack.__wrapped__
    stock_sleep = scheduler.TaskRunner._sleep
    stock_state_set = resource.Resource.state_set

    def create_stack(self, cnxt, stack_name, template, params, files, args,
                     environment_files=None, files_container=None,
                     owner_id=None, nested_depth=0, user_creds_id=None,
                     stack_user_project_id=None, parent_resource_name=None,
                     template_id=None):
        if (owner_id is not None or not cfg.CONF.convergence_engine or
                (args or {}).get(rpc_api.PARAM_ADOPT_STACK_DATA)):
            return stock_create_stack(
                self, cnxt, stack_name, template, params, files, args,
                environment_files, files_container, owner_id, nested_depth,
                user_creds_id, stack_user_project_id, parent_resource_name,
                template_id)
        return root.create_root(
            self, cnxt, stack_name, template, params, files, args,
            environment_files, files_container, user_creds_id,
            stack_user_project_id, parent_resource_name, template_id)

    patches.replace(service.EngineService, 'create_stack',
                    context.request_context(create_stack))

    def _sleep(self, wait_time):
        fast = current()
        if fast is None or wait_time is None:
            return stock_sleep(self, wait_time)
        return stock_sleep(self, fast.next_pause(wait_time))

    patches.replace(scheduler.TaskRunner, '_sleep', _sleep)

    def state_set(self, *args, **kwargs):
        fast = current()
        if fast is not None:
            fast.changes += 1
        return stock_state_set(self, *args, **kwargs)

    patches.replace(resource.Resource, 'state_set', state_set)

    stock_stop = service.EngineService.stop

    def stop(self):
        # Heat's stop waits for every stack thread: a fast create is one
        # thread for the whole tree, so it is cancelled first (as
        # ``stack cancel`` would: the tree ends CREATE_FAILED, converted).
        state.stopping.set()
        with state.running_lock:
            running = list(state.running.items())
        for stack_id, manager in running:
            LOG.info('Engine stopping: cancelling the create of stack %s',
                     stack_id)
            manager.send(stack_id, rpc_api.THREAD_CANCEL)
        return stock_stop(self)

    patches.replace(service.EngineService, 'stop', stop)
    patches.on_undo(state.stopping.clear)
    fast_nested.install(patches, current, state.stopping)
    _install_calls(patches)


def _install_calls(patches):
    """An engine RPC call from a fast create's thread (a software config
    or deployment of a resource, say) runs in that thread on its engine,
    as the engine's RPC server would run it: arguments, context and
    result serialised as Heat's serializer does. Through the in-memory
    bus each call waited up to 50 ms for the server's next poll; the
    fast create makes its calls one after another."""
    from oslo_serialization import jsonutils
    from heat.common import messaging
    from heat.rpc import client as rpc_client

    stock_call = rpc_client.EngineClient.call
    serializer = messaging.RequestContextSerializer

    def call(self, ctxt, msg, version=None, timeout=None):
        fast = current()
        if fast is None:
            return stock_call(self, ctxt, msg, version, timeout)
        method, kwargs = msg
        fn = getattr(type(fast.service), method)
        while hasattr(fn, '__wrapped__'):  # request_context, osprofiler
            fn = fn.__wrapped__
        server_ctxt = serializer.deserialize_context(
            serializer.serialize_context(ctxt))
        kwargs = jsonutils.to_primitive(kwargs, convert_instances=True)
        state.local.create = None  # the server's thread is not the create's
        try:
            result = fn(fast.service, server_ctxt, **kwargs)
        finally:
            state.local.create = fast
        return jsonutils.to_primitive(result, convert_instances=True)

    patches.replace(rpc_client.EngineClient, 'call', call)


SHIM = Shim(
    # Before the shims that replace TaskRunner._sleep: its fingerprint
    # is taken of Heat's own. The targets that differ between the two
    # Heats (EngineService methods, Stack.create) differ only in
    # osprofiler's tracing wrapper; their code is the same.
    'fast_create', install, checked_on=HEAT,
    options=(Option(
        'fast_create', 'bool', False, True,
        help='Create a fresh root stack on Heat\'s legacy engine with '
             'every nested stack created and stepped in the root\'s '
             'engine thread, then convert the tree with Heat\'s own '
             'migrate_to_convergence: a third of the CPU of a '
             'convergence create. Updates, deletes, adopt and restored '
             'stacks stay on convergence.'),),
    targets=(
        target('heat.engine.service.EngineService.create_stack',
               '40111cf36d0d0ed9', 'edc6ddbbd7036ec1'),
        target('heat.engine.service.EngineService.'
               '_parse_template_and_validate_stack', '5d5cb1f85bc04dfd'),
        target('heat.engine.service.EngineService._validate_new_stack',
               '93529472815bebe7'),
        target('heat.engine.service.EngineService.show_stack',
               'cd7f264467aba8b0', '964112c656589316'),
        target('heat.engine.service.EngineService.migrate_convergence_1',
               '999e94515493bde5', '0306bc9c9fef007a'),
        target('heat.engine.service.EngineService.stop',
               'a1db58ee85989594', '97910c27d8e0b3af'),
        target('heat.engine.service.ThreadGroupManager.send',
               '98919dfdffa197b0'),
        target('heat.rpc.client.EngineClient.call', 'b29aee6959858bc8'),
        target('heat.common.messaging.RequestContextSerializer.'
               'serialize_context', '78135fe1c969b87a'),
        target('heat.common.messaging.RequestContextSerializer.'
               'deserialize_context', 'ce587246fc78a819'),
        target('heat.engine.stack.Stack.create',
               '5d880bc4d3c26a71', 'ea8e4b1771e4f4d8'),
        target('heat.engine.stack.Stack.defer_state_persist',
               '98e0fd09613a739a'),
        target('heat.engine.stack.Stack.persist_state_and_release_lock',
               'cd663513cd14b1cc'),
        target('heat.engine.stack.Stack.migrate_to_convergence',
               'b55028ca9eafb80d'),
        # What the migration stores back of a stack in memory.
        target('heat.engine.stack.Stack.store',
               '92734564d8e94953', '0faa590b21462c9b'),
        target('heat.engine.stack.Stack.get_kwargs_for_cloning',
               'b74b69b47a920b7f'),
        target('heat.engine.stack.Stack._from_db', '6f03ea53277e509f'),
        target('heat.engine.scheduler.TaskRunner._sleep',
               '36a3a7b358fbf771'),
        target('heat.engine.resource.Resource.state_set',
               '790050083523fa91'),
        target('heat.engine.resource.Resource.node_data',
               'c6d321fc9e6f0428'),
        target('heat.engine.resource.Resource.store_attributes',
               'e30f54a8e2cf9ffa'),
        target('heat.engine.resources.stack_resource.StackResource.'
               'create_with_template', 'b4eb00b4d5aeb1bb'),
        target('heat.engine.resources.stack_resource.StackResource.'
               'check_create_complete', '52a8b403983ec6d6'),
        target('heat.engine.resources.stack_resource.StackResource.'
               'get_output', 'c58771ba1f0e3fa7'),
        target('heat.engine.resources.stack_resource.StackResource.'
               'handle_create_cancel', '8ca9c4b9e77430ae'),
        target('heat.engine.resources.template_resource.'
               'TemplateResource.get_reference_id', '7d5f13538fd985fb'),
        target('heat.engine.resources.openstack.heat.resource_group.'
               'ResourceGroup.handle_create', '0ae490ff332d5a40')))
