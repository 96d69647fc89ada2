"""The Heats a benchmark compares, and what they cost the machine.

``baseline`` is Heat as TripleO's native launcher ran it (one heat-all, a
separate ``heat-manage db_sync`` before every launch, every tuning at
Heat's own value: ``Tuning.stock()``); ``baseline-pod`` is Heat as
TripleO's pod launcher ran it for scale (this project's pod: MariaDB,
RabbitMQ, heat-api and heat-engine containers, with ``Tuning.stock()``
and the engine count and heat.conf values of python-tripleoclient
20.0.0's ``heat_launcher.py`` and ``templates/ephemeral-heat/heat.conf.j2``);
``native``, ``container`` and ``pod`` are this project's heat types with
their tuned defaults; a ``--variant`` is a heat type with heat.conf
overrides.
"""

import json
import os
import subprocess
import sys
import threading
import time

import psutil

from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import native
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning

#: --variant NAME=type:section.option=value,...: a heat type with overrides.
VARIANTS = {}
#: --pythons: py3.X -> the bin dir of its venv (native, tuned defaults).
PYTHONS = {}

#: The configurations that stand for TripleO (``--baselines``).
BASELINES = ('baseline', 'baseline-pod')

#: What TripleO's pod heat.conf (tripleoclient 20.0.0) sets beyond this
#: project's template, which already has its rpc_response_timeout,
#: max_resources_per_stack=-1, max_json_body_size and nested depth.
TRIPLEO_POD_CONF = {
    'DEFAULT': {'client_retry_limit': '2', 'debug': 'true'},
    'oslo_messaging_notifications': {'driver': 'noop'},
    'oslo_messaging_rabbit': {'heartbeat_timeout_threshold': '60'},
    'yaql': {'limit_iterators': '10000'},
}


