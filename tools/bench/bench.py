#!/usr/bin/env python3
"""Benchmark TripleO's native Heat configuration against this project's.

One run, one machine, the same templates for every configuration
(heats.py): ``baseline`` (Heat as TripleO's native launcher ran it),
``baseline-pod`` when ``--baselines`` names it (TripleO's pod launcher's
settings for scale) and this project's ``native``, ``container`` and
``pod`` with their tuned defaults (those available here), plus any
``--variant``.

Cases, each selectable with ``--cases``:

* ``launch``: launch to ready, then, on that Heat (group_cases.py),
  ``light``: a ResourceGroup of light nodes at each ``--sizes`` (and the
  update of one size to another), ``realistic``: a group of realistic
  overcloud nodes at each ``--realistic-sizes``; each create's wall time,
  Heat CPU seconds and CPU ms per resource;
* ``dump``: dump and restore of the resulting database; ``relaunch``:
  launch with --restore-db, then delete of the largest light group;
* ``tht``: tripleo-heat-templates 18.0.0 overclouds deployed with
  ``openstack overcloud deploy --stack-only`` as a user does
  (tht_cases.py: ``--tht-cases``, default 1+1, 3+3, 3+10 and six roles;
  3+50, 3+150 and 3+500 when named, the baselines only up to
  ``--baseline-max-nodes``); wall time, Heat CPU, CPU ms per resource,
  peak RSS;
* ``preview``: after ``THT 1+1``, Heat's ``stack preview`` of the request
  that stack was created with against its create again, in Heat CPU
  seconds (preview_case.py; native heat types).

``--pythons 3.10,3.11,3.12,3.13`` adds a configuration ``py3.X`` per
Python, each in a venv of its own (pythons_case.py): native Heat with the
tuned defaults, run by that Python; they run the ``tht`` cases, and a
second table compares them with the first of them (or ``py3.11``).

Prints a table with baseline/ours ratios (a case that failed or was
stopped shows so, in the table and the JSON) and writes the numbers as JSON
(``--out``); ``plot.py`` draws them.

    python3 tools/dev.py bench [--types native,pod] [--cases light,tht]
"""

import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import group_cases  # noqa: E402
import heats  # noqa: E402
import preview_case  # noqa: E402
import pythons_case  # noqa: E402
import report  # noqa: E402
import tht_cases  # noqa: E402
import timing  # noqa: E402

CASES = ('light', 'realistic', 'dump', 'relaunch', 'tht', 'preview')


def _sizes(text):
    return [int(s) for s in text.split(',') if s]


