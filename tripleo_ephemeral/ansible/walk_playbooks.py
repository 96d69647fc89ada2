"""Walk playbooks with ansible-core's own loader; print what they lack.

Run by :mod:`.missing` with the Python of the Ansible that runs the
playbooks (TripleO's Ansible venv, or the product's own) and the same
environment, so modules, actions and roles resolve exactly as they will in
the run. Standard library and ansible-core only (and ``walk_context.py``
beside it): this file is not imported by the product.

    python walk_playbooks.py [--vars FILE]... [--extra-vars JSON]
        [--inventory FILE [--limit HOSTS]] [--tags T] [--skip-tags T]
        [--which MODULE]... PLAYBOOK... > report.json

It follows plays, ``import_playbook``, ``roles:``, blocks, ``include_tasks``
/ ``import_tasks`` (a templated path is matched as a glob: ``{{
playbook_dir }}`` is the playbook's directory, a variable known above it
its value, an inventory variable of the play's hosts each of their values,
any other expression any name) and ``include_role`` / ``import_role`` with
a literal name (their ``tasks_from`` file and what it includes).
``--syntax-check`` does not follow the dynamic includes; this does.

It judges what the run will run, as ansible-playbook would: a play with no
host in the inventory under ``--limit`` is left out, a task whose tags
(its own and those it inherits; a dynamic include's own tags stay with it)
do not run under ``--tags``/``--skip-tags`` is left out, and so is a use
behind a ``when`` that is false with the variables known (the ``--vars``
files: config-download's ``global_vars.yaml``, ``enable_internal_tls:
false``; the ``vars`` of the plays, imports, blocks and tasks above it,
``step: 1``; ``--extra-vars``). A use whose conditions cannot be told yet
counts. The report (JSON on stdout): ``playbooks`` (per playbook: plays,
task files, tasks), ``missing`` (each module or role not found, with the
tasks that use it), ``errors`` (files that do not load), ``skipped`` (uses
left out), ``plays_skipped`` (names), ``which`` (where each ``--which``
module that runs is found, or null) and ``fails`` (tasks that run and
cannot but fail, with why: a task file included by name that is nowhere, a
``set_fact`` with nothing to set).
"""

import json
import os
import re
import sys

from ansible.errors import AnsibleError
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.mod_args import ModuleArgsParser
from ansible.playbook.role.definition import RoleDefinition
from ansible.plugins.loader import module_loader

from walk_context import conditions, resolve, Scope, Selection, split_tags
from walk_context import template

try:  # ansible-core 2.15 and later initialise the loaders on demand
    from ansible.plugins.loader import init_plugin_loader
except ImportError:  # 2.14 does at import
    init_plugin_loader = None

_BLOCK_KEYS = ('block', 'rescue', 'always')
_PLAY_TASKS = ('pre_tasks', 'tasks', 'post_tasks', 'handlers')
_STATIC = ('import_tasks', 'import_role')
_INCLUDE_TASKS = ('include_tasks', 'import_tasks', 'include')
_INCLUDE_ROLE = ('include_role', 'import_role')
_UNRESOLVED = re.compile(r"couldn't resolve module/action '([^']+)'")


