"""Watch a stack operation: live events, resources complete, time left.

Quiet enough for CI logs: top-level events and every failure are printed
as they come; a progress line is printed when the counts change, at most
once per ``report_every`` seconds. Nested events show with ``verbose``.

On the way the counts come from the events, so the total grows as nested
stacks appear: a fifth into a THT create 417 of the 423 resources *seen so
far* are complete. So the line says how many are complete and in progress,
and gives a share and an estimate of the time left only when the total is
known in advance (``expected_total``: what the last create of the same
request ended with). The estimate is the rate so far applied to what is
left, shown once it means something (past :data:`ESTIMATE_AFTER_SHARE` of
the resources and :data:`ESTIMATE_AFTER_SECONDS`).

Watching is not free: every poll runs in the Heat engine that is creating
the stack, and listing the resources of a large nested tree (the THT
overcloud: 580 resources in 237 stacks) costs the engine 1.5 s. So the
counts on the way come from the events, and events are spaced out to
``COST_FACTOR`` times what they took the last time (at most ``MAX_GAP``),
keeping the watcher's share of the engine small however large the stack
grows, while the cheap status check still sees the end soon. A create that
ends complete is counted from its events too, a stack whose events may
have been purged by its own resources alone
(:meth:`StackWatcher.exact_from_events`); anything else lists the
resources once at the end.

The stack is addressed as ``name/id``: by id alone, Heat's API answers
every call with a redirect to that path first.
"""

import logging
import time

from heatclient.common import event_utils
from heatclient.common import utils as heat_utils

LOG = logging.getLogger(__name__)

#: Seconds between two looks at the stack's status: the end is seen half
#: this late on average. A look costs a native Heat about 10 ms (a stack
#: show without outputs), 1% of the engine at this pace.
STATUS_POLL = 1.0
#: How deep nested stacks are counted and watched.
NESTED_DEPTH = 10
#: An expensive call is repeated no sooner than this many times its last
#: duration, and always within MAX_GAP seconds.
COST_FACTOR = 10
MAX_GAP = 60.0
#: The time left is estimated once this share of the expected resources is
#: complete and this many seconds have passed: before, the rate says little.
ESTIMATE_AFTER_SHARE = 0.2
ESTIMATE_AFTER_SECONDS = 10.0
#: Heat keeps at most ``max_events_per_stack`` events per stack (1000 by
#: default) and purges the oldest beyond it: with more resources than this
#: in one stack (two events each on a create), the events may no longer
#: name them all.
EVENTS_WHOLE_BELOW = 400
#: How long a stack may still show its previous action after an update was
#: asked for (a convergence Heat switches before it answers; an old
#: engine may not).
ACTION_START_WAIT = 30.0


