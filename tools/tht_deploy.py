#!/usr/bin/env python3
"""Deploy the real tripleo-heat-templates 18.0.0 with an ephemeral Heat.

Opt-in and slow (minutes): an overcloud on already deployed servers
(TEST-NET addresses, nothing is contacted), created with ``openstack
overcloud deploy --stack-only`` and rendered by config-download, with the
inputs an operator gives (THT's own defaults and samples; only the servers
file is written here). Prints what it measured::

    tools/tht_deploy.py [--scenario S] [--work-dir DIR] [--stock]
                        [--heat-type T] [--keep-running]

Scenarios (``--scenario``): ``ctlplane`` (the default: 1 Controller + 1
Compute, THT's default roles and networks files, control plane only),
``isolation`` (1+1 with network-data-samples/default-network-isolation.yaml
and THT's deployed-network-environment and network-environment
environments), ``isolation-ha`` (the same with 3 Controllers + 2 Computes
and THT's VIP sample) and ``standalone`` (THT's Standalone role on one host
with environments/standalone/standalone-tripleo.yaml).

The installed THT is used (``openstack tripleo templates install``), else
its sdist is downloaded and extracted into ~/.cache/tripleo-ephemeral/tht
(its wheel is empty). ``--stock`` runs Heat the way TripleO's launcher did
(every tuning off: ``Tuning.stock()``, the benchmark's baseline) instead of
the project's tuned defaults. Needs the standard library and the project
(psutil, a dependency of the project, samples the Heat process's RSS).
"""

import argparse
import json
import os
import subprocess
import sys
import tarfile
import threading
import time

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral import tht
from tripleo_ephemeral import workdir

THT_VERSION = '18.0.0'
THT_NAME = 'tripleo-heat-templates'
CACHE = os.path.join(os.path.expanduser('~'), '.cache', 'tripleo-ephemeral')
THT_CACHE = os.path.join(CACHE, 'tht')
STACK = 'overcloud'
CONTROLLER = 'overcloud-controller-%d'
COMPUTE = 'overcloud-novacompute-%d'


def servers(controllers=1, computes=1, role='Controller'):
    """The servers file: TEST-NET-1 control plane addresses; the first
    Compute gives its isolated addresses itself, the rest are allocated."""
    data = {role: [{'hostname': (CONTROLLER if role == 'Controller' else
                                 '%s-%%d' % role.lower()) % i,
                    'ctlplane_ip': '192.0.2.%d' % (10 + i)}
                   for i in range(controllers)]}
    if computes:
        data['Compute'] = [{'hostname': COMPUTE % i,
                            'ctlplane_ip': '192.0.2.%d' % (20 + i)}
                           for i in range(computes)]
    return data


ISOLATION = ('-n', 'network-data-samples/default-network-isolation.yaml',
             '-e', 'environments/deployed-network-environment.yaml',
             '-e', 'environments/network-environment.yaml')
#: scenario -> (servers, arguments with paths relative to THT)
SCENARIOS = {
    'ctlplane': (servers(1, 1), ()),
    'isolation': (servers(1, 1), ISOLATION),
    'isolation-ha': (servers(3, 2), ISOLATION + (
        '--vip-file',
        'network-data-samples/vip-data-default-network-isolation.yaml')),
    'standalone': (servers(1, 0, role='Standalone'), (
        '-r', 'roles_data_standalone.yaml',
        '-e', 'environments/standalone/standalone-tripleo.yaml')),
}
#: The first Compute of the isolation scenarios gives its own addresses.
COMPUTE_NETWORKS = {'internal_api': '172.16.2.120', 'tenant': '172.16.0.120',
                    'storage': '172.16.1.120'}


#: TripleO's stock Heat behaviour (see --stock): the benchmark's baseline.
STOCK_OVERRIDES = tuple(launcher_tuning.Tuning.stock().as_overrides())
BIN = os.path.dirname(sys.executable)


