"""The user's cache (``$XDG_CACHE_HOME/tripleo-ephemeral``), which
nobody else can use against them and which never decides a deploy.

What a deploy reads back from the cache (a template's parse, Jinja2's
compiled code, an empty Heat schema, an image's root filesystem) would
run or be believed as if the deploy had made it, so:

* the directories are made 0700 whatever the umask (``~/.cache`` too,
  when the plugin makes it), and a cache is refused (one warning, then
  the deploy runs without it) when its directory is not the user's own
  or is writable by others;
* every entry is sealed with an HMAC-SHA256 whose key (``cache.key``,
  0600) only the user can read: an entry another user planted, or a torn
  or damaged one, fails the check and is dropped, and what would run is
  never loaded before its check. The key is read through the directory
  checked, so a directory another user swaps in later (where a directory
  above lets them) cannot hand over a key of theirs; what cannot be
  sealed (an image build's root filesystem) is kept only where no
  directory above lets another user swap it (:meth:`UserCache.directory`
  with ``strict``);
* a cache that cannot be written (a full or read-only file system) is
  named once and written no more: the deploy goes on without it.

:func:`cache` gives the process's :class:`UserCache`; its warnings go to
the command's stderr (the log's ``WARNING``), once each.
"""

import contextlib
import hashlib
import hmac
import logging
import os
import secrets
import stat

from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

NAME = 'tripleo-ephemeral'
KEY_NAME = 'cache.key'
_KEY_BYTES = 32
_DIGEST = hashlib.sha256().digest_size
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


class Refused(Exception):
    """The cache may not be used; the message says why and what to do."""


def root_path():
    """``$XDG_CACHE_HOME/tripleo-ephemeral`` (default ``~/.cache``): the
    one place of the user's cache."""
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(
        os.path.expanduser('~'), '.cache')
    return os.path.join(os.path.abspath(base), NAME)


def _owner_ok(st):
    return st.st_uid in (os.geteuid(), 0)


def _check_ancestors(path):
    """Raise Refused when a directory above ``path`` lets another user
    rename what is inside (written by others, no sticky bit) or is
    another user's."""
    parent = os.path.dirname(path)
    while True:
        try:
            st = os.stat(parent)
        except FileNotFoundError:
            st = None  # made 0700 by make_private_dirs
        except OSError as exc:
            raise Refused('%s cannot be read (%s)' % (parent, exc.strerror))
        if st is None:
            pass
        elif not _owner_ok(st):
            raise Refused('%s, above it, belongs to uid %d: another user '
                          'could put a directory of theirs in its place; set '
                          'XDG_CACHE_HOME to a directory of yours'
                          % (parent, st.st_uid))
        if st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
            raise Refused('%s, above it, is writable by others (mode %04o, '
                          'no sticky bit): another user could put a '
                          'directory of theirs in its place; "chmod o-w '
                          '%s", or set XDG_CACHE_HOME to a directory of '
                          'yours'
                          % (parent, stat.S_IMODE(st.st_mode), parent))
        if parent == os.path.dirname(parent):
            return
        parent = os.path.dirname(parent)


def check_own(st):
    """Raise Refused unless ``st`` is of a directory of the user's that
    nobody else may write."""
    if not stat.S_ISDIR(st.st_mode):
        raise Refused('it is not a directory: remove it')
    if st.st_uid != os.geteuid():
        raise Refused('it belongs to uid %d, not to you (uid %d): remove it '
                      '(it may hold what another user planted)'
                      % (st.st_uid, os.geteuid()))
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise Refused('it is writable by others (mode %04o): remove it (it '
                      'may hold what another user planted)'
                      % stat.S_IMODE(st.st_mode))


#: openstackclient's entry-point cache (stevedore's), read before any
#: plugin runs: which code each command is.
ENTRY_POINTS = 'python-entrypoints'


def close_entry_point_cache():
    """Close ``~/.cache`` and openstackclient's entry-point cache in it
    to others when a umask of 000 left them writable by others (they are
    made before this plugin runs, so before it can set a umask): another
    user could otherwise change which code the next command runs. Says so
    once each (the log's ``WARNING``); one that is another user's is
    named, not changed. Returns the paths closed."""
    base = os.path.dirname(root_path())
    closed = []
    for path in (base, os.path.join(base, ENTRY_POINTS)):
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            continue
        names = [path]
        if path != base:
            names += [os.path.join(path, n) for n in sorted(os.listdir(path))]
        for name in names:
            with contextlib.suppress(OSError):
                st = os.lstat(name)
                if stat.S_ISLNK(st.st_mode) or not st.st_mode & 0o022:
                    continue
                if st.st_uid != os.geteuid():
                    LOG.warning('%s belongs to uid %d and others may write '
                                'it: openstackclient reads which code to run '
                                'from it; remove it', name, st.st_uid)
                    continue
                os.chmod(name, stat.S_IMODE(st.st_mode) & ~0o022)
                closed.append(name)
    if closed:
        LOG.warning('Closed to other users what a umask of 000 left open: '
                    '%s (openstackclient reads which code to run from '
                    'there)', ', '.join(closed))
    return closed


