"""The line of a log worth showing when something failed."""

import os
import re

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


_EXCEPTION = re.compile(r'\b[A-Za-z_.]*(Error|Exception|Failure)\b: \S')


def _message(line):
    """The text of a log line after oslo.log's prefix."""
    text = line.split(' [-] ', 1)[-1].split('] ', 1)[-1] if ' [' in line \
        else line
    return text.strip()


def last_error(*paths):
    """The most telling failure line of the given logs.

    A CRITICAL line first (an unhandled error), then the last line naming an
    exception and its message, then any error line with text, then the last
    line at all.
    """
    fallback = 'no log output'
    for path in paths:
        lines = tail(path, 400)
        for pick in (lambda ln: ' CRITICAL ' in ln,
                     lambda ln: _EXCEPTION.search(ln),
                     lambda ln: any(m in ln for m in _MARKERS) and
                     len(_message(ln)) > 20):
            for line in reversed(lines):
                if pick(line):
                    return _message(line)[-300:]
        if lines:
            fallback = lines[-1].strip()[-300:]
    return fallback
