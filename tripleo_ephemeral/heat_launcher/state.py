"""What a launch leaves in the heat dir, so a later command can find it.

``--kill`` and ``--restore-db`` run in new processes: the heat type, the
port and the identity of the running process are read from here, never from
module globals.
"""

import json
import os

import psutil

from tripleo_ephemeral import fileutil

STATE_NAME = 'launcher-state.json'


class LauncherState:
    """Read and write ``<heat-dir>/launcher-state.json``."""

    def __init__(self, heat_dir):
        self.path = os.path.join(heat_dir, STATE_NAME)

    def load(self):
        try:
            with open(self.path) as f:
                return json.load(f)
        except FileNotFoundError:
            return {}
        except ValueError:
            # A torn write from a crash: treat it as no state at all.
            return {}

    def save(self, **values):
        data = self.load()
        data.update(values)
        fileutil.write_atomic(self.path, json.dumps(data, indent=2,
                                                    sort_keys=True) + '\n')
        return data

    def clear_process(self):
        """Forget the running process (and its owner and watchdog) but
        keep the type and port."""
        return self.save(pid=None, pid_create_time=None, running=False,
                         owner_pid=None, owner_create_time=None,
                         watchdog_pid=None, watchdog_create_time=None,
                         dump_origin=None)


def process_identity(pid):
    """What identifies a process beyond its (reusable) pid."""
    return psutil.Process(pid).create_time()


def find_process(pid, create_time, marker):
    """The live process ``pid`` if it is the one we started, else None.

    A pid is reused after a crash and a reboot; it only counts when its
    start time matches and its command line names ``marker`` (the heat.conf
    of this heat dir).
    """
    if not pid:
        return None
    try:
        proc = psutil.Process(pid)
        if create_time is not None and abs(proc.create_time() -
                                           create_time) > 0.01:
            return None
        if marker and marker not in ' '.join(proc.cmdline()):
            return None
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        return proc
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None
