"""Timing a benchmark case and recording what it cost."""

import time

#: Dumps and restores are timed as the best of this many runs: one dump of
#: the 200-member database took 26 to 50 ms on this machine within a minute.
DUMP_REPEAT = 11


def best_of(repeat, fn, *args):
    """Run ``fn`` ``repeat`` times; return (fastest seconds, last value)."""
    best = value = None
    for _ in range(repeat):
        started = time.monotonic()
        value = fn(*args)
        took = time.monotonic() - started
        best = took if best is None else min(best, took)
    return best, value


def timed(results, key, fn, *args, repeat=1):
    """Time ``fn`` into ``results[key]``; with ``repeat``, the best of that
    many runs. Sub-second cases keep three decimals."""
    best, value = best_of(repeat, fn, *args)
    results[key] = round(best, 3 if best < 1 else 2)
    print('    %-28s %8.3fs %s' % (key, results[key],
                                   value if isinstance(value, str) else ''),
          flush=True)
    return value


def record(results, key, cpu=None, resources=None):
    """Add a case's Heat CPU seconds, resource count and CPU ms/resource."""
    if cpu is not None:
        results['%s cpu s' % key] = round(cpu, 1)
    if resources:
        results['%s resources' % key] = resources
        if cpu is not None:
            results['%s cpu ms/res' % key] = round(1000 * cpu / resources,
                                                   1)
    print('    %-28s %s' % ('', ', '.join(
        '%s %s' % (k[len(key) + 1:], v) for k, v in results.items()
        if k.startswith(key + ' '))), flush=True)
