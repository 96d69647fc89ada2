"""What a walk of playbooks knows of the run it checks: hosts, tags, vars.

Imported by ``walk_playbooks.py`` only, which runs with the Python of the
Ansible of the run (standard library and ansible-core only; not imported
by the product). :class:`Selection` is the run's ``--limit``, ``--tags`` and
``--skip-tags`` over its inventory: which hosts a play has, whether a
task's tags run (ansible-core's rules, ``always`` and ``never`` included).
:class:`Scope` is what a task list inherits: conditions, variables, tags
and the values its hosts give inventory variables; :func:`resolve` finds
the files an include names with them.
"""

import glob
import itertools
import json
import os
import re

from ansible.errors import AnsibleError
from ansible.inventory.helpers import sort_groups
from ansible.inventory.manager import InventoryManager
from ansible.template import Templar
from ansible.utils.vars import combine_vars

try:  # ansible-core 2.19 templates only what is marked trusted
    from ansible.template import trust_as_template
except ImportError:
    def trust_as_template(text):
        return text

#: ansible-core's name for the tags of an untagged task.
UNTAGGED = frozenset(['untagged'])
#: Inventory variable values kept per play (for include paths).
MAX_VALUES = 20
#: Combinations of inventory values tried for one include path.
MAX_COMBINATIONS = 50
_EXPR = re.compile(r'{{.*?}}')
_VAR = re.compile(r'{{\s*(\w+)\s*}}')
_YAML = ('.yaml', '.yml')


def split_tags(value):
    """A ``--tags`` value or a ``tags:`` keyword as a list (ansible-core
    splits a string on commas)."""
    if value is None:
        return []
    if isinstance(value, (str, int)):
        return [t.strip() for t in str(value).split(',') if t.strip()]
    found = []
    for item in value if isinstance(value, list) else [value]:
        found += split_tags(item) if isinstance(item, (str, int, list)) \
            else [str(item)]
    return found


def template(loader, text, variables):
    """``text`` templated with ``variables``; AnsibleError when it cannot
    be (an undefined variable...)."""
    templar = Templar(loader=loader, variables=variables)
    try:
        return templar.template(trust_as_template(text))
    except AnsibleError:
        raise
    except Exception as exc:  # noqa: B902 - any failure is "not known"
        raise AnsibleError(str(exc))


class Selection:
    """The hosts and tags of the run: ``inventory`` (a path, or None: every
    play runs), ``limit``, ``tags`` and ``skip_tags`` as ansible-playbook
    takes them."""

    def __init__(self, loader, inventory=None, limit=None, tags=None,
                 skip_tags=None):
        self.loader = loader
        self.inventory = None
        if inventory:
            self.inventory = InventoryManager(loader=loader,
                                              sources=[inventory])
            if limit:
                self.inventory.subset(limit)
        self.only_tags = set(split_tags(tags)) or {'all'}
        self.skip_tags = set(split_tags(skip_tags))
        self._values = {}

    def play_hosts(self, pattern, variables):
        """The names of the hosts a play of ``hosts: pattern`` runs on, or
        None when that cannot be told here."""
        if self.inventory is None or pattern is None:
            return None
        if isinstance(pattern, list):
            pattern = ','.join(str(p) for p in pattern)
        try:
            pattern = template(self.loader, str(pattern), variables)
            return [h.name for h in self.inventory.get_hosts(pattern)]
        except AnsibleError:
            return None

    def host_values(self, hosts):
        """``{variable: [values]}`` the inventory gives ``hosts`` (strings
        and numbers, at most :data:`MAX_VALUES` values a variable)."""
        key = tuple(sorted(hosts or ()))
        if key not in self._values:
            self._values[key] = self._host_values(key)
        return self._values[key]

    def _host_values(self, hosts):
        values = {}
        for name in hosts or ():
            host = self.inventory.get_host(name)
            merged = {}
            for group in sort_groups(host.get_groups()):
                merged = combine_vars(merged, group.get_vars())
            merged = combine_vars(merged, host.get_vars())
            for key, value in merged.items():
                if isinstance(value, (str, int)) and not isinstance(
                        value, bool):
                    values.setdefault(key, set()).add(str(value))
        return {k: sorted(v) for k, v in values.items()
                if len(v) <= MAX_VALUES}

    def runs(self, tags):
        """Whether a task with ``tags`` (its own and inherited) runs under
        --tags/--skip-tags, as ansible-core decides; a templated tag is not
        known, and counts as running."""
        if any('{{' in str(t) for t in tags):
            return True
        tags = set(str(t) for t in tags) or UNTAGGED
        only, skip = self.only_tags, self.skip_tags
        run = ('always' in tags or
               ('all' in only and 'never' not in tags) or
               not tags.isdisjoint(only) or
               ('tagged' in only and tags != UNTAGGED and
                'never' not in tags))
        if run and skip:
            if 'all' in skip:
                run = 'always' in tags and 'always' not in skip
            elif not tags.isdisjoint(skip):
                run = False
            elif 'tagged' in skip and tags != UNTAGGED:
                run = False
        return run


