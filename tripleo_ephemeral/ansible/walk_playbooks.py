"""Walk playbooks with ansible-core's own loader; print what they lack.

Run by :mod:`.missing` with the Python of the Ansible that runs the
playbooks (TripleO's Ansible venv, or the product's own) and the same
environment, so modules, actions and roles resolve exactly as they will in
the run. Standard library and ansible-core only: this file is not imported
by the product.

    python walk_playbooks.py [--vars FILE]... PLAYBOOK... > report.json

It follows plays, ``import_playbook``, ``roles:``, blocks, ``include_tasks``
/ ``import_tasks`` (a templated path is matched as a glob: ``{{
playbook_dir }}`` is the playbook's directory, any other expression any
name) and ``include_role`` / ``import_role`` with a literal name (their
``tasks_from`` file and what it includes). ``--syntax-check`` does not
follow the dynamic includes; this does. A use behind a ``when`` that is
false with the ``--vars`` files' variables (config-download's
``global_vars.yaml``: ``enable_internal_tls: false``) is not counted as
missing; one whose conditions cannot be told yet is. The report (JSON on
stdout):
``playbooks`` (per playbook: plays, task files, tasks), ``missing`` (each
module or role not found, with the tasks that use it) and ``errors`` (files
that do not load).
"""

import glob
import json
import os
import re
import sys

from ansible.errors import AnsibleError
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.mod_args import ModuleArgsParser
from ansible.playbook.role.definition import RoleDefinition
from ansible.template import Templar

try:  # ansible-core 2.15 and later initialise the loaders on demand
    from ansible.plugins.loader import init_plugin_loader
except ImportError:  # 2.14 does at import
    init_plugin_loader = None
try:  # ansible-core 2.19 templates only what is marked trusted
    from ansible.template import trust_as_template
except ImportError:
    def trust_as_template(text):
        return text

_BLOCK_KEYS = ('block', 'rescue', 'always')
_PLAY_TASKS = ('pre_tasks', 'tasks', 'post_tasks', 'handlers')
_INCLUDE_TASKS = ('include_tasks', 'import_tasks', 'include')
_INCLUDE_ROLE = ('include_role', 'import_role')
_UNRESOLVED = re.compile(r"couldn't resolve module/action '([^']+)'")
_EXPR = re.compile(r'{{.*?}}')
_VAR = re.compile(r'{{\s*(\w+)\s*}}')
_YAML = ('.yaml', '.yml')


