"""The line of a log worth showing when something failed."""

import os

_MARKERS = ('CRITICAL', 'ERROR', 'Error', 'error:', 'Exception')


def tail(path, lines=20):
    try:
        with open(path, 'rb') as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 16384))
            data = f.read().decode('utf-8', 'replace')
    except OSError:
        return []
    return [line for line in data.splitlines() if line.strip()][-lines:]


def last_error(*paths):
    """The last error-looking line of the given logs, or their last line."""
    fallback = 'no log output'
    for path in paths:
        lines = tail(path, 200)
        for line in reversed(lines):
            if any(m in line for m in _MARKERS):
                return line.strip()[-300:]
        if lines:
            fallback = lines[-1].strip()[-300:]
    return fallback
