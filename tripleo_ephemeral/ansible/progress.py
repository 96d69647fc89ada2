"""Turning ansible-runner events into a few lines of progress.

One line per play (its task results counted) keeps a CI log short; a failed
or unreachable host is printed at once, and the failures are kept for the
one-line error the deploy ends with.
"""

import time

_OK = 'runner_on_ok'
_FAILED = 'runner_on_failed'
_SKIPPED = 'runner_on_skipped'
_UNREACHABLE = 'runner_on_unreachable'


class Failure:
    def __init__(self, host, task, message, unreachable=False):
        self.host = host
        self.task = task
        self.message = message
        self.unreachable = unreachable

    def __str__(self):
        return '%s: task "%s": %s' % (self.host, self.task, self.message)


def _message(result):
    result = result or {}
    for item in result.get('results') or []:
        if isinstance(item, dict) and (item.get('failed') or
                                       item.get('unreachable')):
            return _message(item)
    parts = [' '.join(str(result.get('msg') or '').split())]
    for key in ('stderr', 'module_stderr', 'module_stdout'):
        line = _last_line(result.get(key))
        if line and line not in parts:
            parts.append('%s: %s' % (key.replace('_', ' '), line))
    text = '; '.join(p for p in parts if p)
    if not text and result.get('rc'):
        text = 'exit status %s' % result['rc']
    return text[:400] or 'failed'


def _last_line(text):
    lines = [' '.join(line.split()) for line in str(text or '').splitlines()]
    lines = [line for line in lines if line]
    return lines[-1] if lines else ''


class PlayProgress:
    """An ansible-runner ``event_handler`` writing through ``out``."""

    def __init__(self, out, clock=time.monotonic):
        self._out = out
        self._clock = clock
        self._started = clock()
        self._play = None
        self._play_started = None
        self._counts = {}
        self.failures = []
        self.recap = {}

    def _elapsed(self):
        return self._clock() - self._started

    def _end_play(self):
        if self._play is None:
            return
        counts = ' '.join('%s=%d' % (k, self._counts.get(k, 0)) for k in
                          ('ok', 'changed', 'skipped', 'failed'))
        self._out('[%4ds] PLAY %s: %s (%.1fs)' % (
            self._elapsed(), self._play, counts,
            self._clock() - self._play_started))
        self._play = None

    def _count(self, key):
        self._counts[key] = self._counts.get(key, 0) + 1

    def __call__(self, event):
        name = event.get('event')
        data = event.get('event_data') or {}
        if name == 'playbook_on_play_start':
            self._end_play()
            self._play = data.get('play') or data.get('name') or '?'
            self._play_started = self._clock()
            self._counts = {}
        elif name == _OK:
            self._count('changed' if (data.get('res') or {}).get('changed')
                        else 'ok')
        elif name == _SKIPPED:
            self._count('skipped')
        elif name in (_FAILED, _UNREACHABLE):
            if name == _FAILED and data.get('ignore_errors'):
                self._count('ok')
                return True
            self._count('failed')
            failure = Failure(data.get('host') or '?',
                              data.get('task') or '?',
                              ('unreachable: ' if name == _UNREACHABLE
                               else '') + _message(data.get('res')),
                              unreachable=name == _UNREACHABLE)
            self.failures.append(failure)
            self._out('[%4ds] FAILED %s' % (self._elapsed(), failure))
        elif name == 'playbook_on_stats':
            self._end_play()
            self.recap = _recap(data, self._unreachable_counts())
            for host, line in sorted(self.recap.items()):
                self._out('         %-24s %s' % (host, line))
        return True

    def finish(self):
        self._end_play()

    def _unreachable_counts(self):
        counts = {}
        for failure in self.failures:
            if failure.unreachable:
                counts[failure.host] = counts.get(failure.host, 0) + 1
        return counts


def _recap(stats, unreachable=None):
    """Each host's recap line. A host a play with ``ignore_unreachable``
    could not reach is in Ansible's stats as ok and ignored, not dark: its
    ``unreachable`` is the count of its unreachable results
    (``unreachable``: ``{host: n}``) all the same."""
    unreachable = unreachable or {}
    hosts = set(unreachable)
    for key in ('ok', 'changed', 'failures', 'dark', 'skipped', 'ignored'):
        hosts.update((stats.get(key) or {}).keys())
    recap = {}
    for host in hosts:
        counts = {key: (stats.get(key) or {}).get(host, 0) for key in (
            'ok', 'changed', 'dark', 'failures', 'skipped', 'ignored')}
        counts['dark'] = max(counts['dark'], unreachable.get(host, 0))
        recap[host] = ' '.join('%s=%d' % (label, counts[key])
                               for label, key in (
                                   ('ok', 'ok'), ('changed', 'changed'),
                                   ('unreachable', 'dark'),
                                   ('failed', 'failures'),
                                   ('skipped', 'skipped'),
                                   ('ignored', 'ignored')))
    return recap
