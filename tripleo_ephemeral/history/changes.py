"""What changed between two versions of config-download, per role and
per host, with the noise (:mod:`.noise`) told apart.

A file's place says whom it reaches: ``<Role>/...`` and
``group_vars/<Role>`` the hosts of that role, ``<Role>/<host>/...`` and
``host_vars/<host>`` that host (the directory of a role without nodes
none), anything else every host. The roles and hosts come from the
rendered inventory of both versions.
"""

import difflib
import os

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import git as git_mod
from tripleo_ephemeral.history import noise as noise_mod
from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral.overcloud import yamlfile

MODIFIED, ADDED, REMOVED = 'modified', 'added', 'removed'
_STATUS = {'M': MODIFIED, 'A': ADDED, 'D': REMOVED, 'T': MODIFIED}


class FileChange:
    """One file: its ``path``, ``change``, ``role`` and ``hosts`` reached,
    real lines ``added``/``removed``, ``noise`` lines and ``diff``."""

    def __init__(self, path, change, role, hosts, comparison, diff):
        self.path = path
        self.change = change
        self.role = role
        self.hosts = hosts
        self.added = comparison.added
        self.removed = comparison.removed
        self.noise = comparison.noise
        self.real = comparison.real or change != MODIFIED
        self.diff = diff


class Diff:
    """The changes from version ``old`` to ``new`` (shas; ``old`` None
    for "nothing yet")."""

    def __init__(self, old, new, files, parameters, noise_parameters,
                 hosts_added, hosts_removed):
        self.old = old
        self.new = new
        self.files = [f for f in files if f.real]
        self.noise_files = [f for f in files if not f.real]
        self.parameters = parameters
        self.noise_parameters = noise_parameters
        self.hosts_added = hosts_added
        self.hosts_removed = hosts_removed

    @property
    def noise_lines(self):
        return sum(f.noise for f in self.files + self.noise_files)

    @property
    def hosts(self):
        """The hosts a real file change reaches."""
        return sorted({h for f in self.files for h in f.hosts})

    def __bool__(self):
        return bool(self.files or self.parameters or self.hosts_added or
                    self.hosts_removed)

    def noise_text(self):
        return '%d noise line(s) in %d file(s), %d parameter(s)' % (
            self.noise_lines,
            len(self.noise_files) + sum(1 for f in self.files if f.noise),
            len(self.noise_parameters))

    def summary(self):
        """One line: what applying ``new`` over ``old`` would change."""
        if not self:
            return 'no changes (%s hidden)' % self.noise_text()
        parts = ['%d file(s) on %d host(s) (%s)' % (
            len(self.files), len(self.hosts), ', '.join(self.hosts) or
            'none')]
        if self.parameters:
            parts.append('%d parameter(s) (%s)' % (
                len(self.parameters),
                ', '.join(p[0] for p in self.parameters[:5]) +
                (', ...' if len(self.parameters) > 5 else '')))
        for what, hosts in (('added', self.hosts_added),
                            ('removed', self.hosts_removed)):
            if hosts:
                parts.append('host(s) %s: %s' % (what, ', '.join(hosts)))
        return '%s; %s hidden' % ('; '.join(parts), self.noise_text())


def _inventory_roles(data):
    """``{role: [host]}`` of a rendered inventory."""
    roles = {}
    for group, body in (data or {}).items():
        hosts = body.get('hosts') if isinstance(body, dict) else None
        if not isinstance(hosts, dict):
            continue
        role = (body.get('vars') or {}).get('tripleo_role_name')
        if role:
            roles.setdefault(role, set()).update(hosts)
    return {r: sorted(h) for r, h in roles.items()}


#: The directories of config-download that are not a role's: every other
#: directory is one (config-download makes one for every role of the roles
#: data, those with no nodes too).
NOT_ROLE_DIRS = ('group_vars', 'host_vars', 'inventory', 'templates')


class _Scope:
    """Whom a path reaches, from the roles of both versions."""

    def __init__(self, *role_maps):
        self.roles = {}
        for role_map in role_maps:
            for role, hosts in role_map.items():
                self.roles.setdefault(role, set()).update(hosts)
        self.host_role = {h: r for r, hosts in self.roles.items()
                          for h in hosts}

    def of(self, path):
        parts = path.split('/')
        if parts[0] in ('group_vars', 'host_vars') and len(parts) > 1:
            if parts[0] == 'group_vars':
                return parts[1], sorted(self.roles.get(parts[1], ()))
            return self.host_role.get(parts[1], ''), [parts[1]]
        if len(parts) > 1 and parts[0] not in NOT_ROLE_DIRS:
            # A role's directory, of a role with hosts or without (a role
            # of the roles data with no nodes reaches no host).
            if len(parts) > 2 and parts[1] in self.host_role:
                return parts[0], [parts[1]]
            return parts[0], sorted(self.roles.get(parts[0], ()))
        return '', sorted(self.host_role)


