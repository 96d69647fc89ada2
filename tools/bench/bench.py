#!/usr/bin/env python3
"""Benchmark TripleO's native Heat configuration against this project's.

One run, one machine, the same templates for every configuration:

* ``baseline``: Heat as TripleO's native launcher ran it: one heat-all
  process, a separate ``heat-manage db_sync`` before every launch, SQLite on
  disk with its default journal, the stock 1 s leaf-trigger delay and 64
  executor threads; dumps by ``sqlite3 .dump`` then tar+bzip2. Only the
  fixes needed to run a current Heat at all (the runner, BEGIN IMMEDIATE,
  the policy) are applied.
* ``native``, ``container``, ``pod``: this project's heat types with their
  tuned defaults (those available here).

Cases: launch to ready; create of a ResourceGroup of deployed-server nodes
at each size; update of the 50-member group to 60; dump and restore of the
resulting database; launch with --restore-db; delete of the largest group;
peak RSS of the Heat process; and, where tripleo-heat-templates 18.0.0 are
present (``tools/tht_deploy.py`` fetched them once) or ``--tht`` asks for
them, the create of the real overcloud of 1 Controller + 1 Compute
(``tools/tht_deploy.py --stack-only``, the stack's own time). Prints a table
with baseline/ours ratios and writes the numbers as JSON.

    python3 tools/dev.py bench [--types native,pod] [--sizes 1,10,50,200]
"""

import argparse
import datetime
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

import psutil

from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import native
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning
from tripleo_ephemeral.heat_launcher import readiness

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import tht_deploy  # noqa: E402  (tools/tht_deploy.py)

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, 'templates')


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


def baseline_dump(db_path, out_dir):
    """sqlite3 .dump to a file, then tar+bzip2 it (the reference's way)."""
    sql = os.path.join(out_dir, 'heat-db.sql')
    conn = sqlite3.connect(db_path)
    with open(sql, 'w') as f:
        for line in conn.iterdump():
            f.write(line + '\n')
    conn.close()
    archive = sql + '.tar.bzip2'
    with tarfile.open(archive, 'w:bz2') as tar:
        tar.add(sql, os.path.basename(sql))
    os.unlink(sql)
    return archive


def baseline_restore(archive, db_path):
    out_dir = os.path.dirname(archive)
    with tarfile.open(archive, 'r:bz2') as tar:
        tar.extractall(out_dir, filter='data')
    sql = os.path.join(out_dir, 'heat-db.sql')
    if os.path.exists(db_path):
        os.unlink(db_path)
    conn = sqlite3.connect(db_path)
    with open(sql) as f:
        conn.executescript(f.read())
    conn.close()
    os.unlink(sql)


class RssSampler(threading.Thread):
    """Peak RSS of some process trees together, sampled every 0.2 s."""

    def __init__(self, pids):
        super().__init__(daemon=True)
        self.pids = pids
        self.peak = 0
        self._halt = threading.Event()

    def run(self):
        while not self._halt.is_set():
            total = 0
            for pid in self.pids:
                try:
                    proc = psutil.Process(pid)
                    total += sum(p.memory_info().rss for p in
                                 [proc] + proc.children(recursive=True))
                except psutil.Error:
                    pass
            self.peak = max(self.peak, total)
            self._halt.wait(0.2)

    def stop(self):
        self._halt.set()
        self.join()
        return self.peak


def heat_pids(launcher):
    """Host pids of the launched Heat: the runner, or its containers (a
    pod's with its MariaDB and RabbitMQ)."""
    saved = launcher.state.load()
    if saved.get('pid'):
        return [saved['pid']]
    if saved.get('pod'):
        which = 'pod=%s' % saved['pod']
    elif saved.get('container'):
        which = 'name=^%s$' % saved['container']
    else:
        return []
    out = subprocess.run(['podman', 'ps', '--filter', which, '--format',
                          'json'], capture_output=True, check=False).stdout
    return [c['Pid'] for c in json.loads(out or b'[]') or [] if c.get('Pid')]


def wait_stack(client, stack_id, timeout=1800):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = client.stacks.get(stack_id,
                                   resolve_outputs=False).stack_status
        if not status.endswith('IN_PROGRESS'):
            return status
        time.sleep(0.25)
    raise RuntimeError('stack %s timed out' % stack_id)


def stack_fields(name, count):
    from heatclient.common import template_utils
    files, template = template_utils.get_template_contents(
        os.path.join(TEMPLATES, 'group.yaml'))
    return dict(stack_name=name, template=template, files=files,
                parameters={'count': count}, disable_rollback=True)


def best_of(repeat, fn, *args):
    """Run ``fn`` ``repeat`` times; return (fastest seconds, last value)."""
    best = value = None
    for _ in range(repeat):
        started = time.monotonic()
        value = fn(*args)
        took = time.monotonic() - started
        best = took if best is None else min(best, took)
    return best, value


