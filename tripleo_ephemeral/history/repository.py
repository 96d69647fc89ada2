"""config-download's git repository: its own, sound, and free of secrets.

:class:`Repository` makes the ``.git`` (what Ansible leaves excluded, the
secrets filter of :mod:`.secret_filter` set for every file), writes the
store of secrets the filter masks, tells the files changed by hand since
the last commit, and says what is wrong with a damaged one (then mends its
index or moves it aside: :mod:`.repair`).
"""

import datetime
import itertools
import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.history import git as git_mod
from tripleo_ephemeral.history import secret_filter
from tripleo_ephemeral.history import secrets

LOG = logging.getLogger(__name__)

GIT_DIR = '.git'
#: Not versioned: what Ansible and ansible-runner write while they run.
RUN_STATE = ('/artifacts/', '/ansible.cfg', '/ansible-playbook-command.sh',
             '/ansible.log', '/ssh_known_hosts', '/.ansible/', '/env/',
             '/profiling_data/', '*.retry')
#: What a file found changed by hand is.
MODIFIED, ADDED, REMOVED = 'modified', 'added', 'removed'
EDITS = (MODIFIED, ADDED, REMOVED)
#: :meth:`Repository.damage` of a repository whose index alone is bad.
INDEX_DAMAGED = 'its index cannot be read'


class Repository:
    """The git repository of one config-download directory."""

    def __init__(self, config_dir, runner=None):
        self.config_dir = os.path.abspath(config_dir)
        self.git = git_mod.Git(self.config_dir, runner=runner)
        self.store = secrets.SecretStore(self.git.git_dir)

    def exists(self):
        return self.git.exists()

    def head(self):
        return self.git.rev('HEAD') if self.exists() else None

    def init(self):
        """Make the repository if there is none; set what it excludes and
        the secrets filter (in its config too: a user's own git commits
        as ours do)."""
        if not self.git.exists():
            self.git.run('init', '-q', '--template=', self.config_dir)
        info = os.path.join(self.git.git_dir, 'info')
        fileutil.make_private_dirs(info)
        with open(os.path.join(info, 'exclude'), 'w') as f:
            f.write('# What Ansible runs leave here (tripleo-ephemeral)\n')
            f.write(''.join(p + '\n' for p in RUN_STATE))
        with open(os.path.join(info, 'attributes'), 'w') as f:
            f.write('# Secrets stay out of git (tripleo-ephemeral)\n'
                    '* filter=%s\n' % secret_filter.DRIVER)
        try:
            with open(os.path.join(self.git.git_dir, 'config')) as f:
                config = f.read()
        except OSError:
            config = ''
        if git_mod.filter_command() not in config:
            for key, value in (('process', git_mod.filter_command()),
                               ('required', 'true')):
                self.git.run('config', 'filter.%s.%s' % (
                    secret_filter.DRIVER, key), value)
        self.store.ensure()

    def files(self):
        """The paths a commit would take: tracked and not excluded."""
        out = self.git.run('ls-files', '-z', '--cached', '--others',
                           '--exclude-standard').stdout
        return sorted({p for p in out.decode('utf-8', 'replace').split('\0')
                       if p})

    def texts(self):
        """The contents of :meth:`files` (what the secrets are looked for
        in)."""
        for path in self.files():
            try:
                with open(os.path.join(self.config_dir, path), 'rb') as f:
                    yield f.read().decode('utf-8', 'replace')
            except OSError:   # removed: nothing to look in
                continue

    def remember_secrets(self, values, names):
        """Store the secrets the filter masks: ``values``
        (``[(name, value)]``) of the parameters ``names`` as the files
        hold them."""
        self.init()
        self.store.write(values, names, self.texts())

    def check_readable(self, sha):
        """Raise HistoryError if any file of version ``sha`` cannot be
        read back (a damaged object it shares with an older version)."""
        problem = self._unreadable(sha)
        if problem:
            raise exceptions.HistoryError(
                'version %s of %s cannot be read back: %s' % (
                    sha[:12], self.config_dir, problem))

    def _unreadable(self, sha):
        proc = self.git.run('diff', '--shortstat', git_mod.EMPTY_TREE, sha,
                            check=False)
        return _last_line(proc.stderr) if proc.returncode else None

    def damage(self):
        """Why the repository cannot be used (one phrase), or None: it is
        sound, or there is none. A damaged index alone is
        :data:`INDEX_DAMAGED` (:meth:`rebuild_index` mends it)."""
        if not self.exists():
            return None
        for name in ('HEAD', 'objects', 'refs'):
            if not os.path.exists(os.path.join(self.git.git_dir, name)):
                return '.git/%s is missing' % name
        proc = self.git.run('rev-parse', '--verify', '-q', 'HEAD^{commit}',
                            check=False)
        if proc.returncode not in (0, 1):
            return 'git cannot open it: %s' % _last_line(proc.stderr)
        if proc.returncode == 1:
            refs = self.git.run('for-each-ref', '--count=1', check=False)
            if refs.returncode or refs.stdout.strip():
                return 'HEAD names no version'
            return None   # no version yet
        sha = proc.stdout.decode().strip()
        problem = self._unreadable(sha)
        if problem:
            return 'its last version %s cannot be read (%s)' % (
                sha[:12], problem)
        if self.git.run('status', '--porcelain', check=False).returncode:
            return INDEX_DAMAGED
        return None

    def check_sound(self):
        """Raise HistoryError naming the damage and the fix, if any."""
        reason = self.damage()
        if reason:
            raise exceptions.HistoryError(
                'The git history of %s is damaged (%s): the next deploy '
                'sets it aside and starts a new one with its render' % (
                    self.config_dir, reason))

    def rebuild_index(self):
        """Make the index again from the last version (it holds nothing
        else: changes in the files stay)."""
        os.unlink(os.path.join(self.git.git_dir, 'index'))
        self.git.run('reset', '-q')

    def set_aside(self, now=None):
        """Move the damaged ``.git`` beside config-download, named and
        dated; return its new path."""
        now = now or datetime.datetime.now(datetime.timezone.utc)
        base = dest = '%s.git-damaged-%s' % (
            self.config_dir, now.strftime('%Y%m%dT%H%M%SZ'))
        for n in itertools.count(2):
            if not os.path.lexists(dest):
                break
            dest = '%s-%d' % (base, n)
        os.rename(self.git.git_dir, dest)
        self.store = secrets.SecretStore(self.git.git_dir)
        return dest

    def uncommitted(self):
        """``[(change, path)]`` of the files that differ from the last
        version (edited, added or removed by hand since it was
        rendered), change one of :data:`EDITS`."""
        if not self.head():
            return []
        out = self.git.run('status', '--porcelain', '-z', '--no-renames',
                           '--untracked-files=all').stdout.decode(
                               'utf-8', 'replace')
        found = []
        for entry in out.split('\0'):
            if len(entry) > 3:
                code = entry[:2]
                found.append((ADDED if code in ('??', 'A ') else
                              REMOVED if 'D' in code else MODIFIED,
                              entry[3:]))
        return sorted(found, key=lambda cp: cp[1])

    def dirty(self):
        """Whether the directory differs from its last version."""
        return bool(self.uncommitted())


def _last_line(data):
    lines = data.decode('utf-8', 'replace').strip().splitlines()
    return lines[-1] if lines else 'no message'