class Scope:
    """What a list of tasks inherits: ``when`` (conditions), ``variables``
    (of the imports, plays, blocks and tasks above), ``tags`` and
    ``host_values`` (:meth:`Selection.host_values` of the play)."""

    def __init__(self, when=(), variables=None, tags=(), host_values=None):
        self.when = tuple(when)
        self.variables = dict(variables or {})
        self.tags = tuple(tags)
        self.host_values = dict(host_values or {})

    def child(self, when=(), variables=None, tags=(), host_values=None):
        merged = dict(self.variables)
        if isinstance(variables, dict):
            merged.update(variables)
        return Scope(self.when + tuple(when), merged, self.tags + tuple(tags),
                     self.host_values if host_values is None
                     else host_values)

    def key(self):
        return (self.when, json.dumps(self.variables, sort_keys=True,
                                      default=str),
                self.tags, json.dumps(self.host_values, sort_keys=True))


def conditions(task):
    """A task's (or block's, role's) ``when`` as a tuple."""
    when = task.get('when') if isinstance(task, dict) else None
    if when is None:
        return ()
    return tuple(when) if isinstance(when, list) else (when,)


def resolve(target, bases, variables, host_values):
    """The task files an include of ``target`` may load, looked for in
    ``bases`` in turn: ``{{ name }}`` is the value of a known variable
    (``variables``), else each value the play's hosts give it
    (``host_values``), any other expression any name (a glob)."""
    if not isinstance(target, str):
        return []
    for _ in range(3):  # a task's own vars may name other vars
        target = _VAR.sub(lambda m: str(variables[m.group(1)])
                          if isinstance(variables.get(m.group(1)), (str, int))
                          else m.group(0), target)
    found = []
    for candidate in _host_targets(target, host_values):
        pattern = _EXPR.sub('*', candidate)
        for base in [''] if os.path.isabs(pattern) else bases:
            matches = sorted(p for p in glob.glob(os.path.join(base, pattern))
                             if os.path.isfile(p) and p.endswith(_YAML))
            if matches:
                found += [m for m in matches if m not in found]
                break
    return found


def _host_targets(target, host_values):
    """``target`` with each inventory variable of the play's hosts that it
    names replaced by each of its values."""
    names = [n for n in dict.fromkeys(_VAR.findall(target))
             if n in host_values]
    combinations = list(itertools.islice(
        itertools.product(*[host_values[n] for n in names]),
        MAX_COMBINATIONS + 1))
    if not names or len(combinations) > MAX_COMBINATIONS:
        return [target]
    targets = []
    for values in combinations:
        text = target
        for name, value in zip(names, values):
            text = re.sub(r'{{\s*%s\s*}}' % name, lambda m: value, text)
        targets.append(text)
    return targets