class Walk:
    """One playbook's walk; ``report`` collects across playbooks."""

    def __init__(self, report, playbook, selection, variables=None,
                 extra=None):
        self.report = report
        self.selection = selection
        self.variables = dict(variables or {})
        self.extra = dict(extra or {})
        self.playbook_dir = os.path.dirname(os.path.abspath(playbook))
        self.loader = selection.loader
        self.loader.set_basedir(self.playbook_dir)
        self.seen = set()
        self.files = set()
        self.counts = {'plays': 0, 'files': 0, 'tasks': 0}

    def known(self, scope):
        """The variables known in ``scope`` (extra vars over all)."""
        known = dict(self.variables)
        known.update(scope.variables)
        known.update(self.extra)
        known['playbook_dir'] = self.playbook_dir
        return known

    def load(self, path):
        try:
            return self.loader.load_from_file(path)
        except AnsibleError as exc:
            error = {'file': path, 'message': _one_line(exc)}
            if error not in self.report['errors']:
                self.report['errors'].append(error)
            return None

    def playbook(self, path, scope):
        if (path, scope.key()) in self.seen:
            return
        self.seen.add((path, scope.key()))
        data = self.load(path)
        for play in data if isinstance(data, list) else ():
            if not isinstance(play, dict):
                continue
            if 'import_playbook' in play:
                inner = scope.child(variables=play.get('vars'))
                for found in self._resolve(play['import_playbook'],
                                           [os.path.dirname(path)], inner):
                    self.playbook(found, inner)
                continue
            self.play(play, path, scope)

    def play(self, play, path, scope):
        scope = scope.child(variables=play.get('vars'),
                            tags=split_tags(play.get('tags')))
        name = str(play.get('name') or play.get('hosts'))
        hosts = self.selection.play_hosts(play.get('hosts'),
                                          self.known(scope))
        if hosts == []:
            self.report['plays_skipped'].append('%s (hosts: %s)' % (
                name, play.get('hosts')))
            return
        if hosts:
            scope = scope.child(host_values=self.selection.host_values(
                hosts))
        self.counts['plays'] += 1
        collections = play.get('collections')
        for role in play.get('roles') or ():
            entry = role if isinstance(role, dict) else {'role': role}
            self.role(entry.get('role', entry.get('name')), 'main',
                      '<roles of play "%s">' % name, scope.child(
                          when=conditions(entry),
                          variables=entry.get('vars'),
                          tags=split_tags(entry.get('tags'))))
        for key in _PLAY_TASKS:
            self.tasks(play.get(key), path, [os.path.dirname(path)],
                       collections, scope)

    def task_file(self, path, bases, collections, scope):
        if (path, scope.key()) in self.seen:
            return
        self.seen.add((path, scope.key()))
        data = self.load(path)
        if not isinstance(data, list) or any(
                isinstance(t, dict) and ('hosts' in t or
                                         'import_playbook' in t)
                for t in data):
            return  # not a task list (a playbook, vars, an inventory)
        # A file included in another scope is walked again (what it lacks
        # may matter there) but counted once.
        first = path not in self.files
        if first:
            self.files.add(path)
            self.counts['files'] += 1
        self.tasks(data, path, [os.path.dirname(path)] + bases, collections,
                   scope, count=first)

    def tasks(self, tasks, path, bases, collections, scope, count=True):
        for task in tasks if isinstance(tasks, list) else ():
            if not isinstance(task, dict):
                continue
            if any(k in task for k in _BLOCK_KEYS):
                inner = scope.child(when=conditions(task),
                                    variables=task.get('vars'),
                                    tags=split_tags(task.get('tags')))
                for key in _BLOCK_KEYS:
                    self.tasks(task.get(key), path, bases, collections,
                               inner, count)
                continue
            self.counts['tasks'] += count
            self.task(task, path, bases, collections, scope)

    def task(self, task, path, bases, collections, scope):
        where = '%s: "%s"' % (_short(path, self.playbook_dir),
                              task.get('name') or '(unnamed)')
        own = scope.child(when=conditions(task), variables=task.get('vars'),
                          tags=split_tags(task.get('tags')))
        try:
            action, args, _ = ModuleArgsParser(
                task, collection_list=collections).parse()
        except AnsibleError as exc:
            found = _UNRESOLVED.search(str(exc))
            if found:
                self.missing('module', found.group(1), where, own)
            else:
                self.report['errors'].append({
                    'file': path, 'message': '%s: %s' % (
                        where, _one_line(exc))})
            return
        short = action.rsplit('.', 1)[-1]
        if short not in _INCLUDE_TASKS + _INCLUDE_ROLE:
            self.used(action, collections, own)
            if short == 'set_fact' and not set(args) - {'cacheable'} and \
                    self.runs(own):
                # THT's Heat "if" without an else drops the key it sets.
                self.fails(where, 'sets no fact (an empty set_fact)')
            return
        # An import's tags are inherited by what it imports (each of its
        # tasks is judged); a dynamic include's apply to it alone (its
        # "apply" to what it includes), which runs only if they do.
        static = short in _STATIC
        if not (self.conditions_hold(own) if static else self.runs(own)):
            self.report['skipped'] += 1
            return
        apply = args.get('apply') if isinstance(args.get('apply'),
                                                dict) else {}
        inner = scope.child(
            when=own.when[len(scope.when):], variables=task.get('vars'),
            tags=split_tags(task.get('tags')) if static
            else split_tags(apply.get('tags')))
        if short in _INCLUDE_TASKS:
            target = args.get('_raw_params') or args.get('file')
            found = self._resolve(target, bases, own)
            if not found and isinstance(target, str) and '{{' not in target:
                self.fails(where, 'includes %s, which is not there' % target)
            for path_found in found:
                self.task_file(path_found, bases, collections, inner)
        else:
            self.role(args.get('name'), args.get('tasks_from') or 'main',
                      where, inner)

    def role(self, name, tasks_from, where, scope):
        if not isinstance(name, str) or '{{' in name or '{{' in tasks_from:
            return  # templated: known only at run time
        definition = RoleDefinition(loader=self.loader)
        definition._ds = name  # what its not-found error points at
        try:
            _, role_path = definition._load_role_path(name)
        except AnsibleError:
            self.missing('role', name, where, scope)
            return
        tasks_dir = os.path.join(role_path, 'tasks')
        for suffix in ('', '.yml', '.yaml'):
            candidate = os.path.join(tasks_dir, tasks_from + suffix)
            if os.path.isfile(candidate):
                self.task_file(candidate, [tasks_dir, role_path], None,
                               scope)
                return

    def _resolve(self, target, bases, scope):
        return resolve(target, bases + [self.playbook_dir],
                       self.known(scope), scope.host_values)

    def runs(self, scope):
        """Whether a task of ``scope`` runs: its tags, its conditions."""
        return self.selection.runs(scope.tags) and \
            self.conditions_hold(scope)

    def conditions_hold(self, scope):
        """None of the conditions of ``scope`` is known to be false."""
        return not any(self._false(c, scope) for c in scope.when)

    def used(self, action, collections, scope):
        short = action.rsplit('.', 1)[-1]
        which = self.report['which']
        if short in which and which[short] is None and self.runs(scope):
            context = module_loader.find_plugin_with_context(
                action, collection_list=collections)
            which[short] = context.plugin_resolved_path \
                if context.resolved else None

    def fails(self, where, why):
        """A task that runs and cannot but fail, and why."""
        entry = {'where': where, 'why': why}
        if entry not in self.report['fails']:
            self.report['fails'].append(entry)

    def missing(self, kind, name, where, scope):
        if not self.runs(scope):
            self.report['skipped'] += 1
            return
        entry = self.report['missing'].setdefault(
            '%s %s' % (kind, name), {'kind': kind, 'name': name, 'uses': []})
        if where not in entry['uses']:
            entry['uses'].append(where)

    def _false(self, condition, scope):
        """Whether ``condition`` is false with the known variables (an
        undefined variable or any other error: not known to be false)."""
        if not isinstance(condition, str):
            return condition is False
        if '{{' in condition:
            return False  # a template of templates: known at run time only
        try:
            return str(template(
                self.loader, '{%% if %s %%}True{%% else %%}False{%% endif %%}'
                % condition, self.known(scope))).strip() == 'False'
        except AnsibleError:
            return False


