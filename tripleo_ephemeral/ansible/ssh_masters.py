"""Closing the ssh ControlPersist masters an Ansible run leaves behind.

ssh's masters outlive ansible-playbook: each run gives them a directory of
its own (:func:`control_dir`, named after the command's pid), and after it
they are told to exit, the directory is removed, and any master still
running (or starting meanwhile) is terminated by its pid, so nothing is left
running. A command killed outright (SIGKILL) cannot do that: the next run
does it for it (:func:`sweep_stale`), for the directories of this user
whose command is gone, and stops the ansible-playbook that command left
running (found by its ``ANSIBLE_SSH_CONTROL_PATH_DIR``).
"""

import contextlib
import logging
import os
import re
import shutil
import stat
import tempfile
import time

import psutil

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import process

LOG = logging.getLogger(__name__)

#: How long the ssh masters of a run are looked for after it (seconds),
#: and how long none must be seen to stop looking.
MASTER_EXIT_WAIT = 5.0
MASTER_QUIET = 0.5
#: A run's directory: ``te-ssh-<pid of the command>-<random>`` (short: a
#: socket path has 108 bytes).
PREFIX = 'te-ssh-'
_NAME = re.compile(r'^%s(\d+)-[A-Za-z0-9_]+$' % PREFIX)


def control_dir():
    """A new directory (0700) for one run's ssh masters."""
    return tempfile.mkdtemp(prefix='%s%d-' % (PREFIX, os.getpid()))


def sweep_stale(runner=None, parent=None):
    """Close the masters and remove the directories of earlier runs whose
    command is gone (killed before it could close them): this user's
    ``te-ssh-<pid>-*`` directories in ``parent`` (the temporary
    directory) whose pid runs no more, or runs a process started after the
    directory was made (a pid used again). Returns the directories
    removed."""
    parent = parent or tempfile.gettempdir()
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    removed = []
    for name in sorted(names):
        match = _NAME.match(name)
        if not match:
            continue
        path = os.path.join(parent, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
            continue
        if _alive_since(int(match.group(1)), st.st_mtime):
            continue
        LOG.debug('Closing the ssh masters of a command that is gone: %s',
                  path)
        _stop_orphans(path)
        close_ssh_masters(path, runner)
        removed.append(path)
    return removed


def _alive_since(pid, made):
    """Whether ``pid`` is a live process that existed when its directory
    was made (at ``made``, a time stamp): the command that owns it."""
    try:
        proc = psutil.Process(pid)
        return (proc.status() != psutil.STATUS_ZOMBIE and
                proc.create_time() <= made + 1)
    except psutil.Error:
        return False


def _stop_orphans(control_dir):
    """End the ansible-playbook (and its workers) a killed command left
    running: this user's processes whose ``ANSIBLE_SSH_CONTROL_PATH_DIR``
    is ``control_dir``, the run's own directory."""
    found = []
    for proc in psutil.process_iter(['uids']):
        with contextlib.suppress(psutil.Error):
            if proc.info['uids'] and proc.info['uids'].real == os.getuid() \
                    and proc.environ().get(
                        'ANSIBLE_SSH_CONTROL_PATH_DIR') == control_dir:
                found.append(proc)
    for proc in found:
        LOG.warning('Stopping ansible-playbook %d of a command that was '
                    'killed (its run: %s)', proc.pid, control_dir)
        with contextlib.suppress(psutil.Error):
            proc.terminate()
    _gone, alive = psutil.wait_procs(found, timeout=MASTER_EXIT_WAIT)
    for proc in alive:
        with contextlib.suppress(psutil.Error):
            proc.kill()


def close_ssh_masters(control_dir, runner=None):
    """Close the ssh ControlPersist masters of ``control_dir`` and remove
    it (``ssh -O exit`` on each socket)."""
    runner = runner or process.ProcessRunner()
    try:
        sockets = sorted(os.listdir(control_dir))
    except FileNotFoundError:
        return
    for name in sockets:
        try:
            runner.run(['ssh', '-o', 'ControlPath=%s' % os.path.join(
                control_dir, name), '-O', 'exit', 'tripleo-ephemeral'],
                check=False, timeout=10)
        except exceptions.TripleoEphemeralError as exc:
            LOG.debug('Could not close ssh master %s: %s', name, exc)
    # The directory goes first: a master still starting (an ssh that
    # escaped the kill of ansible-playbook's group) cannot bind its socket
    # there any more. Masters are ours by their title ("ssh: <control_dir>/
    # ... [mux]"): any still there, or appearing while the run's last
    # processes end, is ended by its pid.
    shutil.rmtree(control_dir, ignore_errors=True)
    deadline = time.monotonic() + MASTER_EXIT_WAIT
    quiet_since = time.monotonic()
    while time.monotonic() < deadline and \
            time.monotonic() - quiet_since < MASTER_QUIET:
        for proc in _masters_of(control_dir):
            quiet_since = time.monotonic()
            LOG.debug('Terminating ssh master %d', proc.pid)
            with contextlib.suppress(psutil.Error):
                proc.terminate()
        time.sleep(0.1)


def _masters_of(control_dir):
    found = []
    for proc in psutil.process_iter(['cmdline', 'status']):
        with contextlib.suppress(psutil.Error):
            if proc.info['status'] != psutil.STATUS_ZOMBIE and \
                    control_dir in ' '.join(proc.info['cmdline'] or ()):
                found.append(proc)
    return found