def tht_dir(cache=THT_CACHE, version=THT_VERSION):
    """The installed THT of that version (``openstack tripleo templates
    install``), else one extracted into ``cache`` (downloaded once)."""
    try:
        found = tht.find()
        if tht.installed_version(found) in (None, version):
            return found
    except exceptions.TemplatesNotFoundError:
        pass
    dest = os.path.join(cache, '%s-%s' % (THT_NAME, version))
    if os.path.isfile(os.path.join(dest, 'overcloud.j2.yaml')):
        return dest
    os.makedirs(cache, exist_ok=True)
    sdist = os.path.join(cache, '%s-%s.tar.gz' % (THT_NAME, version))
    if not os.path.exists(sdist):
        subprocess.run(
            [sys.executable, '-m', 'pip', 'download', '--no-deps',
             '--no-binary', ':all:', '%s==%s' % (THT_NAME, version),
             '-d', cache], check=True)
    with tarfile.open(sdist) as tar:
        tar.extractall(cache, filter='data')
    return dest


def write_inputs(tht_root, inputs_dir, scenario='ctlplane'):
    """Write the scenario's servers file; return the deploy arguments."""
    os.makedirs(inputs_dir, exist_ok=True)
    data, args = SCENARIOS[scenario]
    data = json.loads(json.dumps(data))
    if scenario.startswith('isolation'):
        data['Compute'][0]['networks'] = dict(COMPUTE_NETWORKS)
    path = os.path.join(inputs_dir, 'servers-%s.yaml' % scenario)
    with open(path, 'w') as f:
        json.dump(data, f, indent=2)  # JSON is YAML
    argv = ['--templates', tht_root, '--deployed-servers', path]
    for index, arg in enumerate(args):
        relative = index % 2 and not arg.startswith('-')
        argv.append(os.path.join(tht_root, arg) if relative else arg)
    return argv


class RssSampler(threading.Thread):
    """Samples the peak RSS of the Heat process named in launcher-state."""

    def __init__(self, heat_dir, interval=0.5):
        super().__init__(daemon=True)
        self.state = os.path.join(heat_dir, 'launcher-state.json')
        self.interval = interval
        self.peak = 0
        self.cpu = 0.0
        self.done = threading.Event()

    def _pid(self):
        try:
            with open(self.state) as f:
                data = json.load(f)
        except (OSError, ValueError):
            return None
        return data.get('pid') if data.get('running') else None

    def run(self):
        try:
            import psutil
        except ImportError:
            return
        while not self.done.wait(self.interval):
            pid = self._pid()
            if not pid:
                continue
            try:
                proc = psutil.Process(pid)
                rss = proc.memory_info().rss + sum(
                    c.memory_info().rss for c in proc.children(True))
                times = proc.cpu_times()
            except psutil.Error:
                continue
            self.peak = max(self.peak, rss)
            self.cpu = max(self.cpu, times.user + times.system)


def count_files(path):
    return sum(len(files) for _, _, files in os.walk(path))


def newest_dump(heat_dir):
    found = []
    for directory, _, files in os.walk(heat_dir):
        for name in files:
            if name.endswith(('.sql.gz', '.sql')):
                path = os.path.join(directory, name)
                found.append((os.path.getmtime(path), path))
    return max(found)[1] if found else None


def nested_stacks(wd):
    """Count the nested stacks in the newest dump of the heat dir."""
    from tripleo_ephemeral import exceptions
    from tripleo_ephemeral.heat_db import dump_reader

    dump = newest_dump(wd.heat_dir)
    if not dump:
        return None
    try:
        saved = dump_reader.SavedDatabase.from_dump(dump)
    except exceptions.SavedStateError:
        return None
    return sum(1 for s in saved.stacks(nested=True) if s['parent'])


