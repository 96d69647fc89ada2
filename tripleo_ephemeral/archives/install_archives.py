"""The install archives of a work dir: a copy of it after each deploy.

``<stack>-install-<UTC time>.tar.gz`` (``-failed.tar.gz`` when the deploy
did not succeed) beside the work dir's files, the newest
:data:`ARCHIVES_KEPT` kept: ``Archives(workdir)`` of a
:class:`~tripleo_ephemeral.workdir.WorkDir`.
"""

import datetime
import logging
import os
import tarfile

from tripleo_ephemeral.archives import mixed_gzip
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral import workdir as workdir_mod
from tripleo_ephemeral.workdir import layout

LOG = logging.getLogger(__name__)

ARCHIVE_INFIX = workdir_mod.INSTALL_ARCHIVE_INFIX
#: Ends the name of the archive of a deploy that did not succeed.
FAILED_SUFFIX = '-failed'

#: Install archives kept per stack (the reference never pruned any).
ARCHIVES_KEPT = 5

#: gzip level of an archive. Most of its bytes are the Heat dump, gzipped
#: already, and stored as it is (:mod:`.mixed_gzip`); level 1 took 0.34 s
#: of CPU against 0.48 s for level 6 on THT 1+1's work dir (an archive 4.7 %
#: larger), 0.84 s against 0.99 s on 3+150's (1.6 % larger), with the dump
#: compressed again.
COMPRESS_LEVEL = 1


#: The product's hidden files that are state, not a cache, a lock or
#: scratch: config-download's history (tripleo_ephemeral.history) and its
#: ignore file, kept in ``config-download/<stack>/``. Every other dot file
#: of the product's is one of those (the work dir's lock, the database
#: image beside the newest dump, Ansible's fact cache and temporary files,
#: a deploy's rollback copy, what a crash left of an atomic write), or a
#: templates checkout's own.
VERSIONED = ('.git', '.gitignore')


def is_transient(path):
    """Left out of archives and backups (``path`` relative to, or in, the
    work dir): dot files but :data:`VERSIONED`, the live database of a
    running Heat, and the install archives (each is itself a copy of the
    work dir)."""
    parts = path.replace(os.sep, '/').rstrip('/').split('/')
    base = parts[-1]
    history = (base in VERSIONED and len(parts) >= 3 and
               parts[-3] == workdir_mod.CONFIG_DOWNLOAD_DIR)
    return ((base.startswith('.') and not history) or
            base.startswith(database.SQLITE_NAME) or
            (ARCHIVE_INFIX in base and base.endswith('.tar.gz')))


def write_tar(path, root, members):
    """Write ``path`` (tar.gz, 0600, atomically): the ``members`` of the
    directory ``root`` (names relative to it), under ``root``'s own name,
    transient files (:func:`is_transient`) left out, modes kept."""
    top = os.path.basename(root)
    try:
        with fileutil.atomic_open(path, binary=True) as raw, \
                mixed_gzip.MixedGzip(raw, COMPRESS_LEVEL) as gz:

            def _filter(info):  # called before each member is written
                if is_transient(info.name):
                    return None
                if info.isfile() and mixed_gzip.compressed(info.name):
                    gz.store()
                else:
                    gz.compress()
                return info

            with tarfile.open(fileobj=gz, mode='w') as tar:
                for name in members:
                    tar.add(os.path.join(root, name),
                            arcname=os.path.join(top, name), filter=_filter)
                gz.compress()  # tar's end: zeros
    except OSError as exc:
        raise exceptions.WorkDirError(
            'Could not write the archive %s: %s' %
            (path, exc.strerror or exc))
    return path


class Archives:
    """The install archives of a work dir: :meth:`write` one, :meth:`all`
    of them."""

    def __init__(self, workdir):
        self.workdir = workdir

    def write(self, now=None, succeeded=True, dest=None):
        """Write ``<stack>-install-<UTC timestamp>.tar.gz`` of the work dir
        (``...-failed.tar.gz`` unless it ``succeeded``), or ``dest``, kept
        apart from the rotation.

        Members keep their modes (secrets stay 0600); the archive is 0600
        itself, written to a temporary file and renamed; transient files
        (:func:`is_transient`) are left out. Older archives beyond
        :data:`ARCHIVES_KEPT` are removed, but never the newest of a
        deploy that succeeded.
        """
        now = now or datetime.datetime.now(datetime.timezone.utc)
        workdir = self.workdir
        path = dest or workdir.join('%s%s%s%s.tar.gz' % (
            workdir.stack, ARCHIVE_INFIX, now.strftime('%Y%m%d-%H%M%S'),
            '' if succeeded else FAILED_SUFFIX))

        write_tar(path, workdir.path, self.members()[0])
        if dest is None:
            self._prune()
        return path

    def members(self):
        """``(archived, left_out)``: the work dir's top-level names an
        archive holds (the product's, :mod:`.layout`) and those it leaves
        out (the operator's, which stay where they are)."""
        return layout.Layout(self.workdir).split()

    def is_archive(self, name):
        """Whether ``name`` is one of this stack's install archives."""
        return self.workdir.is_install_archive(name)

    def all(self):
        """The rotated archives of the stack, newest first."""
        workdir = self.workdir
        return sorted((workdir.join(n) for n in os.listdir(workdir.path)
                       if self.is_archive(n)), reverse=True)

    def _prune(self):
        archives = self.all()
        succeeded = [a for a in archives if not a.endswith(
            FAILED_SUFFIX + '.tar.gz')]
        keep = set(archives[:ARCHIVES_KEPT] + succeeded[:1])
        for old in archives:
            if old not in keep:
                LOG.debug('Removing old install archive %s', old)
                os.unlink(old)
