#!/usr/bin/env python3
"""Check that tripleo_ephemeral reads YAML and renders Jinja2 one way.

    python3 tools/check_readers.py     # problems only; exit 1 if any

Nothing the product reads back may run code or go unchecked, so in the
package's modules (tests left out), read without importing anything:

* YAML is loaded by the one YAML reader only
  (``tripleo_ephemeral/overcloud/yamlfile.py`` and its limits,
  ``yaml_limits.py``: a safe loader, size, nesting and alias limits, a
  key given twice refused): any other ``yaml.load``, ``yaml.safe_load``,
  ``yaml.full_load``, ``yaml.unsafe_load`` (or their ``_all``), or a
  ``from yaml import`` of one, is a problem;
* a Jinja2 environment for input the product did not write is sandboxed
  (``jinja2.sandbox.SandboxedEnvironment``): ``jinja2.Environment``,
  ``jinja2.Template`` or ``Environment.from_string`` are allowed only with
  a ``loader=jinja2.PackageLoader(...)`` (templates shipped in an
  installed package: the product's own, or tripleo-common's).

``python3 tools/dev.py lint`` runs it.
"""

import ast
import os
import sys

PACKAGE = 'tripleo_ephemeral'
#: The one YAML reader.
YAML_READER = ('tripleo_ephemeral/overcloud/yamlfile.py',
               'tripleo_ephemeral/overcloud/yaml_limits.py')
YAML_LOADS = frozenset(
    name + suffix for name in ('load', 'safe_load', 'full_load',
                               'unsafe_load') for suffix in ('', '_all'))


def module_files(root):
    for top, dirs, files in os.walk(os.path.join(root, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d not in ('tests', '__pycache__'))
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(top, name)
                yield os.path.relpath(path, root).replace(os.sep, '/'), path


def _dotted(node):
    """``a.b.c`` of a Name/Attribute chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return '.'.join(reversed(parts))
    return None


def _package_loader(call):
    for keyword in call.keywords:
        if keyword.arg == 'loader' and isinstance(keyword.value, ast.Call):
            name = _dotted(keyword.value.func) or ''
            if name.split('.')[-1] == 'PackageLoader':
                return True
    return False


def problems(rel, tree):
    """``[(line, what)]`` of one module."""
    found = []
    jinja_names = {'jinja2.Environment', 'jinja2.Template',
                   'jinja2.environment.Environment',
                   'jinja2.environment.Template'}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == 'yaml':
            found += [(node.lineno, 'from yaml import %s' % a.name)
                      for a in node.names if a.name in YAML_LOADS]
        if isinstance(node, ast.ImportFrom) and node.module in (
                'jinja2', 'jinja2.environment'):
            jinja_names.update(a.asname or a.name for a in node.names
                               if a.name in ('Environment', 'Template'))
    for node in ast.walk(tree):
        name = _dotted(node) if isinstance(node, ast.Attribute) else None
        if name and name.startswith('yaml.') and \
                name.split('.', 1)[1] in YAML_LOADS and \
                rel not in YAML_READER:
            found.append((node.lineno, name))
        if isinstance(node, ast.Call):
            called = _dotted(node.func) or ''
            if called in jinja_names and not _package_loader(node):
                found.append((node.lineno, 'jinja2.Template'
                              if called.endswith('Template') else
                              'jinja2.Environment'))
    return sorted(set(found))


def main(root):
    failed = 0
    for rel, path in module_files(root):
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for line, what in problems(rel, tree):
            failed += 1
            hint = ('read YAML with tripleo_ephemeral.overcloud.yamlfile'
                    if what.startswith(('yaml', 'from yaml')) else
                    'render input with jinja2.sandbox.SandboxedEnvironment '
                    '(an Environment only with a PackageLoader of shipped '
                    'templates)')
            print('%s:%d: %s: %s' % (rel, line, what, hint))
    print('%d problem(s)' % failed if failed else
          'YAML and Jinja2 readers: 0 problems')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__)))))