class UserCache:
    """The cache under ``root`` (default :func:`root_path`)."""

    def __init__(self, root=None):
        self.root = os.path.abspath(root or root_path())
        self._key = None
        self._refused = None
        self._warned = set()

    # -- opening -----------------------------------------------------------

    def _open(self):
        """Make or check the root, then read (or make) the key."""
        try:
            fileutil.make_private_dirs(self.root)
        except OSError as exc:
            raise Refused('it cannot be made (%s)' % exc.strerror)
        fd = os.open(self.root, _DIR_FLAGS)
        try:
            check_own(os.fstat(fd))
            return self._read_key(fd)
        finally:
            os.close(fd)

    def _read_key(self, dir_fd):
        path = os.path.join(self.root, KEY_NAME)
        try:
            fd = os.open(KEY_NAME, os.O_RDONLY | os.O_NOFOLLOW,
                         dir_fd=dir_fd)
        except FileNotFoundError:
            return self._make_key(dir_fd, path)
        except OSError as exc:
            raise Refused('%s cannot be read (%s): remove it'
                          % (path, exc.strerror))
        with os.fdopen(fd, 'rb') as f:
            st = os.fstat(f.fileno())
            key = f.read(_KEY_BYTES + 1)
        if st.st_uid != os.geteuid() or st.st_mode & 0o077 or \
                not stat.S_ISREG(st.st_mode) or len(key) != _KEY_BYTES:
            raise Refused('%s is not a key of yours (uid %d, mode %04o, %d '
                          'bytes): remove it' % (
                              path, st.st_uid, stat.S_IMODE(st.st_mode),
                              len(key)))
        return key

    def _make_key(self, dir_fd, path):
        key = secrets.token_bytes(_KEY_BYTES)
        try:
            fd = os.open(KEY_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                         os.O_NOFOLLOW, 0o600, dir_fd=dir_fd)
        except FileExistsError:  # another deploy made it meanwhile
            return self._read_key(dir_fd)
        except OSError as exc:
            raise Refused('%s cannot be written (%s)' % (path, exc.strerror))
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, key)
            os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(KEY_NAME, dir_fd=dir_fd)
            raise Refused('%s cannot be written (%s)' % (path, exc.strerror))
        os.close(fd)
        return key

    def usable(self):
        """Whether the cache may be used (said once when not)."""
        if self._key is None and self._refused is None:
            try:
                self._key = self._open()
            except Refused as exc:
                self._refused = str(exc)
            except OSError as exc:
                self._refused = 'it cannot be used (%s)' % (
                    exc.strerror or exc)
            if self._refused:
                self.warn(self.root, 'The cache %s is not used: %s; '
                          'commands run without it, only slower' % (
                              self.root, self._refused))
        return self._key is not None

    def directory(self, *parts, strict=False):
        """The cache's directory ``parts`` (made 0700), checked as the
        root is (``strict``: and no directory above lets another user
        swap it); None (said once) when the cache may not be used."""
        if not self.usable():
            return None
        path = os.path.join(self.root, *parts)
        if path in self._warned:
            return None
        try:
            if strict:
                _check_ancestors(path)
            fileutil.make_private_dirs(path)
            fd = os.open(path, _DIR_FLAGS)
            try:
                check_own(os.fstat(fd))
            finally:
                os.close(fd)
        except (Refused, OSError) as exc:
            self.warn(path, 'The cache %s is not used: %s; commands run '
                      'without it, only slower' % (path, exc if isinstance(
                          exc, Refused) else exc.strerror or exc))
            return None
        return path

    def path(self, *parts):
        """A file's path in the cache; None when it may not be used."""
        if not self.usable():
            return None
        return os.path.join(self.root, *parts)

    # -- entries -----------------------------------------------------------

    def _mac(self, context, data):
        if not self.usable():
            raise Refused(self._refused)
        return hmac.new(self._key, context.encode('utf-8') + b'\0' + data,
                        hashlib.sha256).digest()

    def seal(self, context, data):
        """``data`` with its HMAC in front (``context``: what the entry
        is, so that one cannot stand for another)."""
        return self._mac(context, data) + data

    def unseal(self, context, blob):
        """The data :meth:`seal` sealed in ``blob``; None when the check
        fails (damaged, torn, or not sealed with the user's key)."""
        if not self.usable() or len(blob) < _DIGEST:
            return None
        data = blob[_DIGEST:]
        if not hmac.compare_digest(blob[:_DIGEST], self._mac(context, data)):
            return None
        return data

    def read(self, path, context):
        """The data of the sealed file ``path``: None when absent; when it
        fails its check it is removed (and named once)."""
        try:
            with open(path, 'rb') as f:
                blob = f.read()
        except OSError:
            return None
        data = self.unseal(context, blob)
        if data is None:
            self.drop(path)
        return data

    def write(self, path, context, data):
        """Seal ``data`` into ``path`` (0600, whole or not at all); a
        failure (a full or read-only file system) is named once and the
        cache is written no more. Returns whether it was written."""
        if self.root in self._warned:
            return False
        try:
            with fileutil.atomic_open(path, binary=True, durable=False) as f:
                f.write(self.seal(context, data))
            return True
        except OSError as exc:
            self.warn(self.root, 'The cache %s cannot be written (%s, '
                      'writing %s): commands go on without storing to it'
                      % (self.root, exc.strerror or exc, os.path.relpath(
                          path, self.root).split(os.sep)[0]))
            return False

    def drop(self, path):
        """Remove an entry that failed its check, naming it once."""
        with contextlib.suppress(OSError):
            os.unlink(path)
        self.warn(path, 'The cache entry %s failed its check (damaged, or '
                  'not written by you) and was removed' % path)

    def warn(self, what, text):
        """Say ``text`` (about the path ``what``) once; ``what`` is used
        no more."""
        if what not in self._warned:
            self._warned.add(what)
            LOG.warning('%s', text)


_caches = {}


def cache(root=None):
    """The process's :class:`UserCache` of ``root`` (default: the
    user's), so that each warning is given once."""
    root = os.path.abspath(root or root_path())
    if root not in _caches:
        _caches[root] = UserCache(root)
    return _caches[root]
