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
    stale lock behind. The file records who holds it for the error message
    (and :func:`holder`), and is emptied on release: a record found on
    taking the lock is a holder that was killed, whose temporary files
    (:func:`~tripleo_ephemeral.fileutil.remove_leftovers`) are removed
    then.
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
        killed = _read_holder(fd)
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({'pid': os.getpid(), 'purpose': self.purpose,
                                 'since': time.time()}).encode())
        self._fd = fd
        if killed:
            directory = os.path.dirname(self.path)
            removed = fileutil.remove_leftovers(directory, skip=(LOCK_NAME,))
            if removed:
                LOG.info('Removed %d temporary file(s) a killed command '
                         '(pid %s, %s) left in %s', len(removed),
                         killed.get('pid'), killed.get('purpose'), directory)
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


def holder(directory):
    """Who holds the lock on ``directory`` now (the record: pid, purpose,
    since), ``{}`` when nobody does, None when it cannot be told. Only
    looks (the kernel's list of locks, /proc/locks): never takes the lock,
    so a command starting meanwhile is not turned away."""
    path = os.path.join(directory, LOCK_NAME)
    try:
        st = os.stat(path)
        with open('/proc/locks') as f:
            held = f.read()
        with open(path, 'rb') as f:
            record = json.loads(f.read(4096).decode() or '{}')
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    device = '%02x:%02x:%d' % (os.major(st.st_dev), os.minor(st.st_dev),
                               st.st_ino)
    for line in held.splitlines():
        fields = line.split()
        if len(fields) < 6 or fields[1] != 'FLOCK':
            continue
        # The device a layered file system reports may be the layer's:
        # then the inode and the pid the record names must agree.
        if fields[5] == device or (
                fields[5].rsplit(':', 1)[-1] == str(st.st_ino) and
                fields[4] == str(record.get('pid'))):
            return record or {'pid': int(fields[4])}
    return {}


def _read_holder(fd):
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        return json.loads(os.read(fd, 4096).decode() or '{}')
    except (OSError, ValueError):
        return {}