class Counts:
    def __init__(self, resources, action):
        self.total = len(resources)
        statuses = [getattr(r, 'resource_status', '') or ''
                    for r in resources]
        done = ({action + '_COMPLETE'} if action != 'UPDATE' else
                {'CREATE_COMPLETE', 'UPDATE_COMPLETE', 'CHECK_COMPLETE'})
        self.complete = sum(1 for s in statuses if s in done)
        self.in_progress = sum(1 for s in statuses if s.endswith('_PROGRESS'))
        self.failed = sum(1 for s in statuses if s.endswith('_FAILED'))

    def key(self):
        return (self.total, self.complete, self.in_progress, self.failed)

    def describe(self, total=None, elapsed=None):
        """The progress line; ``total`` when it is known (not just seen).

        With ``total`` and ``elapsed`` (seconds so far), the time left is
        estimated from the rate so far, once it means something.
        """
        if total:
            pct = min(100, 100 * self.complete // total)
            text = '%d/%d resources complete (%d%%), %d in progress' % (
                self.complete, total, pct, self.in_progress)
        else:
            text = '%d resources complete, %d in progress' % (
                self.complete, self.in_progress)
        if self.failed:
            text += ', %d failed' % self.failed
        left = time_left(self.complete, total, elapsed)
        if left is not None:
            text += ', about %s left' % _duration(left)
        return text

    def __str__(self):
        """The exact counts of a finished operation: the total is final."""
        return self.describe(total=self.total)


def time_left(complete, total, elapsed):
    """Seconds left at the rate so far, or None while that means little."""
    if not total or elapsed is None or complete >= total:
        return None
    if complete < ESTIMATE_AFTER_SHARE * total or \
            elapsed < ESTIMATE_AFTER_SECONDS:
        return None
    return elapsed * (total - complete) / complete


def _duration(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return '%ds' % seconds
    return '%dm%02ds' % divmod(seconds, 60)


class StackWatcher:
    """Poll one stack until its action ends; report as it goes.

    ``expected_total`` is the number of resources the stack will have,
    when it is known before (see the module's doc).
    """

    def __init__(self, client, stack_id, action='CREATE', out=print,
                 poll=STATUS_POLL, report_every=10.0, verbose=False,
                 expected_total=None, clock=time.monotonic,
                 sleep=time.sleep, marker=None, health=None):
        self.client = client
        #: called at every poll; raises to stop waiting (a full disk)
        self._health = health
        self.stack_id = stack_id
        self.action = action
        self.out = out
        self.poll = poll
        self.report_every = report_every
        self.verbose = verbose
        self.expected_total = expected_total
        self._clock = clock
        self._sleep = sleep
        self._marker = marker  # the last event not to show (an update's)
        self._context = heat_utils.EventLogContext()
        self._last_counts = None
        self._next = {}  # when each expensive call may run again
        self._latest = {}  # (stack, resource) -> its newest event
        self.started = clock()
        #: When the end was seen (before the last events and counts).
        self.ended = None
        self.status = None
        #: The exact counts, once the end was seen.
        self.final_counts = None

    def wait(self):
        """Return the final stack status (e.g. CREATE_COMPLETE).

        The stack's own status is cheap and checked every ``poll`` seconds,
        so the end is seen at once; events and counts are spaced out.
        """
        while True:
            stack = self.client.stacks.get(self.stack_id,
                                           resolve_outputs=False)
            status = self.status = stack.stack_status
            done = not status.endswith('_IN_PROGRESS') and (
                status.startswith(self.action + '_') or
                self._clock() - self.started > ACTION_START_WAIT)
            if done:
                self.ended = self._clock()
            self._spaced('events', self.poll, self._print_events, done)
            self._spaced('counts', self.report_every, self._report, done)
            if done:
                return status
            if self._health is not None:
                self._health()
            self._sleep(self.poll)

    def _spaced(self, name, gap, call, force):
        """Run ``call`` if forced or due; next due in max(gap, cost x N)."""
        now = self._clock()
        if not force and now < self._next.get(name, now):
            return
        call(force)
        cost = self._clock() - now
        self._next[name] = now + min(MAX_GAP, max(gap, COST_FACTOR * cost))

    def counts(self):
        resources = self.client.resources.list(self.stack_id,
                                               nested_depth=NESTED_DEPTH)
        return Counts(resources, self.action)

    def exact_from_events(self):
        """The exact counts of a create that ended complete, from its
        events, or None. A stack whose events may have been purged (see
        :data:`EVENTS_WHOLE_BELOW`: a role's ResourceGroup of hundreds of
        nodes) has its own resources listed, alone: listing the whole tree
        makes Heat load every nested stack (3,243 of them at 3+500, minutes
        and gigabytes). None unless every resource is complete and, if
        known, as many as the last create of the same request had."""
        if self.action != 'CREATE' or self.status != 'CREATE_COMPLETE':
            return None
        per_stack = {}
        for (stack, _name), event in self._latest.items():
            per_stack.setdefault(stack, []).append(event)
        resources = []
        for stack, events in per_stack.items():
            if len(events) < EVENTS_WHOLE_BELOW:
                resources.extend(events)
            else:
                resources.extend(self.client.resources.list(
                    _stack_ref(stack)))
        counts = Counts(resources, self.action)
        if not counts.total or counts.complete != counts.total:
            return None
        if self.expected_total and counts.total != self.expected_total:
            return None
        return counts

    def _report(self, force=False):
        # Count what the events said (they are fetched anyway); at the end,
        # list the resources once unless the events are exact.
        elapsed = self._clock() - self.started
        counts = Counts(list(self._latest.values()), self.action)
        if force:
            if self.action == 'CREATE' and \
                    self.status == 'CREATE_COMPLETE':
                # The events fetched as they came can miss some: one
                # committed after a later one was fetched. Once the create
                # has ended they are all there (a quarter of the cost of
                # the listing on THT).
                self._latest = self._all_latest()
            counts = self.exact_from_events() or self.counts()
            self.final_counts = counts
            text = str(counts)
        else:
            text = counts.describe(self.expected_total, elapsed)
        if counts.key() != self._last_counts or force:
            self.out('[%4ds] %s' % (elapsed, text))
            self._last_counts = counts.key()

    def _events(self, marker):
        events = event_utils.get_events(
            self.client, self.stack_id,
            event_args={'sort_dir': 'asc'}, nested_depth=NESTED_DEPTH,
            marker=marker)
        if marker is not None and events and events[0].id == marker:
            events = events[1:]
        return events

    def _all_latest(self):
        """(stack, resource) -> its newest event, from every event."""
        latest = {}
        _latest_of(self._events(None), latest)
        return latest

    def _print_events(self, _force=False):
        events = self._events(self._marker)
        if not events:
            return
        self._marker = events[-1].id
        _latest_of(events, self._latest)
        shown = [e for e in events if self.verbose or _is_top(e) or
                 getattr(e, 'resource_status', '').endswith('FAILED')]
        if shown:
            self.out(heat_utils.event_log_formatter(shown, self._context))


def _latest_of(events, latest):
    """Keep each resource's newest of ``events`` (in order) in
    ``latest``; a stack's own events are not a resource's."""
    for event in events:
        name = getattr(event, 'resource_name', None)
        if name != getattr(event, 'stack_name', None):
            latest[(_stack_of(event), name)] = event


def _stack_of(event):
    for link in getattr(event, 'links', []):
        if link.get('rel') == 'stack':
            return link['href']
    return getattr(event, 'stack_name', None)


def _stack_ref(href):
    """``name/id`` of a stack from its link (``.../stacks/<name>/<id>``)."""
    return href.split('/stacks/', 1)[-1]


def _is_top(event):
    links = getattr(event, 'links', [])
    stacks = [link['href'] for link in links if link.get('rel') == 'stack']
    roots = [link['href'] for link in links if link.get('rel') == 'root_stack']
    return not roots or stacks == roots


def failures(client, stack_id):
    """(resource path, type, status reason) of every failed resource."""
    failed = []
    for res in client.resources.list(stack_id, nested_depth=NESTED_DEPTH):
        if not getattr(res, 'resource_status', '').endswith('FAILED'):
            continue
        reason = getattr(res, 'resource_status_reason', '') or ''
        failed.append(('%s.%s' % (getattr(res, 'stack_name', ''),
                                  res.resource_name),
                       res.resource_type, reason))
    return failed
