"""What ``launch heat`` by hand may do to a heat dir.

A heat dir that holds a deployment's dumps is never started empty by
accident: the user says ``--restore-db`` (go on from a dump) or
``--empty`` (an empty Heat; the dumps stay, and an empty database is never
dumped over them). ``--kill`` of a heat dir that does not exist creates
nothing and names the heat dirs whose Heat does run. The user's
clouds.yaml entries of Heats that stopped are removed
(:func:`forget_stopped`).
"""

import glob
import os

from tripleo_ephemeral import clouds
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import dumps
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
    """The heat dirs whose Heat runs: those of the work dirs under the
    default root (and ``roots``), and those the entries of the user's
    clouds.yaml point at; read from their launcher state."""
    found = []
    candidates = []
    for root in _roots(roots):
        candidates += sorted(glob.glob(os.path.join(
            glob.escape(root), '*', workdir.HEAT_DIR)))
    for heat_dir in candidates + _clouds_heat_dirs():
        if heat_dir not in found and runs(heat_dir):
            found.append(heat_dir)
    return found


def runs(heat_dir):
    """Whether a Heat runs for ``heat_dir`` (its launcher state says so,
    and its process is there)."""
    from tripleo_ephemeral import heat_launcher

    saved = launcher_state.LauncherState(heat_dir).load()
    if not saved.get('running'):
        return False
    try:
        return heat_launcher.get_launcher(
            saved.get('heat_type') or 'native', heat_dir).is_running()
    except (ValueError, exceptions.TripleoEphemeralError):
        return False


def forget_stopped(endpoint=None):
    """Remove the user's clouds.yaml entries this product wrote for a
    Heat that no longer runs (their heat dir's), and the one pointing at
    ``endpoint`` (a Heat just stopped); return the names removed."""
    def stopped(heat_dir, entry_endpoint):
        if endpoint and entry_endpoint == endpoint:
            return True
        return heat_dir is not None and not runs(heat_dir)
    return clouds.forget(stopped)


def _clouds_heat_dirs():
    """The heat dirs of the Heats the user's clouds.yaml entries point at
    (a launch with ``--heat-dir`` anywhere adds one): the process that
    listens on an entry's local port names its heat.conf."""
    import urllib.parse

    import psutil
    import yaml

    from tripleo_ephemeral.overcloud import yamlfile

    try:
        entries = (yamlfile.loads(yamlfile.read(
            clouds.user_clouds_file())) or {}).get('clouds') or {}
        ports = {urllib.parse.urlsplit(
            (e.get('auth') or {}).get('endpoint') or '').port
            for e in entries.values() if isinstance(e, dict)}
        listening = psutil.net_connections('inet')
    except (OSError, ValueError, AttributeError, yaml.YAMLError,
            psutil.Error):
        return []
    dirs = []
    for conn in listening:
        if conn.status != psutil.CONN_LISTEN or conn.laddr.port not in ports \
                or not conn.pid:
            continue
        try:
            argv = psutil.Process(conn.pid).cmdline()
        except psutil.Error:
            continue
        if '--config-file' in argv[:-1]:
            dirs.append(os.path.dirname(argv[argv.index('--config-file') + 1]))
    return dirs
