"""The watchdog process of a Heat tied to a command (see
:mod:`tripleo_ephemeral.heat_launcher.watchdog`).

``python -m tripleo_ephemeral.heat_launcher.watchdog_process --heat-dir D
--owner PID --launch-id ID`` waits for the owner to die. If the launcher
state then still says that launch runs under that owner, it takes the heat
dir's lock and stops Heat as the owner would have (gracefully, with a
dump), by the pid or podman names the launcher recorded, and leaves a note
the next launch reports. Otherwise (a normal stop, ``--keep-running``, another
launch) it just exits.
"""

import argparse
import logging
import sys
import time

from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import locking

LOG = logging.getLogger('tripleo-heat-watchdog')

POLL = 0.5
#: How often the state is read to notice a normal end without the owner's
#: help (the owner also ends the watchdog itself).
STATE_POLL = 5.0


def _still_ours(saved, args):
    return (saved.get('running') and
            saved.get('launch_id') == args.launch_id and
            saved.get('owner_pid') == args.owner)


def watch(args, clock=time.monotonic, sleep=time.sleep):
    """Wait for the owner to die; return the state if Heat must stop."""
    st = launcher_state.LauncherState(args.heat_dir)
    owner = launcher_state.find_process(args.owner, None, None)
    owner_time = owner.create_time() if owner is not None else None
    next_state = clock() + STATE_POLL
    while True:
        if launcher_state.find_process(args.owner, owner_time,
                                       None) is None:
            saved = st.load()
            return saved if _still_ours(saved, args) else None
        if clock() >= next_state:
            if not _still_ours(st.load(), args):
                return None
            next_state = clock() + STATE_POLL
        sleep(POLL)


def stop_abandoned(args):
    """Stop the Heat of a dead owner under the heat dir's lock."""
    from tripleo_ephemeral import exceptions
    from tripleo_ephemeral import heat_launcher

    try:
        lock = locking.DirLock(args.heat_dir,
                               purpose=locking.WATCHDOG).acquire()
    except exceptions.LockedError as exc:
        LOG.info('Not stopping Heat: %s (a new command took over)', exc)
        return 0
    try:
        st = launcher_state.LauncherState(args.heat_dir)
        saved = st.load()
        if not _still_ours(saved, args):
            return 0
        LOG.warning('The command that launched this Heat (pid %d) is gone; '
                    'stopping Heat (%s)', args.owner, saved.get('heat_type'))
        launcher = heat_launcher.get_launcher(
            saved['heat_type'], args.heat_dir, api_port=saved.get('api_port'))
        started = time.monotonic()
        dump = launcher.stop(dump=True,
                             origin=generations.DEPLOY_INTERRUPTED)
        st.save(abandoned={
            'owner_pid': args.owner, 'heat_type': saved.get('heat_type'),
            'stopped_at': time.time(), 'dump': dump,
            'seconds': round(time.monotonic() - started, 1)})
        LOG.warning('Heat stopped; database dumped to %s', dump)
        return 0
    finally:
        lock.release()


def main(argv=None):
    parser = argparse.ArgumentParser(prog='tripleo-heat-watchdog')
    parser.add_argument('--heat-dir', required=True)
    parser.add_argument('--owner', type=int, required=True)
    parser.add_argument('--launch-id', required=True)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO,
        format='%(asctime)s %(process)d %(levelname)s %(name)s %(message)s')
    if watch(args) is None:
        return 0
    return stop_abandoned(args)


if __name__ == '__main__':
    sys.exit(main())
