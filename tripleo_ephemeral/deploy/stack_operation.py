"""Create the stack, or update it on a long-lived Heat, and watch it.

An ephemeral Heat starts empty, so a deploy creates the stack. An
installed Heat keeps it between deploys: deploying again updates the
existing stack (as tripleoclient did before the ephemeral Heat), with the
same progress, the watcher following the UPDATE.
"""

import os
import re
import shutil
import time

from heatclient import exc as heat_exc

from tripleo_ephemeral.deploy import stack_progress
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import logtail

CREATE = 'CREATE'
UPDATE = 'UPDATE'
#: The engine's log in the heat dir's log directory (heat.conf's log_file).
HEAT_LOG = 'heat.log'
#: oslo.log's prefix of a line: time, pid, level, logger.
_LOG_PREFIX = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \d+ [A-Z]+ '
                         r'\S+ ')


class Created:
    """A stack Heat finished creating (or updating)."""

    def __init__(self, stack_id, status, seconds, resources, ref=None):
        self.stack_id = stack_id
        self.status = status
        self.seconds = seconds
        self.resources = resources
        #: How to address it in Heat's API without a redirect.
        self.ref = ref or stack_id


def existing_stack(client, name):
    """The id of the stack ``name``, or None."""
    try:
        return client.stacks.get(name, resolve_outputs=False).id
    except heat_exc.HTTPNotFound:
        return None


def _latest_event(client, stack_id):
    """The id of the newest event of the stack tree (events after it are
    the update's)."""
    try:
        events = client.events.list(stack_id, sort_dir='desc', limit=1,
                                    nested_depth=stack_progress.NESTED_DEPTH)
    except heat_exc.HTTPException:
        return None
    return events[0].id if events else None


def _update_args(create_args):
    args = dict(create_args)
    args.pop('stack_name', None)
    return args


def heat_message(exc, heat_dir=None):
    """Heat's own reason for refusing a request.

    Heat's API gives the message of its own errors only; for any other
    (a ValueError deep in the engine) the body says "Internal Error" and
    the exception's type, and the reason is in the engine's log: then the
    log's last error line (in ``heat_dir``) is the reason.
    """
    body = getattr(exc, 'error', None)
    error = (body.get('error') or {}) if isinstance(body, dict) else {}
    text = error.get('message') or (body if isinstance(body, str) else None)
    if not text and isinstance(body, dict):
        kind = error.get('type') or ''
        log = os.path.join(heat_dir or '', 'log', HEAT_LOG)
        reason = _LOG_PREFIX.sub('', logtail.last_error(log)) if (
            heat_dir and os.path.isfile(log)) else None
        if reason is None:
            reason = '%s; the reason is in Heat\'s log' % (kind or 'no type')
        elif kind and kind not in reason:
            reason = '%s: %s' % (kind, reason)
        text = '%s (%s%s)' % (body.get('title') or 'Internal Error', reason,
                              '; from %s' % log if heat_dir else '')
    return ' '.join(str(text or exc).split())


#: Below this much free space where Heat keeps its database, it is full:
#: SQLite fails "database or disk is full" and the stack waits forever.
MIN_FREE_BYTES = 1 << 20


def check_space(heat_dir, stack):
    """DeployError when the file system of ``heat_dir`` is full."""
    try:
        free = shutil.disk_usage(heat_dir).free
    except OSError:
        return
    if free < MIN_FREE_BYTES:
        raise exceptions.DeployError(
            'Stack %s stopped: the file system of %s is full (%d KiB free, '
            'under the %d MiB Heat\'s database needs to grow; SQLite says '
            '"database or disk is full" and the stack would wait forever): '
            'free space there and deploy again'
            % (stack, heat_dir, free // 1024, MIN_FREE_BYTES >> 20))


def run(client, stack, create_args, say, *, heat_dir, may_update=False,
        expected=None, verbose=False, accepted=None):
    """Create ``stack`` (or update it, if ``may_update`` and it exists),
    watch it to the end and return :class:`Created`.

    ``expected`` is the number of resources when known in advance;
    ``heat_dir`` names where Heat's log is in the error; ``accepted()`` is
    called once Heat has taken the create (or update).
    """
    stack_id = existing_stack(client, stack) if may_update else None
    action = UPDATE if stack_id else CREATE
    marker = None
    if stack_id:
        marker = _latest_event(client, stack_id)
        say('Updating stack %s (it exists on this Heat)' % stack)
    else:
        say('Creating stack %s%s' % (stack, (
            ' (%d resources, as the last deploy of the same request)' %
            expected) if expected else ''))
    started = time.monotonic()
    try:
        if stack_id:
            client.stacks.update(stack_id, **_update_args(create_args))
        else:
            stack_id = client.stacks.create(**create_args)['stack']['id']
    except heat_exc.HTTPException as exc:
        raise exceptions.DeployError('Heat refused stack %s: %s' % (
            stack, heat_message(exc, heat_dir)))
    if accepted is not None:
        accepted()
    ref = '%s/%s' % (stack, stack_id)  # no redirect from Heat's API
    watcher = stack_progress.StackWatcher(
        client, ref, action=action, out=say, verbose=verbose,
        expected_total=expected, marker=marker,
        health=lambda: check_space(heat_dir, stack))
    status = watcher.wait()
    # Until the end was seen: the last events and the exact counts after it
    # are the report's, not the stack's.
    elapsed = watcher.ended - started
    counts = watcher.final_counts  # listed once, as the end was seen
    if status != action + '_COMPLETE':
        failed = stack_progress.failures(client, ref)
        for path, rtype, reason in failed:
            say('FAILED %s (%s): %s' % (path, rtype, reason))
        raise exceptions.DeployError(
            'Stack %s ended %s after %ds with %d failed resources (listed '
            'above); Heat\'s log is in %s' % (
                stack, status, elapsed, len(failed),
                os.path.join(heat_dir, 'log')))
    say('Stack %s %s in %.1fs (%d resources)' % (stack, status, elapsed,
                                                 counts.total))
    return Created(stack_id, status, elapsed, counts.total, ref=ref)
