"""Writing files so that a crash never leaves a half-written one."""

import contextlib
import hashlib
import os
import tarfile
import tempfile


@contextlib.contextmanager
def atomic_open(path, mode=0o600, binary=False, durable=True):
    """Yield a file that replaces ``path`` only once it is complete.

    The data is written to a temporary file in the same directory, fsynced
    (unless not ``durable``: a cache that checks itself) and renamed over
    ``path``; on any error the temporary file is removed and ``path`` is
    left as it was.
    """
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory,
                               prefix='.%s.' % os.path.basename(path),
                               suffix='.tmp')
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, 'wb' if binary else 'w') as f:
            yield f
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(directory)


def write_atomic(path, text, mode=0o600):
    with atomic_open(path, mode=mode) as f:
        f.write(text)


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


def ensure_private_dir(path):
    """Create ``path`` (and parents) and make it 0700."""
    os.makedirs(path, mode=0o700, exist_ok=True)
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
