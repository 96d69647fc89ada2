"""One commit per render of config-download.

The commit message names the stack, the deploy identifier and the command
that rendered (tripleo-common's "Automatic commit" gave only the first
line); the parameters of the render are kept beside it as a git note, so
that two versions can be compared parameter by parameter. What a run
leaves in the directory (:data:`RUN_STATE`) is excluded, not committed.
"""

import datetime
import json
import logging
import os
import shlex
import sys

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import repository
from tripleo_ephemeral.history import secrets
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

#: Kept when config-download is rendered again (fileutil.replace_dir).
GIT_DIR = repository.GIT_DIR
RUN_STATE = repository.RUN_STATE
#: Where a version's parameters are noted.
PARAMETERS_NOTES = 'refs/notes/tripleo-parameters'
#: The version the last successful Ansible run applied.
APPLIED_REF = 'refs/tripleo/applied'
TRAILERS = ('Stack', 'Deploy-Identifier', 'Command')
#: Loose objects that make git pack them (git's default is 6700).
GC_AUTO = 256
EDITS = repository.EDITS
INDEX_DAMAGED = repository.INDEX_DAMAGED


def when(seconds):
    """The UTC time of git's ``%ct`` (seconds since the epoch): every
    git prints it alike, where its ISO forms differ (``Z`` or
    ``+00:00``, which Python 3.10 cannot read)."""
    return datetime.datetime.fromtimestamp(int(seconds),
                                           datetime.timezone.utc)


def command_line(argv=None):
    """The command that is running, as the user typed it."""
    argv = list(sys.argv if argv is None else argv)
    if argv:
        argv[0] = os.path.basename(argv[0])
    return ' '.join(shlex.quote(a) for a in argv)


def note_text(parameters):
    """The note of a version's parameters."""
    return json.dumps(parameters, sort_keys=True, indent=0, default=str)


def deploy_identifier(config_dir):
    """The deploy identifier the rendered ``global_vars.yaml`` carries."""
    path = os.path.join(config_dir, 'global_vars.yaml')
    if not os.path.exists(path):
        return None
    data = yamlfile.load(path, 'global_vars.yaml',
                         error=exceptions.HistoryError)
    value = data.get('deploy_identifier') if isinstance(data, dict) else None
    return None if value is None else str(value)


class Version:
    """A commit: ``sha``, ``date`` (aware datetime), ``subject`` and the
    trailers of its message (``stack``, ``deploy_identifier``,
    ``command``)."""

    def __init__(self, sha, date, subject, trailers):
        self.sha = sha
        self.date = date
        self.subject = subject
        self.stack = trailers.get('Stack')
        self.deploy_identifier = trailers.get('Deploy-Identifier')
        self.command = trailers.get('Command')

    @property
    def short(self):
        return self.sha[:12]


class ConfigHistory(repository.Repository):
    """The versions of one config-download directory."""

    def commit(self, stack, command=None, parameters=None, secrets=None):
        """Commit the rendered directory; return the new commit's sha, or
        None when nothing changed since the last one (no empty commit).
        ``secrets``: ``(values, names)`` for :meth:`remember_secrets`."""
        self.init()
        if secrets is not None:
            self.remember_secrets(*secrets)
        identifier = deploy_identifier(self.config_dir)
        command = command or command_line()
        message = ('%s rendered by %s (deploy identifier %s)\n\n'
                   'Stack: %s\nDeploy-Identifier: %s\nCommand: %s\n' % (
                       stack, _subject(command), identifier or 'none',
                       stack, identifier or 'none', command))
        sha = self._commit(message)
        if sha and parameters is not None:
            self.git.run('notes', '--ref', PARAMETERS_NOTES, 'add', '-f',
                         '-F', '-', sha, input=note_text(
                             self.store.mask_parameters(parameters,
                                                        keep=True)))
        if sha:
            # Packed early: loose objects are ten times the size of a
            # pack, and every render carries the history over file by
            # file.
            self.git.run('-c', 'gc.auto=%d' % GC_AUTO, 'gc', '--auto',
                         '--quiet')
        return sha

    def commit_edits(self, message, author):
        """Commit what changed in the directory since the last version as
        ``author`` (``(name, email)``); return the sha (None if nothing
        changed)."""
        self.init()
        return self._commit(message, author)

    def _commit(self, message, author=None):
        self.git.run('add', '-A', '.')
        if self.git.run('diff', '--cached', '--quiet',
                        check=False).returncode == 0:
            LOG.info('config-download unchanged since %s',
                     (self.git.rev('HEAD') or 'nothing')[:12])
            return None
        self.git.run('commit', '-q', '--no-verify', '-F', '-', input=message,
                     author=author)
        sha = self.git.rev('HEAD')
        self.check_readable(sha)
        return sha

    def resolve(self, name):
        """The sha a version name (sha, tag, ``HEAD~1``, ``applied``)
        names, or None."""
        if not self.exists():
            return None
        return self.git.rev(APPLIED_REF if name == 'applied' else name)

    def remember_secrets(self, values, names):
        """:meth:`Repository.remember_secrets`, and those the last
        version's note holds in clear (a history from before secrets were
        masked: a password rotated since is still masked)."""
        head = self.head()
        known = set(names) | self.store.names
        old = [(name, value) for name, value in sorted(
            ((self.noted(head) if head else None) or {}).items())
            if secrets.is_secret_name(name, known)]
        super().remember_secrets(list(values) + old, names)

    def noted(self, sha):
        """The parameters noted on ``sha`` as noted (a version made before
        secrets were masked has them in clear), or None."""
        proc = self.git.run('notes', '--ref', PARAMETERS_NOTES, 'show', sha,
                            check=False)
        if proc.returncode != 0:
            return None
        try:
            found = json.loads(proc.stdout.decode())
        except ValueError:
            return None
        return found if isinstance(found, dict) else None

    def parameters(self, sha):
        """The parameters noted on ``sha``, secret values masked, or
        None."""
        found = self.noted(sha)
        return None if found is None else self.store.mask_parameters(found)

    def masker(self, *shas):
        """What masks the secrets in the files of versions ``shas``: the
        store's, and those their notes hold in clear."""
        names = self.store.names
        extra = []
        for sha in shas:
            extra += [(name, value) for name, value in sorted(
                (self.noted(sha) or {}).items())
                if secrets.is_secret_name(name, names)]
        return self.store.masker(extra)

    def versions(self, revision='HEAD', limit=None):
        """The :class:`Version` objects reachable from ``revision``,
        newest first."""
        if not self.head():
            return []
        args = ['log', '-z', '--format=%H%x1f%ct%x1f%s%x1f%B']
        if limit:
            args.append('-n%d' % limit)
        out = self.git.run(*(args + [revision, '--'])).stdout.decode(
            'utf-8', 'replace')
        found = []
        for record in out.split('\0'):
            if not record.strip():
                continue
            sha, date, subject, body = record.strip('\n').split('\x1f', 3)
            found.append(Version(sha, when(date),
                                 subject, _trailers(body)))
        return found


def _subject(command):
    words = command.split()
    named = [w for w in words[1:4] if not w.startswith('-')]
    rest = [w for w in words if w in ('--stack-only', '--config-download-only',
                                      '--setup-only')]
    return ' '.join(named + rest) or 'render'


def _trailers(body):
    found = {}
    for line in body.splitlines():
        key, sep, value = line.partition(': ')
        if sep and key in TRAILERS:
            found[key] = value
    return found
