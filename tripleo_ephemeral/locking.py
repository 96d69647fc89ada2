"""Advisory locks on a heat dir or work dir, naming who holds them."""

import fcntl
import json
import logging
import os
import sys
import time

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

LOCK_NAME = '.tripleo-ephemeral.lock'
#: The purpose a Heat watchdog's lock names. It holds a heat dir only while
#: it stops the Heat of a command that died: others wait for it.
WATCHDOG = 'heat watchdog'
WATCHDOG_PATIENCE = 60.0


class DirLock:
    """An exclusive, non-blocking lock on a directory.

    The kernel drops it when the holder exits, so a crash never leaves a
    stale lock behind. The file records who holds it for the error message.
    """

    def __init__(self, directory, purpose=None):
        self.path = os.path.join(directory, LOCK_NAME)
        self.purpose = purpose or ' '.join(os.path.basename(a)
                                           for a in sys.argv[:4])
        self._fd = None

    def acquire(self):
        fileutil.make_private_dirs(os.path.dirname(self.path))
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + WATCHDOG_PATIENCE
        waiting = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _read_holder(fd)
                if holder.get('purpose') == WATCHDOG and \
                        time.monotonic() < deadline:
                    if not waiting:
                        LOG.warning('Waiting for the watchdog (pid %s) '
                                    'stopping the Heat of a lost command '
                                    'in %s', holder.get('pid'),
                                    os.path.dirname(self.path))
                        waiting = True
                    time.sleep(0.2)
                    continue
            os.close(fd)
            raise exceptions.LockedError(
                '%s is in use by pid %s (%s); wait for it to finish or '
                'stop it' % (os.path.dirname(self.path),
                             holder.get('pid', '?'),
                             holder.get('purpose', 'another command')))
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({'pid': os.getpid(), 'purpose': self.purpose,
                                 'since': time.time()}).encode())
        self._fd = fd
        return self

    def release(self):
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


def _read_holder(fd):
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        return json.loads(os.read(fd, 4096).decode() or '{}')
    except (OSError, ValueError):
        return {}
