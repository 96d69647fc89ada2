#!/usr/bin/env python3
"""Check that tripleo_ephemeral's imports point down its layers.

    python3 tools/check_layers.py          # problems only; exit 1 if any
    python3 tools/check_layers.py --graph  # also the layers and every unit's
                                           # imports

It reads the imports of every module (tests left out) without importing
anything, and reports an import cycle between modules, a cycle between
units, an import of a unit from a lower layer, and a unit with no layer. A
unit is a package or a top-level module (``process``, ``progress``, ...):
every one has its place in :data:`LAYERS` (top first; units of one layer may
import each other without a cycle). It also checks that the unit tests
mirror the code: every directory of ``tests/unit`` is named after a
package, every ``tests/unit/test_<name>.py`` after a top-level module;
and that only the commands' layer (the first of :data:`LAYERS`) imports
the command-line libraries (:data:`CLI_LIBRARIES`: cliff, osc-lib): the
library returns values, the commands choose what they print.
``python3 tools/dev.py lint`` runs it.
"""

import argparse
import ast
import collections
import os
import sys

PACKAGE = 'tripleo_ephemeral'
#: Top first; a unit may import only its own layer and those below.
LAYERS = (
    # The openstackclient commands.
    ('commands', 'plugin', 'os_cloud'),
    # What works on a deployed overcloud; its deployed servers' agent;
    # adopting one; leaving for RHOSO.
    ('lifecycle', 'deployed_server_agent', 'tripleoclient_adoption',
     'rhoso'),
    # The deploy pipeline.
    ('deploy',),
    # Running Ansible; archiving a work dir.
    ('ansible', 'archives'),
    # Starting Heat; config-download's versions.
    ('heat_launcher', 'history'),
    # The work dir, the process Heat runs as, its image, clouds.yaml, the
    # installed tripleo-heat-templates.
    ('workdir', 'runner', 'images', 'clouds', 'tht'),
    # The Heat database.
    ('heat_db',),
    # Pure functions over templates, environments and stack outputs.
    ('overcloud',),
    # The guarded engine shims (loaded in the Heat runner).
    ('engine_tuning',),
    # Shared by every layer.
    ('interruption', 'locking', 'process', 'lap_clock', '_i18n',
     'redaction', 'usercache'),
    ('progress', 'fileutil', 'exceptions', 'compressor_thread',
     'secret_forms'),
)
LEVEL = {name: len(LAYERS) - i for i, names in enumerate(LAYERS)
         for name in names}
#: Imported by the commands' layer only.
CLI_LIBRARIES = ('cliff', 'osc_lib')


def module_files(root):
    for top, dirs, files in os.walk(os.path.join(root, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d not in ('tests', '__pycache__'))
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(top, name)
                rel = os.path.relpath(path, root)[:-3].replace(os.sep, '.')
                yield rel[:-len('.__init__')] if rel.endswith(
                    '.__init__') else rel, path


def imports(root, outside=None):
    """{module: set of modules it imports} within the package; the
    others' top-level names go into ``outside`` ({module: set}), when
    given."""
    known = dict(module_files(root))
    graph = {}
    for module, path in known.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        found = set()
        others = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.split('.')[0] == PACKAGE:
                for alias in node.names:
                    full = '%s.%s' % (node.module, alias.name)
                    found.add(full if full in known else node.module)
            elif isinstance(node, ast.ImportFrom) and node.module and \
                    not node.level:
                others.add(node.module.split('.')[0])
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names
                             if a.name.split('.')[0] == PACKAGE)
                others.update(a.name.split('.')[0] for a in node.names
                              if a.name.split('.')[0] != PACKAGE)
        graph[module] = found - {module}
        if outside is not None:
            outside[module] = others
    return graph


def unit(module):
    parts = module.split('.')
    return parts[1] if len(parts) > 1 else PACKAGE


def cycles(graph):
    """Strongly connected components of more than one node."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


#: Unit tests of what is not a module: the pages (test_docs.py checks that
#: doc/source cites only what exists), the Pythons setup.cfg admits
#: (test_pythons.py, beside tools/pythons.py that CI's smoke reads) and the
#: fast tier's guard (test_fast_tier.py, of tests/unit/conftest.py).
NOT_CODE = ('docs', 'pythons', 'fast_tier')


def test_layout(root, units):
    """Unit tests that do not mirror the package they test."""
    tests = os.path.join(root, PACKAGE, 'tests', 'unit')
    problems = []
    for name in sorted(os.listdir(tests)):
        path = os.path.join(tests, name)
        if os.path.isdir(path) and name != '__pycache__' and \
                name not in units:
            problems.append('tests/unit/%s/ is named after no package' % name)
        elif name.startswith('test_') and name.endswith('.py') and \
                name[len('test_'):-len('.py')] not in NOT_CODE and \
                not os.path.isfile(os.path.join(
                    root, PACKAGE, name[len('test_'):])):
            problems.append('tests/unit/%s is named after no top-level module '
                            '(a package\'s test goes in tests/unit/<package>/)'
                            % name)
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--graph', action='store_true')
    args = parser.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outside = {}
    graph = imports(root, outside)
    packages = collections.defaultdict(set)
    for a, targets in graph.items():
        for b in targets:
            if unit(a) != unit(b):
                packages[unit(a)].add(unit(b))
    problems = ['module cycle: %s' % ' <-> '.join(c) for c in cycles(graph)]
    problems += ['package cycle: %s' % ' <-> '.join(c)
                 for c in cycles(packages)]
    units = {unit(m) for m in graph} - {PACKAGE}
    problems += ['%s has no layer' % u for u in sorted(units - set(LEVEL))]
    problems += ['%s is in LAYERS but not in the code' % u
                 for u in sorted(set(LEVEL) - units)]
    for a in sorted(packages):
        for b in sorted(packages[a]):
            if a in LEVEL and b in LEVEL and LEVEL[b] > LEVEL[a]:
                problems.append('upward import: %s -> %s' % (a, b))
    problems += test_layout(root, units)
    problems += ['%s imports %s: only the commands print (return values, '
                 'the command shows them)' % (m, ', '.join(sorted(found)))
                 for m, found in sorted(outside.items())
                 for found in [outside[m] & set(CLI_LIBRARIES)]
                 if found and unit(m) not in LAYERS[0]]
    if args.graph:
        for names in LAYERS:
            for a in names:
                print('%s -> %s' % (a, ', '.join(
                    sorted(packages.get(a, ())) or ['(nothing)'])))
            print()
    for problem in problems:
        print(problem)
    print('%d modules, %d problems' % (len(graph), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
