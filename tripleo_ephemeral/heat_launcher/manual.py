"""``tripleo launch heat``: a Heat started or stopped by hand.

:func:`run` takes the command's :class:`LaunchRequest` and returns what it
did (:class:`LaunchResult`). A heat dir that holds a deployment's dumps is
never started empty by accident: the user says ``--restore-db`` (go on
from a dump) or ``--empty`` (an empty Heat; the dumps stay, and an empty
database is never dumped over them). ``--kill`` of a heat dir that does
not exist creates nothing and names the heat dirs whose Heat does run. The
user's clouds.yaml entries of Heats that stopped are removed
(:func:`forget_stopped`).
"""

import dataclasses
import glob
import logging
import os
from collections.abc import Sequence
from typing import Callable

from tripleo_ephemeral import clouds
from tripleo_ephemeral.engine_tuning import report
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import spec as launcher_spec
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import interruption
from tripleo_ephemeral import locking
from tripleo_ephemeral import workdir

LOG = logging.getLogger(__name__)

KILL_HINT = 'openstack tripleo launch heat --heat-dir <heat-dir> --kill'


@dataclasses.dataclass(frozen=True)
class LaunchRequest:
    """What ``tripleo launch heat`` asks, read once from its options:
    start the Heat ``spec`` describes for ``heat_dir`` (from the dump
    ``restore_db`` names, or ``empty``) and name it ``cloud_name`` in the
    user's clouds.yaml, or stop it (``kill``) and dump its database."""

    heat_dir: str
    spec: launcher_spec.LauncherSpec = dataclasses.field(
        default_factory=launcher_spec.LauncherSpec)
    cloud_name: str = 'heat'
    #: None, 'newest', 'last-success' or a dump's id
    restore_db: str | None = None
    empty: bool = False
    kill: bool = False


@dataclasses.dataclass(frozen=True)
class LaunchResult:
    """The Heat a launch started (``status`` running) or a kill stopped
    (stopped, not running), how to reach it, and its newest dump."""

    status: str
    heat_type: str | None = None
    api_url: str | None = None
    heat_dir: str | None = None
    pid: int | None = None
    database: str | None = None
    clouds_yaml: str | None = None
    dump: str | None = None
    engine_tunings: report.Tunings | None = None


def run(request: LaunchRequest,
        say: Callable[[str], None]) -> LaunchResult:
    """Start (or with ``kill``, stop) the Heat of ``request``, the heat
    dir locked meanwhile; ``say`` prints the progress."""
    if request.kill:
        check_kill(request.heat_dir, [os.path.dirname(os.path.dirname(
            request.heat_dir))])
    with locking.DirLock(request.heat_dir):
        launcher = launcher_spec.build(request.spec, request.heat_dir,
                                       say=say)
        if request.kill:
            return _kill(launcher, say)
        return _launch(launcher, request, say)


def _launch(launcher: base.HeatLauncher, request: LaunchRequest,
            say: Callable[[str], None]) -> LaunchResult:
    check_launch(launcher.heat_dir, request.restore_db, request.empty)
    with interruption.on_force('Heat', launcher.kill), \
            interruption.activity('launching Heat'):
        launcher.start(restore_db=request.restore_db)
    _forget_stopped(say)
    try:
        user_file = clouds.set_cloud(request.cloud_name, launcher.endpoint,
                                     heat_dir=launcher.heat_dir)
    except (OSError, ValueError) as exc:
        LOG.warning('Could not update your clouds.yaml (%s); use '
                    '%s/heatrc instead', exc, launcher.heat_dir)
        user_file = launcher.files.clouds_file
    LOG.info('Heat is running: export OS_CLOUD=%(cloud)s, or source '
             '%(rc)s', {'cloud': request.cloud_name,
                        'rc': launcher.files.path('heatrc')})
    return _result(launcher.describe(), status='running',
                   clouds_yaml=user_file)


def _kill(launcher: base.HeatLauncher,
          say: Callable[[str], None]) -> LaunchResult:
    described = launcher.describe()  # as it ran
    endpoint = launcher.endpoint  # the stopped Heat's entry goes too
    if not launcher.is_running():
        LOG.info('No Heat is running for %s', launcher.heat_dir)
        launcher.kill()  # forget a stale pid, if any
        dump = _newest(launcher)
        status = 'not running'
    else:
        with interruption.on_force('Heat', launcher.kill):
            dump = launcher.stop(dump=True)
        status = 'stopped'
    _forget_stopped(say, endpoint)
    return _result(described, status=status, pid=None, dump=dump)


def _result(described: dict[str, object],
            **values: object) -> LaunchResult:
    """The :class:`LaunchResult` of what a launcher ``described``
    (:meth:`~.base.HeatLauncher.describe`), with ``values``."""
    shown = {f.name for f in dataclasses.fields(LaunchResult)}
    found = {k: v for k, v in described.items() if k in shown}
    return LaunchResult(**dict(found, **values))  # type: ignore[arg-type]


def _forget_stopped(say: Callable[[str], None],
                    endpoint: str | None = None) -> None:
    """The user's clouds.yaml entries of Heats that stopped go."""
    removed = forget_stopped(endpoint)
    if removed:
        say('Removed %s from %s: no Heat answers there any more' % (
            ', '.join(removed), clouds.user_clouds_file()))


def _newest(launcher: base.HeatLauncher) -> str | None:
    found: list[str] = launcher.dumps.all()
    return found[0] if found else None


def check_launch(heat_dir: str, restore_db: str | None,
                 empty: bool) -> None:
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


def check_kill(heat_dir: str, roots: Sequence[str] = ()) -> None:
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


def _roots(roots: Sequence[str]) -> list[str]:
    return [os.path.expanduser(r) for r in
            (workdir.DEFAULT_PARENT,) + tuple(roots)]


def running_heat_dirs(roots: Sequence[str] = ()) -> list[str]:
    """The heat dirs whose Heat runs: those of the work dirs under the
    default root (and ``roots``), and those the entries of the user's
    clouds.yaml point at; read from their launcher state."""
    found: list[str] = []
    candidates: list[str] = []
    for root in _roots(roots):
        candidates += sorted(glob.glob(os.path.join(
            glob.escape(root), '*', workdir.HEAT_DIR)))
    for heat_dir in candidates + _clouds_heat_dirs():
        if heat_dir not in found and runs(heat_dir):
            found.append(heat_dir)
    return found


def runs(heat_dir: str) -> bool:
    """Whether a Heat runs for ``heat_dir`` (its launcher state says so,
    and its process is there)."""
    from tripleo_ephemeral import heat_launcher

    saved = launcher_state.LauncherState(heat_dir).load()
    if not saved.get('running'):
        return False
    try:
        return bool(heat_launcher.get_launcher(
            saved.get('heat_type') or 'native', heat_dir).is_running())
    except (ValueError, exceptions.TripleoEphemeralError):
        return False


def forget_stopped(endpoint: str | None = None) -> list[str]:
    """Remove the user's clouds.yaml entries this product wrote for a
    Heat that no longer runs (their heat dir's), and the one pointing at
    ``endpoint`` (a Heat just stopped); return the names removed."""
    def stopped(heat_dir: str | None, entry_endpoint: str | None) -> bool:
        if endpoint and entry_endpoint == endpoint:
            return True
        return heat_dir is not None and not runs(heat_dir)
    removed: list[str] = clouds.forget(stopped)
    return removed


def _clouds_heat_dirs() -> list[str]:
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