def _short(path, playbook_dir):
    """``path`` relative to the playbooks, else from its ``roles/``."""
    if path.startswith(playbook_dir + os.sep):
        return os.path.relpath(path, playbook_dir)
    head, sep, tail = path.rpartition(os.sep + 'roles' + os.sep)
    return 'roles' + os.sep + tail if sep else path


def _one_line(exc):
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def main(argv):
    if init_plugin_loader is not None:
        init_plugin_loader()
    variables, extra, playbooks, which = {}, {}, [], []
    given = {'--inventory': None, '--limit': None, '--tags': None,
             '--skip-tags': None}
    while argv:
        arg = argv.pop(0)
        if arg == '--vars':
            data = DataLoader().load_from_file(argv.pop(0))
            variables.update(data if isinstance(data, dict) else {})
        elif arg == '--extra-vars':
            extra.update(json.loads(argv.pop(0)))
        elif arg == '--which':
            which.append(argv.pop(0))
        elif arg in given:
            given[arg] = argv.pop(0)
        else:
            playbooks.append(arg)
    selection = Selection(DataLoader(), given['--inventory'],
                          given['--limit'], given['--tags'],
                          given['--skip-tags'])
    report = {'playbooks': {}, 'missing': {}, 'errors': [], 'skipped': 0,
              'plays_skipped': [], 'which': dict.fromkeys(which),
              'fails': []}
    for playbook in playbooks:
        walk = Walk(report, os.path.abspath(playbook), selection, variables,
                    extra)
        walk.playbook(os.path.abspath(playbook), Scope())
        report['playbooks'][playbook] = walk.counts
    report['missing'] = sorted(report['missing'].values(),
                               key=lambda m: (m['kind'], m['name']))
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
