"""Writing files so that a crash never leaves a half-written one."""

import contextlib
import os
import tempfile


@contextlib.contextmanager
def atomic_open(path, mode=0o600, binary=False):
    """Yield a file that replaces ``path`` only once it is complete.

    The data is written to a temporary file in the same directory, fsynced
    and renamed over ``path``; on any error the temporary file is removed
    and ``path`` is left as it was.
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
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(directory)


def write_atomic(path, text, mode=0o600):
    with atomic_open(path, mode=mode) as f:
        f.write(text)


def ensure_private_dir(path):
    """Create ``path`` (and parents) and make it 0700."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)
    return path


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
