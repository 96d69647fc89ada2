"""One archive of a deployment's state, and its verified restore.

The archive (tar.gz, 0600) holds what the product keeps in the work dir
(dumps, passwords, environments, outputs, config-download, the heat dir's
configuration and key) and ``MANIFEST.json`` with each file's size, mode
and SHA-256, and the names of the operator's files it left out. A
restore extracts into a scratch dir beside the target, refuses paths that
leave it, checks every file against the manifest, and only then moves the
result into place, so a bad archive changes nothing.
"""

import contextlib
import datetime
import json
import os
import shutil
import tarfile
import tempfile

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import locking
from tripleo_ephemeral import workdir
from tripleo_ephemeral.archives import install_archives as archives
from tripleo_ephemeral.workdir import layout

MANIFEST = 'MANIFEST.json'
FORMAT = 1


def _walk(root, members=None):
    """The files a backup carries: those under ``root`` (or its top-level
    ``members``), transient ones left out
    (:func:`tripleo_ephemeral.archives.install_archives.is_transient`)."""
    is_transient = archives.is_transient
    for directory, dirs, files in os.walk(root):
        if directory == root and members is not None:
            dirs[:] = [d for d in dirs if d in members]
            files = [f for f in files if f in members]
        dirs[:] = sorted(d for d in dirs
                         if not is_transient(os.path.join(directory, d)))
        for name in sorted(files):
            path = os.path.join(directory, name)
            if not is_transient(path) and os.path.isfile(path) and \
                    not os.path.islink(path):
                yield os.path.relpath(path, root)


def create(work_dir, output=None, now=None, stack=workdir.DEFAULT_STACK):
    """Write the backup of ``work_dir`` (of ``stack``, and the other stacks
    it holds); return (path, manifest).

    It carries the product's files (:mod:`tripleo_ephemeral.workdir.layout`)
    and lists the operator's, which it leaves out, in the manifest's
    ``left_out``.

    It holds the work dir's lock (and its heat dir's) while it reads, so it
    never archives a deploy, a launch or a kill half-way: a second command
    on the work dir fails at once, naming the one running.
    """
    work_dir = os.path.abspath(work_dir)
    if not os.path.isdir(work_dir):
        raise exceptions.BackupError(
            'Work dir %s not found; check --work-dir' %
            work_dir)
    heat_dir = os.path.join(work_dir, workdir.HEAT_DIR)
    with contextlib.ExitStack() as held:
        for directory in (work_dir, heat_dir):
            if os.path.isdir(directory):
                held.enter_context(locking.DirLock(
                    directory, purpose='tripleo backup create'))
        return _create(work_dir, output, now, stack)


def _create(work_dir, output, now, stack):
    now = now or datetime.datetime.now(datetime.timezone.utc)
    output = output or os.path.abspath('%s-backup-%s.tar.gz' % (
        os.path.basename(work_dir), now.strftime('%Y%m%d-%H%M%S')))
    members, left_out = layout.Layout(
        workdir.WorkDir(work_dir, stack)).split()
    files = {}
    for rel in _walk(work_dir, members):
        path = os.path.join(work_dir, rel)
        st = os.stat(path)
        files[rel] = {'sha256': fileutil.sha256(path), 'size': st.st_size,
                      'mode': '%04o' % (st.st_mode & 0o777)}
    manifest = {'format': FORMAT, 'created': now.isoformat(),
                'work_dir': work_dir, 'files': files, 'left_out': left_out}
    data = json.dumps(manifest, indent=1, sort_keys=True).encode()
    try:
        with fileutil.atomic_open(output, binary=True) as raw:
            with tarfile.open(fileobj=raw, mode='w:gz') as tar:
                info = tarfile.TarInfo(MANIFEST)
                info.size, info.mode = len(data), 0o600
                tar.addfile(info, _BytesReader(data))
                for rel in files:
                    tar.add(os.path.join(work_dir, rel), arcname=rel,
                            recursive=False)
    except OSError as exc:
        raise exceptions.BackupError('Could not write the backup %s: %s' % (
            output, exc.strerror or exc))
    return output, manifest


class _BytesReader:
    def __init__(self, data):
        self._data = data
        self._pos = 0

    def read(self, size=-1):
        end = len(self._data) if size < 0 else self._pos + size
        chunk = self._data[self._pos:end]
        self._pos += len(chunk)
        return chunk


def restore(archive, work_dir):
    """Restore ``archive`` into the new ``work_dir``; return the manifest."""
    work_dir = os.path.abspath(work_dir)
    if os.path.exists(work_dir) and os.listdir(work_dir):
        raise exceptions.BackupError(
            '%s exists and is not empty; restore into a new '
            'work dir' % work_dir)
    parent = os.path.dirname(work_dir)
    fileutil.make_private_dirs(parent)
    scratch = tempfile.mkdtemp(prefix='.restore-', dir=parent)
    try:
        try:
            fileutil.safe_extract(archive, scratch)
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise exceptions.BackupError(
                'Backup %s cannot be extracted: %s' % (archive, exc))
        manifest = _verify(archive, scratch)
        os.unlink(os.path.join(scratch, MANIFEST))
        for rel, entry in manifest['files'].items():
            os.chmod(os.path.join(scratch, rel), int(entry['mode'], 8))
        # The processes it names ran on the machine the backup came from.
        heat_dir = workdir.WorkDir(scratch).heat_dir
        if os.path.exists(os.path.join(heat_dir, launcher_state.STATE_NAME)):
            launcher_state.LauncherState(heat_dir).clear_process()
        os.chmod(scratch, 0o700)
        if os.path.exists(work_dir):
            os.rmdir(work_dir)
        os.rename(scratch, work_dir)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return manifest


def _verify(archive, root):
    try:
        with open(os.path.join(root, MANIFEST)) as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        raise exceptions.BackupError(
            'Backup %s has no readable %s; it is not a '
            'tripleo-ephemeral backup' % (archive, MANIFEST))
    if manifest.get('format') != FORMAT:
        raise exceptions.BackupError(
            'Backup %s has format %s; this version reads %d'
            % (archive, manifest.get('format'), FORMAT))
    expected = manifest.get('files') or {}
    found = {rel for rel in _walk(root)} - {MANIFEST}
    extra = sorted(found - set(expected))
    missing = sorted(set(expected) - found)
    if extra or missing:
        raise exceptions.BackupError(
            'Backup %s does not match its manifest (missing: '
            '%s; unexpected: %s)' % (
                archive, ', '.join(missing) or 'none',
                ', '.join(extra) or 'none'))
    for rel, entry in expected.items():
        if fileutil.sha256(os.path.join(root, rel)) != entry['sha256']:
            raise exceptions.BackupError(
                'Backup %s is damaged: %s fails its checksum'
                % (archive, rel))
    return manifest
