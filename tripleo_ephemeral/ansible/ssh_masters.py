"""Closing the ssh ControlPersist masters an Ansible run leaves behind.

ssh's masters outlive ansible-playbook: each run gives them a directory of
its own (:func:`~.run.run_playbook`), and after it they are told to
exit, the directory is removed, and any master still running (or starting
meanwhile) is terminated by its pid, so nothing is left running.
"""

import contextlib
import logging
import os
import shutil
import time

import psutil

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import process

LOG = logging.getLogger(__name__)

#: How long the ssh masters of a run are looked for after it (seconds),
#: and how long none must be seen to stop looking.
MASTER_EXIT_WAIT = 5.0
MASTER_QUIET = 0.5


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