def tripleo_pod_engine_workers():
    """tripleoclient's ``_get_num_engine_workers``: half the CPUs (one
    engine on 2 cores; at least one)."""
    return max(1, (os.cpu_count() or 1) // 2)


def tripleo_pod_tuning():
    """``Tuning.stock()`` plus TripleO's pod heat.conf."""
    tuning = launcher_tuning.Tuning.stock()
    tuning.overrides = {section: dict(values)
                        for section, values in TRIPLEO_POD_CONF.items()}
    return tuning


class BaselineLauncher(native.NativeHeatLauncher):
    """TripleO's native launcher, as far as a current Heat allows."""

    heat_type = 'native'

    def __init__(self, heat_dir, api_port, **kwargs):
        kwargs['tuning'] = launcher_tuning.Tuning.stock()
        super().__init__(heat_dir, api_port, **kwargs)

    def runner_argv(self):
        return [a for a in super().runner_argv() if a != '--db-sync']

    def _launch(self):
        # tripleoclient ran heat-manage db_sync before every heat-all.
        self.runner.run([os.path.join(os.path.dirname(sys.executable),
                                      'heat-manage'),
                         '--config-file', self.config_file, 'db_sync'])
        return super()._launch()


#: --variant NAME=pod:engine_workers=N,...: the pod engines of a variant.
VARIANT_ENGINES = {}


def parse_variant(text):
    """``name=type:section.option=value,...`` -> the registered name
    (``engine_workers=N``, with no section, is a pod's engine count)."""
    name, _, rest = text.partition('=')
    heat_type, _, settings = rest.partition(':')
    overrides = {}
    for item in filter(None, settings.split(',')):
        key, _, value = item.partition('=')
        if key == 'engine_workers':
            VARIANT_ENGINES[name] = int(value)
            continue
        section, _, option = key.rpartition('.')
        overrides.setdefault(section, {})[option] = value
    VARIANTS[name] = (heat_type, overrides)
    return name


def heat_type_of(config):
    """The ``--heat-type`` a configuration runs."""
    if config == 'baseline' or config in PYTHONS:
        return 'native'
    if config == 'baseline-pod':
        return 'pod'
    return VARIANTS[config][0] if config in VARIANTS else config


def overrides_of(config):
    """``section.option=value`` strings a configuration sets (CLI form)."""
    if config == 'baseline':
        return list(launcher_tuning.Tuning.stock().as_overrides())
    if config == 'baseline-pod':
        return list(tripleo_pod_tuning().as_overrides())
    if config in VARIANTS:
        return ['%s.%s=%s' % (section, option, value)
                for section, values in VARIANTS[config][1].items()
                for option, value in values.items()]
    return []


def openstack_of(config):
    """The ``openstack`` command that runs ``config``: its Python's venv's,
    else this Python's."""
    return os.path.join(PYTHONS.get(config) or os.path.dirname(
        sys.executable), 'openstack')


def engine_workers_of(config):
    """The pod engines a configuration asks for (None: the default)."""
    if config == 'baseline-pod':
        return tripleo_pod_engine_workers()
    return VARIANT_ENGINES.get(config)


def command_options(config):
    """The ``openstack`` options that launch ``config``'s Heat."""
    argv = ['--heat-type', heat_type_of(config)]
    for override in overrides_of(config):
        argv += ['--heat-config-override', override]
    if engine_workers_of(config):
        argv += ['--heat-engine-workers', str(engine_workers_of(config))]
    return argv


def make_launcher(config, heat_dir):
    port = readiness.free_port()
    if config == 'baseline':
        return BaselineLauncher(heat_dir, port)
    if config == 'baseline-pod':
        return heat_launcher.get_launcher(
            'pod', heat_dir, api_port=port, tuning=tripleo_pod_tuning(),
            engine_workers=tripleo_pod_engine_workers())
    if config in VARIANTS:
        heat_type, overrides = VARIANTS[config]
        extra = ({'engine_workers': VARIANT_ENGINES[config]}
                 if config in VARIANT_ENGINES else {})
        return heat_launcher.get_launcher(
            heat_type, heat_dir, api_port=port,
            tuning=launcher_tuning.Tuning(overrides=overrides), **extra)
    return heat_launcher.get_launcher(config, heat_dir, api_port=port)


def available(requested):
    """The requested heat types this build can run, in order."""
    types = []
    for heat_type in requested:
        if heat_type in heat_launcher.heat_types(ephemeral_only=True):
            types.append(heat_type)
        else:
            print('skipping %s: not a heat type here' % heat_type)
    return types


#: Seconds a container's pids are reused before ``podman ps`` again: run
#: at every sample (0.2 s), it took two thirds of a core from the Heat
#: measured.
PODMAN_PS_EVERY = 5.0
_podman_pids = {}  # filter -> (when, pids)


def heat_pids(saved):
    """Host pids of a launched Heat from its launcher state: the runner,
    or its containers (a pod's with its MariaDB and RabbitMQ)."""
    if saved.get('pid'):
        return [saved['pid']]
    if saved.get('pod'):
        which = 'pod=%s' % saved['pod']
    elif saved.get('container'):
        which = 'name=^%s$' % saved['container']
    else:
        return []
    when, pids = _podman_pids.get(which, (None, None))
    if pids and time.monotonic() - when < PODMAN_PS_EVERY:
        return pids
    out = subprocess.run(['podman', 'ps', '--filter', which, '--format',
                          'json'], capture_output=True, check=False).stdout
    pids = [c['Pid'] for c in json.loads(out or b'[]') or [] if c.get('Pid')]
    _podman_pids[which] = (time.monotonic(), pids)
    return pids


class ProcessSampler(threading.Thread):
    """Peak RSS and CPU seconds of Heat's process trees, every 0.2 s.

    ``pids()`` names the trees' roots (it may change: a Heat that starts
    later). CPU is kept per process at its highest reading, so processes
    that exit before the end (a Heat the deploy stopped) still count.
    """

    def __init__(self, pids, interval=0.2):
        super().__init__(daemon=True)
        self.pids = pids
        self.interval = interval
        self.peak = 0
        self._cpu = {}  # (pid, create time) -> seconds
        self._lock = threading.Lock()
        self._halt = threading.Event()

    def sample(self):
        rss = 0
        for pid in self.pids() or ():
            try:
                root = psutil.Process(pid)
                procs = [root] + root.children(recursive=True)
            except psutil.Error:
                continue
            for proc in procs:
                try:
                    with proc.oneshot():
                        rss += proc.memory_info().rss
                        times = proc.cpu_times()
                        key = (proc.pid, proc.create_time())
                except psutil.Error:
                    continue
                with self._lock:
                    self._cpu[key] = max(self._cpu.get(key, 0.0),
                                         times.user + times.system)
        self.peak = max(self.peak, rss)

    def cpu(self):
        """CPU seconds used so far (samples once more first)."""
        self.sample()
        with self._lock:
            return sum(self._cpu.values())

    def run(self):
        while not self._halt.wait(self.interval):
            self.sample()

    def stop(self):
        self._halt.set()
        self.join()
        return self.peak


def launcher_pids(launcher):
    """``pids()`` for a ProcessSampler watching ``launcher``'s Heat."""
    return lambda: heat_pids(launcher.state.load())


def state_file_pids(path):
    """``pids()`` for the Heat a child command launches, read from the
    launcher state it leaves at ``path``."""
    def pids():
        try:
            with open(path) as f:
                saved = json.load(f)
        except (OSError, ValueError):
            return []
        return heat_pids(saved) if saved.get('running') else []
    return pids
