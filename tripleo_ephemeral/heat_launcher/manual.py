"""What ``launch heat`` by hand may do to a heat dir.

A heat dir that holds a deployment's dumps is never started empty by
accident: the user says ``--restore-db`` (go on from a dump) or
``--empty`` (an empty Heat; the dumps stay, and an empty database is never
dumped over them). ``--kill`` of a heat dir that does not exist creates
nothing and names the heat dirs whose Heat does run.
"""

import glob
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import dumps
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import workdir

KILL_HINT = 'openstack tripleo launch heat --heat-dir <heat-dir> --kill'


def check_launch(heat_dir, restore_db, empty):
    """Refuse to start an empty Heat on a deployment's dumps unless
    ``empty`` says so."""
    if restore_db or empty:
        return
    kept = dumps.DumpStore(heat_dir)
    if kept.all() or kept.successes():
        raise exceptions.LauncherError(
            'The heat dir %s holds a deployment (newest dump %s): launch '
            'with --restore-db to go on from it (or an older one: '
            '--restore-db <id>, listed by "openstack tripleo saved dump '
            'list"), or with --empty for an empty Heat (the dumps stay)'
            % (heat_dir, (kept.all() or kept.successes())[0]))


def check_kill(heat_dir, roots=()):
    """``--kill`` of ``heat_dir``: an error, naming the heat dirs that do
    run a Heat, if it does not exist."""
    if os.path.isdir(heat_dir):
        return
    running = running_heat_dirs(roots)
    raise exceptions.NotRunningError(
        'No heat dir %s: no Heat to stop there; %s' % (heat_dir, (
            'Heat runs for %s (stop one with "%s")' % (
                ', '.join(running), KILL_HINT)) if running else
            'no Heat runs in the work dirs under %s' % ', '.join(
                _roots(roots))))


def _roots(roots):
    return [os.path.expanduser(r) for r in
            (workdir.DEFAULT_PARENT,) + tuple(roots)]


def running_heat_dirs(roots=()):
    """The heat dirs of the work dirs under the default root (and
    ``roots``) whose Heat runs; read from their launcher state."""
    from tripleo_ephemeral import heat_launcher

    found = []
    for root in _roots(roots):
        for heat_dir in sorted(glob.glob(os.path.join(
                glob.escape(root), '*', workdir.HEAT_DIR))):
            saved = launcher_state.LauncherState(heat_dir).load()
            if not saved.get('running') or heat_dir in found:
                continue
            try:
                launcher = heat_launcher.get_launcher(
                    saved.get('heat_type') or 'native', heat_dir)
                if launcher.is_running():
                    found.append(heat_dir)
            except (ValueError, exceptions.TripleoEphemeralError):
                continue
    return found
