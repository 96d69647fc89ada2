"""A fresh root stack's fast create: its thread, and the tree made a
convergence tree when it ends."""

import logging
import queue
import time

from tripleo_ephemeral.engine_tuning.tunings.fast_create import state

LOG = logging.getLogger(__name__)


def create_root(service, cnxt, stack_name, template, params, files, args,
                environment_files, files_container, user_creds_id,
                stack_user_project_id, parent_resource_name, template_id):
    """``EngineService.create_stack`` of a fresh root stack, with the
    legacy engine's thread running :func:`run` instead of
    ``stack.create``."""
    LOG.info('Creating stack %s (fast create)', stack_name)
    stack = service._parse_template_and_validate_stack(
        cnxt, stack_name, template, params, files, environment_files,
        files_container, args, None, 0, user_creds_id, stack_user_project_id,
        False, parent_resource_name, template_id)
    stack.store()
    _create_stack_user(stack)
    msg_queue = queue.Queue()
    thread = service.thread_group_mgr.start_with_lock(
        cnxt, stack, service.engine_id, run, service, stack,
        msg_queue=msg_queue)
    thread.link(service.thread_group_mgr.remove_msg_queue, stack.id,
                msg_queue)
    service.thread_group_mgr.add_msg_queue(stack.id, msg_queue)
    return dict(stack.identifier())


def _create_stack_user(stack):
    """As ``create_stack`` does for every new stack."""
    from heat.common import exception

    if stack.stack_user_project_id:
        return
    try:
        stack.create_stack_user_project_id()
    except exception.AuthorizationFailure as ex:
        stack.state_set(stack.action, stack.FAILED, str(ex))
    except Exception:
        LOG.exception('Failed to create stack user project')
        stack.state_set(stack.action, stack.FAILED,
                        'Failed to create stack user project')


def run(service, stack, msg_queue=None):
    """The root create's thread: create, then convert the tree."""
    if stack.status == stack.FAILED:
        return
    fast = state.Create(service)
    fast.context = stack.context
    state.local.create = fast
    started, wall = time.process_time(), time.monotonic()
    with state.running_lock:
        state.running[stack.id] = service.thread_group_mgr
    try:
        stack.create(msg_queue=msg_queue)
    finally:
        state.local.create = None
        with state.running_lock:
            state.running.pop(stack.id, None)
        try:
            _finish(stack, fast)
        except Exception:
            LOG.exception('Fast create of %s: the tree could not be made a '
                          'convergence tree; it stays legacy', stack.name)
    LOG.info('Fast create of %s: %s %s, %d nested stacks (%d released when '
             'done, %d loaded again), %.1f s wall (%.1f s paused with '
             'nothing to do), %.1f s CPU of the process', stack.name,
             stack.action, stack.status, fast.created, fast.released,
             fast.reloaded, time.monotonic() - wall,
             fast.paused, time.process_time() - started)


def _finish(stack, fast):
    """Fail nested stacks left unfinished (a sibling failed, a cancel,
    a timeout), then make every stack of the tree a convergence stack as
    ``EngineService.migrate_convergence_1`` does, in one transaction (on
    the stacks in memory where their rows say they are as stored)."""
    from heat.db import api as db_api
    from heat.engine import stack as parser
    from heat.objects import stack as stack_object

    from tripleo_ephemeral.engine_tuning.tunings.fast_create import (
        nested as fast_nested)

    for nested, runner in list(fast.nested.values()):
        fast_nested.cancel(nested, runner)
    ctxt = stack.context
    with db_api.context_manager.writer.using(ctxt):
        if stack.defer_state_persist():
            # the event the legacy engine writes when it releases the lock
            stack._send_notification_and_add_event()
        created = {key: nested for key, (nested, _) in fast.nested.items()}
        # a released stack was converted when it finished (its row says)
        tree = [fast_nested.as_loaded(created.get(db_stack.id), db_stack) or
                parser.Stack.load(ctxt, stack_id=db_stack.id, stack=db_stack)
                for db_stack in stack_object.Stack.get_all_by_root_owner_id(
                    ctxt, stack.id) if not db_stack.convergence]
        for st in tree + [stack]:
            if not st.convergence:
                st.migrate_to_convergence()