def timed(results, key, fn, *args, repeat=1):
    """Time ``fn``; with ``repeat``, the best of that many runs.

    Sub-second cases (dump, restore) are repeated: one fsync or page-cache
    miss would otherwise decide them. They keep three decimals.
    """
    best, value = best_of(repeat, fn, *args)
    results[key] = round(best, 3 if best < 1 else 2)
    print('    %-28s %8.3fs %s' % (key, results[key],
                                   value if isinstance(value, str) else ''),
          flush=True)
    return value


#: Dumps and restores are timed as the best of this many runs: one dump of
#: the 200-member database took 26 to 50 ms on this machine within a minute.
DUMP_REPEAT = 11

#: --variant NAME=section.option:value,...: a heat type with overrides.
VARIANTS = {}


def make_launcher(config, heat_dir):
    port = readiness.free_port()
    if config == 'baseline':
        return BaselineLauncher(heat_dir, port)
    if config in VARIANTS:
        heat_type, overrides = VARIANTS[config]
        return heat_launcher.get_launcher(
            heat_type, heat_dir, api_port=port,
            tuning=launcher_tuning.Tuning(overrides=overrides))
    return heat_launcher.get_launcher(config, heat_dir, api_port=port)


def parse_variant(text):
    """``name=type:section.option=value,...`` -> registered config name."""
    name, _, rest = text.partition('=')
    heat_type, _, settings = rest.partition(':')
    overrides = {}
    for item in filter(None, settings.split(',')):
        key, _, value = item.partition('=')
        section, _, option = key.rpartition('.')
        overrides.setdefault(section, {})[option] = value
    VARIANTS[name] = (heat_type, overrides)
    return name


def bench_config(config, sizes, update, workdir, skip=()):
    print('== %s' % config, flush=True)
    results = {}
    heat_dir = os.path.join(workdir, config)
    launcher = make_launcher(config, heat_dir)
    timed(results, 'launch', launcher.start)
    pids = heat_pids(launcher)
    sampler = RssSampler(pids) if pids else None
    try:
        if sampler:
            sampler.start()
        client = heat_client.make_client(launcher.session(),
                                         launcher.endpoint)
        ids = {}
        for n in sizes:
            def create(n=n):
                stack = client.stacks.create(**stack_fields('rg-%d' % n, n))
                ids[n] = stack['stack']['id']
                return wait_stack(client, ids[n])
            status = timed(results, 'create %d' % n, create)
            if status != 'CREATE_COMPLETE':
                raise RuntimeError('%s: create %d ended %s' % (config, n,
                                                               status))
        if update and update[0] in ids:
            def do_update():
                client.stacks.update(ids[update[0]], existing=True,
                                     parameters={'count': update[1]})
                time.sleep(0.5)
                return wait_stack(client, ids[update[0]])
            timed(results, 'update %d->%d' % update, do_update)
    finally:
        if sampler:
            results['peak rss MB'] = round(sampler.stop() / 2 ** 20)
        # A database inside the launcher (the pod's MariaDB) goes with it:
        # dump it while stopping.
        in_launcher = not hasattr(launcher.database, 'path')
        if in_launcher:
            timed(results, 'stop+dump', launcher.stop)
        else:
            launcher.stop(dump=False)

    db = launcher.database
    if 'dump' in skip:
        return results
    if in_launcher:
        pass  # dumped above; restored by launch --restore-db below
    elif config == 'baseline':
        dump_dir = tempfile.mkdtemp(dir=heat_dir)
        archive = timed(results, 'dump', baseline_dump, db.path, dump_dir,
                        repeat=DUMP_REPEAT)
        results['dump MB'] = round(os.path.getsize(archive) / 2 ** 20, 2)
        timed(results, 'restore', baseline_restore, archive, db.path,
              repeat=DUMP_REPEAT)
    else:
        path = timed(results, 'dump', db.dump, launcher.dumps,
                     repeat=DUMP_REPEAT)
        results['dump MB'] = round(os.path.getsize(path) / 2 ** 20, 2)
        timed(results, 'restore', db.restore, launcher.dumps,
              repeat=DUMP_REPEAT)
    if 'dump' in results and 'restore' in results:
        results['dump+restore'] = round(results['dump'] +
                                        results['restore'], 3)

    if 'relaunch' in skip:
        return results
    largest = max(sizes)
    relaunch = make_launcher(config, heat_dir)
    if config == 'baseline':
        # TripleO untarred the dump, loaded it, then ran db_sync and heat.
        relaunch._start_empty = lambda: None

        def start():
            baseline_restore(archive, db.path)
            relaunch.start()
    else:
        def start():
            relaunch.start(restore_db=True)
    timed(results, 'launch --restore-db', start)
    try:
        client = heat_client.make_client(relaunch.session(),
                                         relaunch.endpoint)
        stack = client.stacks.get('rg-%d' % largest)

        def delete():
            client.stacks.delete(stack.id)
            end = time.monotonic() + 1800
            while time.monotonic() < end:
                status = client.stacks.get(stack.id).stack_status
                if status != 'DELETE_IN_PROGRESS':
                    return status
                time.sleep(0.25)
        timed(results, 'delete %d' % largest, delete)
    finally:
        relaunch.stop(dump=False)
    return results


THT_CASE = 'THT 1+1 create'


