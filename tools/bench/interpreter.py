#!/usr/bin/env python3
"""The interpreter alone: the same Heat-shaped loop on each Python.

The benchmark's ``--pythons`` venvs run one THT create each; this runs,
in each of those venvs (``--venvs``, as ``bench.py --pythons-venvs``
keeps them), a single-threaded loop of what that create's profile spends
its CPU on: yaql queries over role-data-like input (a quarter of the
create), JSON round trips and marshal+blake2b digests (the yaql cache's
key) of THT's service templates, and deep copies of them. With
``--callgrind`` it counts the loop's instructions per iteration under
valgrind, which the machine's load does not change (exact and repeatable
on a shared machine), and the part of them in glibc's ``__tls_get_addr``
(what a thread-local variable of a shared libpython costs per access).
Without: CPU seconds per iteration, the best of fifteen (five turns of
three, the Pythons taken in turns).

    python3 tools/bench/interpreter.py --venvs DIR [--pythons 3.11,3.12]
        [--callgrind]

(``tools/dev.py``'s venv runs it: it finds THT there.)
"""

import argparse
import copy
import glob
import hashlib
import json
import marshal
import os
import re
import subprocess
import tempfile
import time

_EXPRESSIONS = (
    "$.data.role_data.where($.get('upgrade_tasks') != null)"
    ".select($.upgrade_tasks).flatten()",
    "dict($.data.role_data.select([$.service_name, $.config_settings]))",
    "$.data.role_data.select($.get('step_config', '')).where($ != '')"
    ".join('\\n')",
    "$.data.role_data.where($.config_settings.get('k3') = 'v3').len()",
)
#: Service templates of THT's deployment/ the loop handles.
_TEMPLATES = 60


def _inputs(templates):
    import yaml

    docs = []
    for path in sorted(glob.glob(os.path.join(templates, 'deployment', '*',
                                              '*.yaml'))):
        if not path.endswith('.j2.yaml') and len(docs) < _TEMPLATES:
            with open(path) as f:
                docs.append(yaml.load(f, Loader=yaml.CSafeLoader))
    roles = [{'service_name': 'svc%d' % i,
              'config_settings': {'k%d' % j: 'v%d' % j for j in range(20)},
              'upgrade_tasks': [{'name': 't%d' % j,
                                 'when': 'step|int == %d' % (j % 5)}
                                for j in range(6)],
              'step_config': 'include tripleo::profile::svc%d' % i}
             for i in range(40)]
    return docs, {'role_data': roles}


def loop(iterations, templates):
    """Run the loop ``iterations`` times on THT ``templates``; CPU seconds
    of each."""
    import yaql

    docs, data = _inputs(templates)
    engine = yaql.YaqlFactory().create(options={
        'yaql.limitIterators': 10000, 'yaql.memoryQuota': 100000})
    context = yaql.create_context()
    parsed = [engine(expression) for expression in _EXPRESSIONS]
    seconds = []
    for _ in range(iterations):
        started = time.process_time()
        for statement in parsed:
            statement.evaluate(data={'data': data},
                               context=context.create_child_context())
        for doc in docs:
            json.loads(json.dumps(doc))
            hashlib.blake2b(marshal.dumps(doc, 4)).digest()
        copy.deepcopy(docs)
        seconds.append(time.process_time() - started)
    return seconds


def _python(venvs, version):
    return os.path.join(venvs, 'py%s' % version, 'bin', 'python')


def _templates():
    from tripleo_ephemeral import tht
    return tht.find()


def _run_loop(python, iterations, prefix=()):
    return subprocess.run(
        list(prefix) + [python, os.path.abspath(__file__), '--loop',
                        str(iterations), '--templates', _templates()],
        check=True, capture_output=True, text=True,
        env=dict(os.environ, PYTHONWARNINGS='ignore')).stdout


def _instructions(python, iterations, out):
    """(all instructions, those in __tls_get_addr) of a run under
    callgrind."""
    _run_loop(python, iterations, ('valgrind', '--tool=callgrind',
                                   '--callgrind-out-file=' + out))
    text = subprocess.run(['callgrind_annotate', '--threshold=100', out],
                          check=True, capture_output=True, text=True).stdout
    total = int(re.search(r'([\d,]+)\s+\(100.0%\)\s+PROGRAM TOTALS',
                          text).group(1).replace(',', ''))
    tls = sum(int(m.group(1).replace(',', '')) for m in re.finditer(
        r'^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+\S*:__tls_get_addr\b', text, re.M))
    return total, tls


def compare(venvs, versions, callgrind):
    results = {}
    if callgrind:
        with tempfile.TemporaryDirectory() as tmp:
            for version in versions:
                python = _python(venvs, version)
                one = _instructions(python, 1, os.path.join(tmp, 'one'))
                four = _instructions(python, 4, os.path.join(tmp, 'four'))
                # The difference is three iterations without the imports.
                total, tls = ((b - a) / 3 for a, b in zip(one, four))
                results[version] = {'M instructions': round(total / 1e6, 1),
                                    '__tls_get_addr %': round(
                                        100 * tls / total, 1)}
                print(version, results[version], flush=True)
    else:
        best = {}
        for _ in range(5):
            for version in versions:
                out = _run_loop(_python(venvs, version), 3)
                best[version] = min([best.get(version, 1e9)] +
                                    json.loads(out))
        results = {v: {'cpu s': round(s, 3)} for v, s in best.items()}
    reference = '3.11' if '3.11' in results else versions[0]
    key = 'M instructions' if callgrind else 'cpu s'
    for version, figures in results.items():
        figures['ratio'] = round(figures[key] / results[reference][key], 2)
    print(json.dumps(results, indent=1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--loop', type=int, help=argparse.SUPPRESS)
    parser.add_argument('--templates', help=argparse.SUPPRESS)
    parser.add_argument('--venvs', help='the venvs py3.X of bench.py '
                                        '--pythons-venvs')
    parser.add_argument('--pythons', default='3.10,3.11,3.12,3.13')
    parser.add_argument('--callgrind', action='store_true',
                        help='count instructions under valgrind (minutes)')
    args = parser.parse_args()
    if args.loop:
        print(json.dumps(loop(args.loop, args.templates)))
    elif args.venvs:
        versions = [v for v in args.pythons.split(',') if v]
        compare(args.venvs, versions, args.callgrind)
    else:
        parser.error('--venvs is needed')


if __name__ == '__main__':
    main()
