"""A deploy that fails before Heat leaves the work dir as it found it.

Preparing a deploy (:mod:`.inputs`) reads and checks every input, and on
the way writes the rendered templates copy and the generated environments
into the work dir. A bad input found half-way must change nothing, so
preparing runs inside :class:`Rollback`: first every top-level file of the
work dir is hard-linked into ``.before-deploy/`` and the directories it may
rewrite (the templates copy) are copied as hard links (cheap: no data is
copied, and the project replaces files rather than rewriting them); on any
error the backups are moved back and what is new is removed. A crash in
between leaves ``.before-deploy/`` with its manifest: the next deploy
restores it first, saying so.
"""

import contextlib
import json
import os
import shutil

from tripleo_ephemeral import fileutil
from tripleo_ephemeral import locking
from tripleo_ephemeral.workdir import layout

BACKUP_DIR = layout.ROLLBACK_DIR
MANIFEST = 'manifest.json'


class Rollback:
    """``with Rollback(work_dir, dirs=(...)):`` undoes the block's writes
    if it raises. ``dirs`` are the directories of the work dir the block
    may rewrite; ``created`` those the caller made just before (a lock's
    directory), removed again like the block's new entries; a work dir
    that did not exist (``existed``) is removed as a whole. The files
    directly in ``copied`` (directories of ``dirs``: logs, which a Heat
    started ahead appends to) are copied instead of linked."""

    def __init__(self, path, dirs=(), say=None, existed=True, created=(),
                 undo=False, copied=()):
        self.path = path
        #: undo the writes even when the block succeeds (a dry run)
        self.undo = undo
        self.dirs = [os.path.basename(d.rstrip(os.sep)) for d in dirs]
        self.copied = {os.path.abspath(d) for d in copied}
        self.created = {os.path.basename(d.rstrip(os.sep)) for d in created}
        self.backup = os.path.join(path, BACKUP_DIR)
        self.existed = existed
        self._say = say or (lambda text: None)

    def __enter__(self):
        self.recover()
        os.makedirs(self.backup, mode=0o700)
        names = sorted(set(self._entries()) - self.created)
        for name in names:
            src = os.path.join(self.path, name)
            dest = os.path.join(self.backup, name)
            if os.path.isfile(src) and not os.path.islink(src):
                os.link(src, dest)
            elif name in self.dirs and os.path.isdir(src):
                shutil.copytree(src, dest, symlinks=True,
                                copy_function=self._copy)
        # Written last: a backup without it was never used.
        fileutil.write_atomic(os.path.join(self.backup, MANIFEST),
                              json.dumps({'entries': names}))
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None and not self.undo:
            shutil.rmtree(self.backup)
        elif not self.existed:
            shutil.rmtree(self.path, ignore_errors=True)
        else:
            self._restore()
        return False

    def _copy(self, src, dest):
        if os.path.dirname(os.path.abspath(src)) in self.copied:
            shutil.copy2(src, dest)
        else:
            os.link(src, dest)

    def _entries(self):
        """Top-level names that belong to the deployment (not ours, not
        the lock)."""
        return [n for n in os.listdir(self.path)
                if n not in (BACKUP_DIR, locking.LOCK_NAME)]

    def recover(self):
        """Undo a prepare a crash cut short; True if there was one."""
        if not os.path.isdir(self.backup):
            return False
        if os.path.exists(os.path.join(self.backup, MANIFEST)):
            self._restore()
            self._say('An earlier deploy stopped while preparing its inputs: '
                      'restored %s as it was before it' % self.path)
            return True
        shutil.rmtree(self.backup)  # it stopped before changing anything
        return False

    def _restore(self):
        with open(os.path.join(self.backup, MANIFEST)) as f:
            before = set(json.load(f)['entries'])
        for name in self._entries():
            if name not in before:
                _remove(os.path.join(self.path, name))
        for name in os.listdir(self.backup):
            if name == MANIFEST:
                continue
            src = os.path.join(self.backup, name)
            dest = os.path.join(self.path, name)
            if os.path.isdir(src):
                _remove(dest)
                os.rename(src, dest)
            else:
                os.replace(src, dest)
        shutil.rmtree(self.backup)


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
