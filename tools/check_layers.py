#!/usr/bin/env python3
"""Check that tripleo_ephemeral's imports point down its layers.

    python3 tools/check_layers.py          # problems only; exit 1 if any
    python3 tools/check_layers.py --graph  # also every package's imports

It reads the imports of every module (tests left out) without importing
anything, and reports an import cycle between modules, a cycle between
packages, and an import of a package from a lower layer (:data:`LAYERS`,
top first; packages of one layer may import each other without a cycle).
Top-level modules (``exceptions``, ``process``, ``progress``, ...) are
shared by every layer and not checked.
"""

import argparse
import ast
import collections
import os
import sys

PACKAGE = 'tripleo_ephemeral'
#: Top first; a package may import only its own layer and those below.
LAYERS = (
    ('commands', 'plugin'),
    ('deploy', 'adoption', 'history', 'rhoso'),
    ('heat_launcher', 'tripleo_ansible', 'images'),
    ('workdir', 'runner'),
    ('heat_db',),
    ('overcloud',),
    ('engine_tuning',),
)
LEVEL = {name: len(LAYERS) - i for i, names in enumerate(LAYERS)
         for name in names}


def module_files(root):
    for top, dirs, files in os.walk(os.path.join(root, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d not in ('tests', '__pycache__'))
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(top, name)
                rel = os.path.relpath(path, root)[:-3].replace(os.sep, '.')
                yield rel[:-len('.__init__')] if rel.endswith(
                    '.__init__') else rel, path


def imports(root):
    """{module: set of modules it imports} within the package."""
    known = dict(module_files(root))
    graph = {}
    for module, path in known.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.split('.')[0] == PACKAGE:
                for alias in node.names:
                    full = '%s.%s' % (node.module, alias.name)
                    found.add(full if full in known else node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names
                             if a.name.split('.')[0] == PACKAGE)
        graph[module] = found - {module}
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--graph', action='store_true')
    args = parser.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    graph = imports(root)
    packages = collections.defaultdict(set)
    for a, targets in graph.items():
        for b in targets:
            if unit(a) != unit(b):
                packages[unit(a)].add(unit(b))
    problems = ['module cycle: %s' % ' <-> '.join(c) for c in cycles(graph)]
    problems += ['package cycle: %s' % ' <-> '.join(c)
                 for c in cycles(packages)]
    for a in sorted(packages):
        for b in sorted(packages[a]):
            if a in LEVEL and b in LEVEL and LEVEL[b] > LEVEL[a]:
                problems.append('upward import: %s -> %s' % (a, b))
            elif a in LEVEL and b not in LEVEL and b != PACKAGE and \
                    unit('%s.%s' % (PACKAGE, b)) == b and \
                    os.path.isdir(os.path.join(root, PACKAGE, b)):
                problems.append('package %s has no layer' % b)
    if args.graph:
        for a in sorted(packages):
            print('%s -> %s' % (a, ', '.join(sorted(packages[a]))))
    for problem in problems:
        print(problem)
    print('%d modules, %d problems' % (len(graph), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