def deploy(args):
    base = os.path.abspath(os.path.expanduser(args.work_dir))
    wd = workdir.WorkDir(os.path.join(base, STACK), STACK)
    argv = [os.path.join(BIN, 'openstack'), 'overcloud', 'deploy',
            '--heat-type', args.heat_type, '--stack', STACK, '--stack-only',
            '--work-dir', wd.path] + write_inputs(
                tht_dir(), os.path.join(base, 'inputs'), args.scenario)
    for env in args.environment_files:
        argv += ['-e', env]
    if args.heat_engine_workers:
        argv += ['--heat-engine-workers', str(args.heat_engine_workers)]
    if args.heat_api_port:
        argv += ['--heat-api-port', str(args.heat_api_port)]
    overrides = list(STOCK_OVERRIDES) if args.stock else []
    for override in overrides + args.heat_config_override:
        argv += ['--heat-config-override', override]
    if args.keep_running:
        argv.append('--keep-running')
    print('$ ' + ' '.join(argv), flush=True)

    sampler = RssSampler(wd.heat_dir)
    sampler.start()
    started = time.monotonic()
    # Progress streams to stderr as it comes; the result is stdout's JSON.
    proc = subprocess.run(argv + ['-f', 'json'], stdout=subprocess.PIPE,
                          text=True)
    sampler.done.set()
    sampler.join()
    wall = time.monotonic() - started
    result = json.loads(proc.stdout) if proc.returncode == 0 else {}

    config = wd.config_download_dir
    dump = newest_dump(wd.heat_dir)
    print('\n== tripleo-heat-templates %s, %s, %s %s Heat ==' % (
        THT_VERSION, args.scenario, 'stock' if args.stock else 'tuned',
        args.heat_type))
    print('exit status:          %d' % proc.returncode)
    print('wall time:            %.1fs' % wall)
    if result.get('stack_status'):
        print('stack:                %s in %ss' % (result['stack_status'],
                                                   result['stack_seconds']))
        print('resources:            %s' % result['resources'])
    stacks = nested_stacks(wd)
    if stacks is not None:
        print('nested stacks:        %d' % stacks)
    if os.path.isdir(config):
        print('config-download:      %d files in %s' % (count_files(config),
                                                        config))
    if dump:
        print('DB dump:              %.1f MiB (%s)' % (
            os.path.getsize(dump) / 2 ** 20, dump))
    if sampler.peak:
        print('Heat peak RSS:        %.0f MiB' % (sampler.peak / 2 ** 20))
        print('Heat CPU time:        %.0fs (user + system)' % sampler.cpu)
    # Timings mean little on a busy machine: say how busy it was.
    print('load average:         %.2f %.2f %.2f' % os.getloadavg())
    return proc.returncode


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument(
        '--work-dir', default=os.path.join(CACHE, 'tht-deploy'),
        help='Base directory: inputs/ and the deploy work dir overcloud/ '
             '(default: %(default)s)')
    parser.add_argument('--scenario', choices=sorted(SCENARIOS),
                        default='ctlplane',
                        help='What to deploy (default: %(default)s)')
    parser.add_argument('--stock', action='store_true',
                        help='Run Heat with TripleO\'s stock settings: %s'
                        % ', '.join(STOCK_OVERRIDES))
    parser.add_argument('--heat-type', default='native',
                        choices=('native', 'container', 'pod'))
    parser.add_argument('--heat-engine-workers', type=int,
                        help='pod only: engine processes')
    parser.add_argument('--heat-api-port', type=int)
    parser.add_argument('--heat-config-override', action='append',
                        default=[], metavar='<section.option=value>')
    parser.add_argument('-e', '--environment-file', action='append',
                        dest='environment_files', default=[])
    parser.add_argument('--keep-running', action='store_true',
                        help='Leave Heat up; stop it with "openstack tripleo '
                        'launch heat --work-dir <work-dir>/overcloud --kill"')
    return deploy(parser.parse_args(argv))


if __name__ == '__main__':
    sys.exit(main())
