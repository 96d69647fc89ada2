"""A Heat tied to the command that launched it stops when that command dies.

This module is the launcher's side (start, end, ask); the watchdog process
itself is :mod:`tripleo_ephemeral.heat_launcher.watchdog_process`.

``overcloud deploy`` ties its Heat to itself (``start(tied=True)``): the
launcher records the command as the Heat's owner (pid and start time) in
the launcher state and starts a watchdog, a small process in a session
of its own (a closed terminal or a Ctrl-C does not reach it). When the
owner is gone while the state still says this launch runs under it (a
SIGKILL, an OOM kill, a lost machine session), the watchdog takes the heat
dir's lock and stops that Heat as the owner would have: gracefully, with a
dump, by the pid or the podman names the launcher recorded, never by a
process name. It leaves a note in the state that the next launch reports.

A normal stop, ``release()`` (``--keep-running``) or another launch end the
watchdog; a ``tripleo launch heat`` Heat is not tied and has none.
"""

import logging
import os
import sys

import psutil

from tripleo_ephemeral.heat_launcher import state as launcher_state

LOG = logging.getLogger(__name__)

MODULE = 'tripleo_ephemeral.heat_launcher.watchdog_process'
LOG_NAME = 'watchdog.log'


def argv(heat_dir, owner_pid, launch_id):
    return [sys.executable, '-m', MODULE, '--heat-dir', heat_dir,
            '--owner', str(owner_pid), '--launch-id', launch_id]


def spawn(runner, heat_dir, log_dir, launch_id):
    """Start the watchdog of this process's Heat; return its state fields."""
    child = runner.spawn(argv(heat_dir, os.getpid(), launch_id),
                         log_path=os.path.join(log_dir, LOG_NAME))
    try:
        create_time = launcher_state.process_identity(child.pid)
    except psutil.NoSuchProcess:
        create_time = None
    # Reap it whenever it exits, so it never lingers as a zombie.
    _children.append(child)
    return {'watchdog_pid': child.pid, 'watchdog_create_time': create_time}


_children = []


def owner_fields():
    """The state fields that name this process as a Heat's owner."""
    return {'owner_pid': os.getpid(),
            'owner_create_time': launcher_state.process_identity(
                os.getpid())}


def owner_gone(saved):
    """True when ``saved`` names an owner and it no longer runs."""
    pid = saved.get('owner_pid')
    if not pid:
        return False
    return launcher_state.find_process(
        pid, saved.get('owner_create_time'), None) is None


def stop(saved):
    """End the watchdog ``saved`` names, unless it is this process."""
    pid = saved.get('watchdog_pid')
    if not pid or pid == os.getpid():
        return
    proc = launcher_state.find_process(
        pid, saved.get('watchdog_create_time'), MODULE)
    if proc is not None:
        try:
            proc.terminate()
            proc.wait(5)
        except (psutil.NoSuchProcess, psutil.TimeoutExpired):
            pass
    for child in list(_children):
        if child.poll() is not None:
            _children.remove(child)


def report_abandoned(st, say):
    """Say what a watchdog cleaned up since the last launch, once."""
    note = st.load().get('abandoned')
    if not note:
        return
    say('The command that launched the last Heat here (pid %s) ended '
        'without stopping it; its watchdog stopped it%s' % (
            note.get('owner_pid'), ' and dumped its database to %s' %
            note['dump'] if note.get('dump') else ''))
    st.save(abandoned=None)