def tht_available():
    return os.path.isfile(os.path.join(
        tht_deploy.THT_CACHE, '%s-%s' % (tht_deploy.THT_NAME,
                                         tht_deploy.THT_VERSION),
        'overcloud.j2.yaml'))


def bench_tht(config, workdir):
    """The THT overcloud create, by tools/tht_deploy.py in a child."""
    argv = [sys.executable, tht_deploy.__file__, '--work-dir',
            os.path.join(workdir, 'tht-' + config),
            '--heat-api-port', str(readiness.free_port())]
    heat_type = config
    if config == 'baseline':
        argv.append('--stock')
        heat_type = 'native'
    elif config in VARIANTS:
        heat_type, overrides = VARIANTS[config]
        for section, values in overrides.items():
            for option, value in values.items():
                argv += ['--heat-config-override',
                         '%s.%s=%s' % (section, option, value)]
    argv += ['--heat-type', heat_type]
    print('== %s: %s' % (config, THT_CASE), flush=True)
    out = subprocess.run(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True).stdout
    found = re.search(r'^stack: +CREATE_COMPLETE in ([\d.]+)s', out, re.M)
    if not found:
        print(out[-3000:], flush=True)
        raise RuntimeError('%s: the THT create did not complete' % config)
    print('   %s: %ss' % (THT_CASE, found.group(1)), flush=True)
    return float(found.group(1))


def available_types(requested):
    types = []
    for t in requested:
        if t == 'native':
            types.append(t)
        elif t in heat_launcher.heat_types():
            types.append(t)
        else:
            print('skipping %s: not available in this build' % t)
    return types


def table(all_results, configs):
    keys = []
    for config in configs:
        for k in all_results.get(config, {}):
            if k not in keys:
                keys.append(k)
    ours = [c for c in configs if c != 'baseline']
    head = ['case', 'baseline'] + ours + ['baseline/%s' % c for c in ours]
    rows = [head]
    for k in keys:
        base_v = all_results.get('baseline', {}).get(k)
        row = [k, _fmt(base_v)]
        row += [_fmt(all_results.get(c, {}).get(k)) for c in ours]
        for c in ours:
            v = all_results.get(c, {}).get(k)
            row.append('%.2fx' % (base_v / v) if base_v and v else '')
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for i, r in enumerate(rows):
        lines.append('| ' + ' | '.join(c.ljust(w) for c, w in
                                       zip(r, widths)) + ' |')
        if i == 0:
            lines.append('|' + '|'.join('-' * (w + 2) for w in widths) + '|')
    return '\n'.join(lines)


def _fmt(v):
    return '' if v is None else ('%g' % v)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--types', default='native,container,pod',
                        help='heat types to compare with the baseline')
    parser.add_argument('--sizes', default='1,10,50,200')
    parser.add_argument('--update', default='50:60',
                        help='grow the group of this size to that size')
    parser.add_argument('--no-baseline', action='store_true')
    parser.add_argument(
        '--variant', action='append', default=[],
        metavar='NAME=TYPE:SECTION.OPTION=VALUE,...',
        help='also run TYPE with these heat.conf overrides, e.g. '
             'nodelay=native:ephemeral_heat.leaf_trigger_delay=0')
    parser.add_argument('--skip-cases', default='',
                        help='comma list: update,dump,relaunch')
    parser.add_argument('--tht', choices=('auto', 'yes', 'no'),
                        default='auto',
                        help='the THT overcloud case: auto runs it when '
                             'the templates were fetched already')
    parser.add_argument('--out', default='bench-results',
                        help='directory for the JSON results')
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(',')]
    update = tuple(int(x) for x in args.update.split(':')) \
        if args.update else None
    configs = ([] if args.no_baseline else ['baseline']) + available_types(
        [t for t in args.types.split(',') if t]) + [
        parse_variant(v) for v in args.variant]
    workdir = tempfile.mkdtemp(prefix='tripleo-ephemeral-bench-')
    all_results = {}
    with_tht = args.tht == 'yes' or (args.tht == 'auto' and tht_available())
    try:
        for config in configs:
            try:
                all_results[config] = bench_config(
                    config, sizes, update, workdir,
                    skip=set(args.skip_cases.split(',')))
            except Exception as exc:  # report and go on with the others
                print('!! %s failed: %s' % (config, exc), flush=True)
                all_results.setdefault(config, {})['error'] = str(exc)
            if not with_tht:
                continue
            try:
                all_results[config][THT_CASE] = bench_tht(config, workdir)
            except Exception as exc:
                print('!! %s THT failed: %s' % (config, exc), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    print(table({c: {k: v for k, v in r.items() if k != 'error'}
                 for c, r in all_results.items()}, configs))
    os.makedirs(args.out, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y%m%dT%H%M%SZ')
    path = os.path.join(args.out, 'bench-%s.json' % stamp)
    with open(path, 'w') as f:
        json.dump({'when': stamp, 'cpus': os.cpu_count(), 'sizes': sizes,
                   'results': all_results}, f, indent=2)
    print('\nresults: %s' % path)


if __name__ == '__main__':
    main()