class Walk:
    """One playbook's walk; ``report`` collects across playbooks."""

    def __init__(self, report, playbook, variables=None):
        self.report = report
        self.variables = dict(variables or {})
        self.playbook_dir = os.path.dirname(os.path.abspath(playbook))
        self.loader = DataLoader()
        self.loader.set_basedir(self.playbook_dir)
        self.seen = set()
        self.files = set()
        self.counts = {'plays': 0, 'files': 0, 'tasks': 0}

    def load(self, path):
        try:
            return self.loader.load_from_file(path)
        except AnsibleError as exc:
            error = {'file': path, 'message': _one_line(exc)}
            if error not in self.report['errors']:
                self.report['errors'].append(error)
            return None

    def playbook(self, path):
        if (path, ()) in self.seen:
            return
        self.seen.add((path, ()))
        data = self.load(path)
        for play in data if isinstance(data, list) else ():
            if not isinstance(play, dict):
                continue
            if 'import_playbook' in play:
                target = self._resolve(play['import_playbook'],
                                       [os.path.dirname(path)])
                for found in target:
                    self.playbook(found)
                continue
            self.counts['plays'] += 1
            collections = play.get('collections')
            for role in play.get('roles') or ():
                name = role.get('role', role.get('name')) \
                    if isinstance(role, dict) else role
                self.role(name, 'main', path, '<roles of play "%s">' % (
                    play.get('name') or play.get('hosts')), ())
            for key in _PLAY_TASKS:
                self.tasks(play.get(key), path, [os.path.dirname(path)],
                           collections, ())

    def task_file(self, path, bases, collections=None, when=()):
        if (path, when) in self.seen:
            return
        self.seen.add((path, when))
        data = self.load(path)
        if not isinstance(data, list) or any(
                isinstance(t, dict) and ('hosts' in t or
                                         'import_playbook' in t)
                for t in data):
            return  # not a task list (a playbook, vars, an inventory)
        # A file included under other conditions is walked again (what it
        # lacks may matter there) but counted once.
        first = path not in self.files
        if first:
            self.files.add(path)
            self.counts['files'] += 1
        self.tasks(data, path, [os.path.dirname(path)] + bases, collections,
                   when, count=first)

    def tasks(self, tasks, path, bases, collections, when, count=True):
        for task in tasks if isinstance(tasks, list) else ():
            if not isinstance(task, dict):
                continue
            conditions = when + _conditions(task)
            if any(k in task for k in _BLOCK_KEYS):
                for key in _BLOCK_KEYS:
                    self.tasks(task.get(key), path, bases, collections,
                               conditions, count)
                continue
            self.counts['tasks'] += count
            where = '%s: "%s"' % (os.path.relpath(path, self.playbook_dir)
                                  if path.startswith(self.playbook_dir)
                                  else path, task.get('name') or '(unnamed)')
            try:
                action, args, _ = ModuleArgsParser(
                    task, collection_list=collections).parse()
            except AnsibleError as exc:
                found = _UNRESOLVED.search(str(exc))
                if found:
                    self.missing('module', found.group(1), where,
                                 conditions)
                else:
                    self.report['errors'].append({
                        'file': path, 'message': '%s: %s' % (
                            where, _one_line(exc))})
                continue
            short = action.rsplit('.', 1)[-1]
            if short in _INCLUDE_TASKS:
                target = args.get('_raw_params') or args.get('file')
                for found in self._resolve(target, bases, task.get('vars')):
                    self.task_file(found, bases, collections, conditions)
            elif short in _INCLUDE_ROLE:
                self.role(args.get('name'), args.get('tasks_from') or 'main',
                          path, where, conditions)

    def role(self, name, tasks_from, path, where, when):
        if not isinstance(name, str) or '{{' in name or '{{' in tasks_from:
            return  # templated: known only at run time
        definition = RoleDefinition(loader=self.loader)
        definition._ds = name  # what its not-found error points at
        try:
            _, role_path = definition._load_role_path(name)
        except AnsibleError:
            self.missing('role', name, where, when)
            return
        tasks_dir = os.path.join(role_path, 'tasks')
        for suffix in ('', '.yml', '.yaml'):
            candidate = os.path.join(tasks_dir, tasks_from + suffix)
            if os.path.isfile(candidate):
                self.task_file(candidate, [tasks_dir, role_path], None, when)
                return

    def _resolve(self, target, bases, variables=None):
        if not isinstance(target, str):
            return []
        variables = dict(variables if isinstance(variables, dict) else {},
                         playbook_dir=self.playbook_dir)
        for _ in range(3):  # a task's own vars may name other vars
            target = _VAR.sub(lambda m: str(variables.get(
                m.group(1), m.group(0))), target)
        pattern = _EXPR.sub('*', target)
        for base in ([''] if os.path.isabs(pattern) else bases):
            found = sorted(p for p in glob.glob(os.path.join(base, pattern))
                           if os.path.isfile(p) and p.endswith(_YAML))
            if found:
                return found
        return []

    def missing(self, kind, name, where, when):
        if any(self._false(condition) for condition in when):
            self.report['skipped'] += 1
            return
        entry = self.report['missing'].setdefault(
            '%s %s' % (kind, name), {'kind': kind, 'name': name, 'uses': []})
        if where not in entry['uses']:
            entry['uses'].append(where)

    def _false(self, condition):
        """Whether ``condition`` is false with the known variables (an
        undefined variable or any other error: not known to be false)."""
        if not isinstance(condition, str):
            return condition is False
        if '{{' in condition:
            return False  # a template of templates: known at run time only
        templar = Templar(loader=self.loader, variables=self.variables)
        try:
            return str(templar.template(trust_as_template(
                '{%% if %s %%}True{%% else %%}False{%% endif %%}' %
                condition))).strip() == 'False'
        except Exception:  # noqa: B902 - any failure means "not known"
            return False


def _conditions(task):
    when = task.get('when')
    if when is None:
        return ()
    return tuple(when) if isinstance(when, list) else (when,)


def _one_line(exc):
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def main(argv):
    if init_plugin_loader is not None:
        init_plugin_loader()
    variables, playbooks = {}, []
    while argv:
        arg = argv.pop(0)
        if arg == '--vars':
            data = DataLoader().load_from_file(argv.pop(0))
            variables.update(data if isinstance(data, dict) else {})
        else:
            playbooks.append(arg)
    report = {'playbooks': {}, 'missing': {}, 'errors': [], 'skipped': 0}
    for playbook in playbooks:
        walk = Walk(report, os.path.abspath(playbook), variables)
        walk.playbook(os.path.abspath(playbook))
        report['playbooks'][playbook] = walk.counts
    report['missing'] = sorted(report['missing'].values(),
                               key=lambda m: (m['kind'], m['name']))
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