def bench_config(config, args, workdir):
    """Every selected case of one configuration; never raises."""
    results = {}
    if config in heats.PYTHONS:  # another Python: its own openstack
        args = argparse.Namespace(**dict(vars(args), cases=args.cases & {
            'tht'}))
    kinds = [(kind, sizes) for kind, sizes, case in (
        ('create', args.sizes, 'light'),
        ('realistic', args.realistic_sizes, 'realistic'))
        if case in args.cases and sizes]
    try:
        if kinds or {'dump', 'relaunch'} & args.cases:
            launcher = group_cases.run(results, config, workdir, kinds,
                                       grow=args.update)
            archive = None
            if 'dump' in args.cases or 'relaunch' in args.cases:
                archive = group_cases.dumps(results, config, launcher,
                                            timing.DUMP_REPEAT)
            if 'relaunch' in args.cases and args.sizes and kinds:
                group_cases.relaunch_and_delete(
                    results, config, launcher, max(args.sizes), archive)
    except Exception as exc:  # report it and go on with the others
        print('!! %s failed: %s' % (config, exc), flush=True)
        results['error'] = str(exc)
    if 'tht' in args.cases:
        for case in args.tht_cases:
            if (config in heats.BASELINES and
                    tht_cases.NODES[case] > args.baseline_max_nodes):
                results['error %s' % case] = 'not run (--baseline-max-nodes)'
                continue
            try:
                results.update(tht_cases.run(config, case, workdir,
                                             args.tht_timeout))
            except Exception as exc:
                print('!! %s %s failed: %s' % (config, case, exc),
                      flush=True)
                results['error %s' % case] = str(exc)
    if 'preview' in args.cases and preview_case.CASE in args.tht_cases:
        try:
            results.update(preview_case.run(config, workdir))
        except Exception as exc:
            print('!! %s preview failed: %s' % (config, exc), flush=True)
            results['error preview'] = str(exc)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--types', default='native,container,pod',
                        help='heat types to compare with the baseline')
    parser.add_argument('--no-baseline', action='store_true',
                        help='run none of --baselines')
    parser.add_argument(
        '--baselines', default='baseline',
        help='comma list of TripleO\'s configurations to compare with: '
             'baseline (its native launcher: SQLite, one heat-all), '
             'baseline-pod (its pod launcher for scale: MariaDB, '
             'RabbitMQ, half the CPUs as engines)')
    parser.add_argument(
        '--variant', action='append', default=[],
        metavar='NAME=TYPE:SECTION.OPTION=VALUE,...',
        help='also run TYPE with these heat.conf overrides, e.g. '
             'nodelay=native:ephemeral_heat.leaf_trigger_delay=0 '
             '(engine_workers=N: a pod\'s engine count)')
    parser.add_argument('--cases', default=','.join(CASES),
                        help='comma list of: %s' % ', '.join(CASES))
    parser.add_argument('--sizes', default='1,10,50,200', type=_sizes,
                        help='members of the light groups')
    parser.add_argument('--realistic-sizes', default='10,50,200',
                        type=_sizes, help='members of the realistic groups')
    parser.add_argument('--update', default='50:60',
                        help='grow the light group of this size to that '
                             'size (empty: no update)')
    parser.add_argument('--tht-cases', default=','.join(tht_cases.CASES),
                        help='comma list of: %s' % ', '.join(
                            tht_cases.ALL_CASES))
    parser.add_argument('--tht-timeout', type=float, default=1800,
                        help='seconds after which a THT deploy is stopped '
                             'and recorded as failed (the baseline hangs '
                             'on 3+50: its 64 threads all wait on nested '
                             'stacks)')
    parser.add_argument('--baseline-max-nodes', type=int, default=153,
                        help='the baselines run THT cases of at most this '
                             'many nodes (3+500 would take an hour)')
    parser.add_argument('--out', default='bench-results',
                        help='directory for the JSON results')
    parser.add_argument('--pythons', type=pythons_case.pythons.parse,
                        default=[], metavar='3.10,3.11,...',
                        help='also run the tht cases on each of these '
                             'Pythons, each in a venv of its own (see '
                             'pythons_case.py)')
    parser.add_argument('--pythons-plain', action='store_true',
                        help='install those venvs as a plain pip install '
                             'does (default: against the project\'s '
                             'constraints, so only the Python differs)')
    parser.add_argument('--rounds', type=int, default=1,
                        help='run every configuration this many times, in '
                             'turns (A B C, A B C, ...), and report the '
                             'median of each figure; the rounds are kept '
                             'in the JSON (default: 1)')
    parser.add_argument('--pythons-venvs', metavar='DIR',
                        help='keep the venvs of --pythons here and reuse '
                             'them (default: made fresh in the run\'s work '
                             'dir)')
    args = parser.parse_args()
    args.cases = set(c for c in args.cases.split(',') if c)
    unknown = args.cases - set(CASES)
    if unknown:
        parser.error('unknown case(s) %s' % ', '.join(sorted(unknown)))
    args.update = (tuple(int(x) for x in args.update.split(':'))
                   if args.update else None)
    args.tht_cases = [c.strip() for c in args.tht_cases.split(',')
                      if c.strip()]
    unknown = set(args.tht_cases) - set(tht_cases.ALL_CASES)
    if unknown:
        parser.error('unknown THT case(s) %s' % ', '.join(sorted(unknown)))
    baselines = [] if args.no_baseline else [
        b for b in args.baselines.split(',') if b]
    unknown = set(baselines) - set(heats.BASELINES)
    if unknown:
        parser.error('unknown baseline(s) %s' % ', '.join(sorted(unknown)))
    configs = baselines + heats.available(
        [t for t in args.types.split(',') if t]) + [
        heats.parse_variant(v) for v in args.variant]
    workdir = tempfile.mkdtemp(prefix='tripleo-ephemeral-bench-')
    rounds = []
    python_configs, described = [], {}
    try:
        if args.pythons:
            described = pythons_case.prepare(
                args.pythons, args.pythons_venvs or workdir,
                plain=args.pythons_plain)
            python_configs = list(described)
        for _ in range(max(args.rounds, 1)):
            rounds.append({config: bench_config(config, args, workdir)
                           for config in configs + python_configs})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    all_results = report.medians(rounds)
    print()
    print(report.table(all_results, configs, baselines))
    if python_configs:
        reference = ('py3.11' if 'py3.11' in python_configs else
                     python_configs[0])
        print()
        print(report.table(all_results, python_configs, [reference]))
    path = report.write_json(
        args.out, sizes=args.sizes, realistic_sizes=args.realistic_sizes,
        tht_nodes={c: tht_cases.NODES[c] for c in args.tht_cases},
        results=all_results, pythons=described,
        rounds=rounds if len(rounds) > 1 else None)
    print('\nresults: %s' % path)


if __name__ == '__main__':
    main()
