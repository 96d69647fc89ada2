"""git, run through the project's one subprocess seam, in one repository.

Every call names its repository and work tree (``--git-dir``,
``--work-tree``: git never searches upward, so a damaged ``.git`` is never
taken for a dotfiles repository in ``$HOME``), reads no system or global
configuration, attributes or ignore files, and names its author and
committer. What a user's configuration could add (signing, hooks, pagers)
is off, so it works with no git configuration at all and a fresh HOME. The
secrets filter (:mod:`.secret_filter`) is named on every call, run by this
Python.
"""

import os
import shlex
import sys

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import secret_filter
from tripleo_ephemeral import process

NAME = 'tripleo-ephemeral'
EMAIL = 'tripleo-ephemeral@localhost'
#: git's empty tree: the "before" of a repository's first version.
EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
#: A git command that runs longer is stuck (a filter that does not
#: answer): it is killed and the history is not written.
TIMEOUT = 1800
#: git options that take a value as the next word.
_VALUED = ('-c', '-C', '--git-dir', '--work-tree')


def filter_command():
    """The command git runs as the secrets filter: this Python, isolated
    (no site, no current directory on its path)."""
    return '%s -I -S %s' % (shlex.quote(sys.executable),
                            shlex.quote(secret_filter.__file__))


def subcommand(args):
    """The git command ``args`` run (``gc`` of ``-c gc.auto=1 gc``)."""
    args = list(args)
    while args and args[0].startswith('-'):
        option = args.pop(0)
        if option in _VALUED and args:
            args.pop(0)
    return args[0] if args else 'git'


class Git:
    """git commands in one work tree (``path``) and its ``.git``."""

    def __init__(self, path, runner=None):
        self.path = os.path.abspath(path)
        self.runner = runner or process.ProcessRunner()

    @property
    def git_dir(self):
        return os.path.join(self.path, '.git')

    def exists(self):
        return os.path.isdir(self.git_dir)

    def _argv(self, args):
        config = {
            'safe.directory': self.path, 'commit.gpgSign': 'false',
            'tag.gpgSign': 'false', 'core.hooksPath': '/dev/null',
            'core.quotePath': 'false', 'gc.autoDetach': 'false',
            'init.defaultBranch': 'master', 'core.excludesFile': os.devnull,
            'core.attributesFile': os.devnull,
            'core.fsmonitor': 'false',
            'filter.%s.process' % secret_filter.DRIVER: filter_command(),
            'filter.%s.required' % secret_filter.DRIVER: 'true'}
        argv = ['git', '-C', self.path, '--git-dir=%s' % self.git_dir,
                '--work-tree=%s' % self.path]
        for key, value in config.items():
            argv += ['-c', '%s=%s' % (key, value)]
        return argv + list(args)

    def _env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('GIT_')}
        env.update(GIT_AUTHOR_NAME=NAME, GIT_AUTHOR_EMAIL=EMAIL,
                   GIT_COMMITTER_NAME=NAME, GIT_COMMITTER_EMAIL=EMAIL,
                   GIT_TERMINAL_PROMPT='0', GIT_PAGER='cat',
                   GIT_CONFIG_NOSYSTEM='1', GIT_CONFIG_GLOBAL=os.devnull,
                   GIT_CEILING_DIRECTORIES=os.path.dirname(self.path))
        return env

    def run(self, *args, input=None, check=True, author=None):
        """Run ``git args`` here; return the completed process (bytes).
        ``author``: ``(name, email)`` instead of tripleo-ephemeral's."""
        if isinstance(input, str):
            input = input.encode()
        env = self._env()
        if author:
            env.update(GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1])
        try:
            return self.runner.run(self._argv(args), input=input,
                                   check=check, env=env, timeout=TIMEOUT)
        except exceptions.CommandFailedError as exc:
            raise exceptions.HistoryError(
                'git %s in %s failed: %s' % (subcommand(args), self.path,
                                             exc)) from exc

    def text(self, *args, input=None):
        """``git args``'s output as text, stripped."""
        return self.run(*args, input=input).stdout.decode(
            'utf-8', 'replace').strip()

    def rev(self, name):
        """The commit ``name`` names, or None."""
        proc = self.run('rev-parse', '-q', '--verify',
                        '%s^{commit}' % name, check=False)
        if proc.returncode != 0:
            return None
        return proc.stdout.decode().strip() or None

    def blobs(self, specs):
        """``{spec: bytes}`` of ``<rev>:<path>`` specs (None if missing), in
        one ``git cat-file --batch``."""
        specs = list(specs)
        if not specs:
            return {}
        out = self.run('cat-file', '--batch',
                       input=''.join(s + '\n' for s in specs)).stdout
        found, pos = {}, 0
        for spec in specs:
            end = out.index(b'\n', pos)
            header = out[pos:end].split()
            pos = end + 1
            if len(header) == 3 and header[-1] != b'missing':
                size = int(header[2])
                found[spec] = out[pos:pos + size]
                pos += size + 1
            else:
                found[spec] = None
        return found
