"""One channel for progress lines, shared by every layer.

A command writes its progress to its stderr and its result to stdout.
Every layer that tells the user what is happening (the deploy, the
adoption, the launcher, the signal handling) is given where to write (a
stream, a ``say(line)`` function, a :class:`Progress` or nothing) and
writes through :func:`channel`, so each line takes one path: to the
terminal while there is one, else to the log. A lost terminal (SIGHUP
closed it: EIO; a closed pipe: EPIPE; a closed stream: ValueError)
never raises: the clean-up that follows a signal must go on, so the line
goes to the log instead, and so do all later lines of that channel.
"""

import logging

LOG = logging.getLogger(__name__)


class Progress:
    """Lines to ``stream`` (or through ``write(line)``), else to the log
    at ``level``; callable as ``say(line)``."""

    def __init__(self, stream=None, write=None, level=logging.INFO):
        self._stream = stream
        self._write = write
        self.level = level
        #: True once the terminal was lost: the log gets the rest.
        self.lost = False

    def __call__(self, text):
        if not self.lost and (self._stream is not None or
                              self._write is not None):
            try:
                if self._write is not None:
                    self._write(text)
                else:
                    self._stream.write(text + '\n')
                    self._stream.flush()
                return
            except (OSError, ValueError):
                self.lost = True
        LOG.log(self.level, '%s', text)

    say = __call__


def channel(target=None, level=logging.INFO):
    """The :class:`Progress` of ``target``: itself if it is one; a stream
    (anything with ``write``); a ``say(line)`` function; None for the log
    alone."""
    if isinstance(target, Progress):
        return target
    if target is None:
        return Progress(level=level)
    if hasattr(target, 'write'):
        return Progress(stream=target, level=level)
    return Progress(write=target, level=level)
