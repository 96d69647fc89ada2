"""Writing files so that a crash never leaves a half-written one."""

import contextlib
import ctypes
import hashlib
import os
import re
import shutil
import tarfile
import tempfile

#: What a write or a directory swap that was killed leaves:
#: ``.<name>.XXXXXXXX.tmp`` (:func:`atomic_open`) and
#: ``.<name>.new-XXXXXXXX`` (:func:`replace_dir`), XXXXXXXX being
#: tempfile's random part.
LEFTOVER = re.compile(r'\..+\.(?:[a-z0-9_]{8}\.tmp|new-[a-z0-9_]{8})')


@contextlib.contextmanager
def atomic_open(path, mode=0o600, binary=False, durable=True):
    """Yield a file that replaces ``path`` only once it is complete.

    The data is written to a temporary file in the same directory, fsynced
    (unless not ``durable``: a cache that checks itself) and renamed over
    ``path``; on any error the temporary file is removed and ``path`` is
    left as it was.
    """
    directory = os.path.dirname(os.path.abspath(path))
    with naming(path):
        fd, tmp = tempfile.mkstemp(dir=directory,
                                   prefix='.%s.' % os.path.basename(path),
                                   suffix='.tmp')
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, 'wb' if binary else 'w') as f:
            yield f
            with naming(path):
                f.flush()
                if durable:
                    os.fsync(f.fileno())
        with naming(path):
            os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename in (None, tmp):
            exc.filename = path  # a write of the body: f.write names none
        raise
    if durable:
        _fsync_dir(directory)


@contextlib.contextmanager
def naming(path):
    """An OSError raised inside names ``path`` when it names no file, or
    only the temporary one (a failed write(2) or fsync(2) says "No space
    left on device" and nothing else)."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None or os.path.basename(str(
                exc.filename)).startswith('.%s.' % os.path.basename(path)):
            exc.filename = path
        raise


def write_atomic(path, text, mode=0o600):
    with atomic_open(path, mode=mode) as f:
        f.write(text)


def replace_dir(dest, build, keep=()):
    """Build a new ``dest`` beside it and swap it in; return build's result.

    ``build(path)`` fills a new directory next to ``dest`` (same file
    system); the entries of the old ``dest`` named in ``keep`` (state that
    is not rendered: logs, known hosts) are carried over as hard links.
    Only then is the new directory exchanged with the old one, in one
    rename where the kernel can (renameat2 RENAME_EXCHANGE), and the old
    one removed. Until then ``dest`` stays whole: a failure or a full disk
    while building leaves it as it was.
    """
    dest = os.path.abspath(dest)
    parent, name = os.path.split(dest)
    make_private_dirs(parent)
    _restore_swapped(dest)
    new = tempfile.mkdtemp(dir=parent, prefix='.%s.new-' % name)
    try:
        os.chmod(new, 0o700)
        result = build(new)
        for entry in keep:
            old = os.path.join(dest, entry)
            if os.path.lexists(old):
                _remove_tree(os.path.join(new, entry))
                if os.path.isdir(old) and not os.path.islink(old):
                    shutil.copytree(old, os.path.join(new, entry),
                                    symlinks=True, copy_function=os.link)
                else:
                    os.link(old, os.path.join(new, entry),
                            follow_symlinks=False)
        if os.path.isdir(dest) and _exchange(new, dest):
            _remove_tree(new)  # now the old one
        else:
            old = dest + '.old'
            if os.path.isdir(dest):
                _remove_tree(old)
                os.rename(dest, old)
            os.rename(new, dest)
            _remove_tree(old)
    except BaseException:
        _remove_tree(new)
        raise
    _fsync_dir(parent)
    return result


def _restore_swapped(dest):
    """A crash between the two renames of the fallback left ``.old``."""
    old = dest + '.old'
    if os.path.isdir(old):
        if os.path.isdir(dest):
            _remove_tree(old)
        else:
            os.rename(old, dest)


def _exchange(a, b):
    """Swap two paths atomically (Linux renameat2); False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b),
                 rename_exchange) == 0:
        return True
    return False


def _remove_tree(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        os.unlink(path)


def remove_leftovers(directory, skip=()):
    """Remove what killed writes left under ``directory`` (:data:`LEFTOVER`
    names), not looking into ``.git`` nor into a directory holding one of
    the names ``skip`` (another lock's directory: its holder sweeps it).
    Only the holder of ``directory``'s lock may call it: nothing else
    writes there then. Returns the paths removed."""
    removed = []
    for top, dirs, files in os.walk(directory):
        if top != directory and any(n in files for n in skip):
            dirs[:] = []
            continue
        for name in list(dirs) + files:
            if LEFTOVER.fullmatch(name):
                _remove_tree(os.path.join(top, name))
                removed.append(os.path.join(top, name))
        dirs[:] = [d for d in dirs if d != '.git' and
                   not LEFTOVER.fullmatch(d)]
    return removed


def sha256(path):
    """The hex SHA-256 of the file at ``path``."""
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            digest.update(chunk)
    return digest.hexdigest()


def remove(path):
    """Remove the file ``path``; fine if it is gone already."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


#: What the commands' umask always holds (:func:`restrict_umask`).
UMASK_FLOOR = 0o022


def restrict_umask():
    """Never let another user write what this process (and what it runs:
    git, Ansible, pip) creates, whatever the umask it was given (umask
    000 would make every directory 0777): add :data:`UMASK_FLOOR`."""
    os.umask(os.umask(UMASK_FLOOR) | UMASK_FLOOR)


def make_private_dirs(path, mode=0o700):
    """Make ``path`` and the directories missing above it, each ``mode``
    (0700) whatever the umask (``os.makedirs`` gives the parents the
    umask's mode); a directory that exists is left as it is."""
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, mode)
        except FileExistsError:
            continue
        os.chmod(directory, mode)


def ensure_private_dir(path):
    """Create ``path`` (and the parents missing, 0700 too) and make it
    0700."""
    make_private_dirs(path)
    os.chmod(path, 0o700)
    return path


def safe_extract(archive, dest):
    """Extract ``archive`` into ``dest``, refusing members that would leave
    it, links out of it and device files (tarfile's ``data`` filter)."""
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter='data')


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