def _lines(data, masker):
    """The lines of a file's bytes, its secrets masked."""
    if data is None:
        return []
    return masker.clean(data.decode('utf-8', 'replace')).splitlines(
        keepends=True)


def compare(history, old, new, context=3, with_noise=False):
    """The :class:`Diff` from ``old`` to ``new`` (shas; ``old`` None)."""
    git = history.git
    base = old or git_mod.EMPTY_TREE
    out = git.run('diff', '--no-renames', '--name-status', '-z', base,
                  new).stdout.decode('utf-8', 'replace').split('\0')
    entries = [(_STATUS.get(out[i][:1], MODIFIED), out[i + 1])
               for i in range(0, len(out) - 1, 2) if out[i]]
    inv = inventory_mod.INVENTORY_FILE
    specs = ['%s:%s' % (rev, path) for _, path in entries
             for rev in (base, new)]
    specs += ['%s:%s' % (old, inv)] if old else []
    specs += ['%s:%s' % (new, inv), '%s:global_vars.yaml' % new]
    if old:
        specs.append('%s:global_vars.yaml' % old)
    blobs = git.blobs(specs)
    try:
        old_roles = _inventory_roles(yamlfile.loads(
            blobs.get('%s:%s' % (old, inv)) or b'{}',
            limits=yamlfile.OWN)) if old else {}
        new_roles = _inventory_roles(yamlfile.loads(
            blobs['%s:%s' % (new, inv)] or b'{}', limits=yamlfile.OWN))
    except (yaml.YAMLError, UnicodeError) as exc:
        raise exceptions.HistoryError(
            'The inventory of a version cannot be read: %s' % exc)
    identifiers = [_identifier(blobs.get('%s:global_vars.yaml' % rev))
                   for rev in (old, new) if rev]
    normalize = noise_mod.Normalizer(identifiers)
    scope = _Scope(old_roles, new_roles)
    masker = history.masker(*[rev for rev in (old, new) if rev])
    files = []
    for change, path in entries:
        before = _lines(blobs['%s:%s' % (base, path)], masker)
        after = _lines(blobs['%s:%s' % (new, path)], masker)
        files.append(_file_change(path, change, scope, before, after,
                                  normalize, context, with_noise))
    # Parameters compare only between two versions that noted theirs.
    before, after = (history.parameters(old) if old else None,
                     history.parameters(new))
    params, noise_params = noise_mod.parameters(before, after) if (
        before is not None and after is not None) else ([], [])
    old_hosts = {h for hosts in old_roles.values() for h in hosts}
    new_hosts = {h for hosts in new_roles.values() for h in hosts}
    return Diff(old, new, files, params, noise_params,
                sorted(new_hosts - old_hosts), sorted(old_hosts - new_hosts))


def _file_change(path, change, scope, before, after, normalize, context,
                 with_noise=False):
    comparison = noise_mod.compare(before, after, normalize)
    shown = after if with_noise else comparison.denoised
    diff = ''.join(difflib.unified_diff(
        before, shown, 'a/' + path if before else '/dev/null',
        'b/' + path if after else '/dev/null', n=context))
    role, hosts = scope.of(path)
    return FileChange(path, change, role, hosts, comparison, diff)


def hand_edits(history, context=3):
    """The :class:`FileChange` of every file changed by hand since the
    last version (none of their lines is noise: a person typed them)."""
    edits = history.uncommitted()
    if not edits:
        return []
    head = history.head()
    inv = '%s:%s' % (head, inventory_mod.INVENTORY_FILE)
    blobs = history.git.blobs(['%s:%s' % (head, path) for _, path in edits]
                              + [inv])
    try:
        roles = _inventory_roles(yamlfile.loads(blobs[inv] or b'{}',
                                                limits=yamlfile.OWN))
    except (yaml.YAMLError, UnicodeError):
        roles = {}
    scope = _Scope(roles)
    masker = history.masker(head)
    found = []
    for change, path in edits:
        try:
            with open(os.path.join(history.config_dir, path), 'rb') as f:
                now = f.read()
        except OSError:
            now = None
        found.append(_file_change(
            path, change, scope, _lines(blobs['%s:%s' % (head, path)],
                                        masker),
            _lines(now, masker), str, context))
    return found


def _identifier(data):
    try:
        value = (yamlfile.loads(data or b'{}', limits=yamlfile.OWN) or
                 {}).get('deploy_identifier')
    except (yaml.YAMLError, UnicodeError, AttributeError):
        return None
    return None if value is None else str(value)
