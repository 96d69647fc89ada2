"""git, run through the project's one subprocess seam.

Every call names its author and committer and turns off what a user's
configuration could add (signing, hooks, pagers), so it works with no git
configuration at all and a fresh HOME.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import process

NAME = 'tripleo-ephemeral'
EMAIL = 'tripleo-ephemeral@localhost'
#: git's empty tree: the "before" of a repository's first version.
EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'


class Git:
    """git commands in one work tree (``path``)."""

    def __init__(self, path, runner=None):
        self.path = os.path.abspath(path)
        self.runner = runner or process.ProcessRunner()

    @property
    def git_dir(self):
        return os.path.join(self.path, '.git')

    def exists(self):
        return os.path.isdir(self.git_dir)

    def _argv(self, args):
        return ['git', '-C', self.path,
                '-c', 'safe.directory=%s' % self.path,
                '-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false',
                '-c', 'core.hooksPath=/dev/null',
                '-c', 'core.quotePath=false', '-c', 'gc.autoDetach=false',
                '-c', 'init.defaultBranch=master'] + list(args)

    def _env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('GIT_')}
        env.update(GIT_AUTHOR_NAME=NAME, GIT_AUTHOR_EMAIL=EMAIL,
                   GIT_COMMITTER_NAME=NAME, GIT_COMMITTER_EMAIL=EMAIL,
                   GIT_TERMINAL_PROMPT='0', GIT_PAGER='cat',
                   GIT_CONFIG_NOSYSTEM='1')
        return env

    def run(self, *args, input=None, check=True):
        """Run ``git args`` here; return the completed process (bytes)."""
        if isinstance(input, str):
            input = input.encode()
        try:
            return self.runner.run(self._argv(args), input=input,
                                   check=check, env=self._env())
        except exceptions.CommandFailedError as exc:
            raise exceptions.HistoryError(
                'git %s in %s failed: %s' % (args[0], self.path, exc)
            ) from exc

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
