"""heatclient's parse of a template, kept across deploys by its content.

heatclient reads the templates and environments of a deploy (THT's 284
templates at 1+1) and parses each YAML template twice: once to tell a
template from a plain file (``template_utils.is_template``), once to
read it (``get_template_contents``); the parse is most of the inputs'
time, and the same on every deploy of the same templates.
:class:`ParsedTemplates` keeps each parse (or the ValueError that says a
file is no template) under the SHA-256 of its text and of what parses it
(heatclient's and PyYAML's versions, libyaml or not), in the user's cache
(:mod:`tripleo_ephemeral.usercache`), so:

* a changed template has another key: it is never served a stale parse;
* an entry is sealed with the user's cache key (HMAC-SHA256) over its
  key and body, written to a temporary file and renamed: a torn or
  damaged entry, or one another user planted, fails the check, is named
  once, removed and parsed again;
* entries are marshal data (dicts, lists, strings, numbers), read only
  once their seal is checked, loaded into new objects at every hit
  (heatclient changes what it parsed);
* the cache holds at most :data:`MAX_BYTES`: past it, the entries used
  longest ago go first;
* a cache that cannot be used or written (another user's, a read-only
  home, a full disk) is named once and only makes the deploy slower.

While :meth:`ParsedTemplates.installed`, heatclient's
``template_format.parse`` goes through the cache; the original is put
back after (the YAML limits are checked before, on the file's text, by
:class:`~tripleo_ephemeral.overcloud.template_processing.LimitedReader`).

:func:`compiled_templates` does the same for the Jinja2 templates of the
template set (THT's ``*.j2.yaml``): a bytecode cache of its own, not
Jinja2's (whose entries are a pickle, loaded before any check): each
entry is the template's compiled code (marshal) with the SHA-1 of its
source (a changed template is compiled again), sealed the same way, for
the Python and Jinja2 that compiled it; an entry that fails its check is
compiled again, and the cache is bounded the same way.
"""

import contextlib
import hashlib
from importlib import metadata
import logging
import marshal
import os
import sys

from tripleo_ephemeral import usercache

LOG = logging.getLogger(__name__)

#: Bytes the cache may hold (THT 18.0.0 at 1+1 takes about 7 MB).
MAX_BYTES = 256 << 20
#: The layout of an entry; a new one is a new key.
FORMAT = b'tripleo-ephemeral parsed template 2'
PARSED_DIR = 'parsed-templates'
COMPILED_DIR = 'compiled-templates'
_SUFFIX = '.parsed'
_COMPILED_SUFFIX = '.j2c'


def _parser_id():
    import yaml

    versions = []
    for name in ('python-heatclient', 'PyYAML'):
        try:
            versions.append(metadata.version(name))
        except metadata.PackageNotFoundError:
            versions.append('?')
    versions.append(str(getattr(yaml, '__with_libyaml__', False)))
    return ' '.join(versions).encode()


class ParsedTemplates:
    """heatclient's parses, kept in ``cache`` (a
    :class:`~tripleo_ephemeral.usercache.UserCache`; default: the
    user's) up to ``max_bytes``."""

    def __init__(self, cache=None, max_bytes=MAX_BYTES):
        self.cache = cache or usercache.cache()
        self.directory = self.cache.directory(PARSED_DIR)
        self.max_bytes = max_bytes
        self.hits = self.misses = 0
        self._salt = FORMAT + b'\0' + _parser_id() + b'\0'
        self._written = False

    def key(self, text):
        if isinstance(text, str):
            text = text.encode('utf-8', 'surrogatepass')
        return hashlib.sha256(self._salt + text).hexdigest()

    def _path(self, key):
        return os.path.join(self.directory, key + _SUFFIX)

    def _load(self, key):
        """The entry of ``key``, or None (none, or one that fails its
        check: gone)."""
        if self.directory is None:
            return None
        path = self._path(key)
        body = self.cache.read(path, PARSED_DIR + '/' + key)
        if body is None:
            return None
        try:
            entry = marshal.loads(body)
            kind, _value = entry
        except (ValueError, EOFError, TypeError):  # sealed, yet not ours
            self.cache.drop(path)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: evicted last
        return entry

    def _store(self, key, entry):
        if self.directory is None:
            return
        try:
            body = marshal.dumps(entry)
        except ValueError:
            return  # not plain data (a YAML tag heatclient keeps as is)
        if self.cache.write(self._path(key), PARSED_DIR + '/' + key, body):
            self._written = True

    def parse(self, parse, text):
        """``parse(text)`` (heatclient's), from the cache when it has it."""
        key = self.key(text)
        entry = self._load(key)
        if entry is None:
            self.misses += 1
            try:
                entry = ('parsed', parse(text))
            except ValueError as exc:
                entry = ('ValueError', str(exc))
            self._store(key, entry)
        else:
            self.hits += 1
        kind, value = entry
        if kind == 'ValueError':
            raise ValueError(value)
        return value

    def evict(self):
        """Remove the entries used longest ago while the cache holds more
        than :attr:`max_bytes`."""
        if self.directory is not None:
            evict(self.directory, _SUFFIX, self.max_bytes)

    @contextlib.contextmanager
    def installed(self):
        """heatclient parses through the cache while inside."""
        from heatclient.common import template_format

        original = template_format.parse
        template_format.parse = lambda text: self.parse(original, text)
        try:
            yield self
        finally:
            template_format.parse = original
            if self._written:
                self.evict()
            LOG.debug('Parsed template cache %s: %d hits, %d misses',
                      self.directory, self.hits, self.misses)


def evict(directory, suffix, max_bytes):
    """Remove the files of ``directory`` named ``*<suffix>`` used longest
    ago (their mtime) while they take more than ``max_bytes``."""
    try:
        entries = []
        with os.scandir(directory) as found:
            for entry in found:
                if entry.name.endswith(suffix):
                    stat = entry.stat()
                    entries.append((stat.st_mtime, stat.st_size,
                                    entry.path))
    except OSError:
        return
    total = sum(size for _mtime, size, _path in entries)
    for _mtime, size, path in sorted(entries):
        if total <= max_bytes:
            break
        with contextlib.suppress(OSError):
            os.unlink(path)
            total -= size


def _remove_jinja_entries(directory):
    """Jinja2's own cache files (a pickle each) that earlier versions
    kept here: removed unread."""
    with contextlib.suppress(OSError), os.scandir(directory) as found:
        for entry in found:
            if entry.name.startswith('__jinja2_') and \
                    entry.name.endswith('.cache'):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _compiled_cache_class():
    import jinja2
    from jinja2 import bccache

    #: What compiled an entry: another Python or Jinja2 never loads it.
    compiler = b'\0'.join((b'tripleo-ephemeral compiled template 1',
                           bccache.bc_magic,
                           sys.implementation.cache_tag.encode(),
                           jinja2.__version__.encode()))

    class CompiledTemplates(jinja2.BytecodeCache):
        """Jinja2's compiled templates, sealed with the user's cache
        key; never a pickle."""

        def __init__(self, cache, directory):
            self.cache = cache
            self.directory = directory
            self.written = False

        def get_bucket(self, environment, name, filename, source):
            # By the template's name in its set, not the path of the work
            # dir's copy: every work dir shares it (its source is checked);
            # and by the environment's class (a sandbox compiles other
            # code), and by the Python and Jinja2 (both keep theirs).
            kind = type(environment).__qualname__
            key = hashlib.sha256(b'\0'.join((
                compiler, kind.encode(), name.encode('utf-8')))).hexdigest()
            bucket = bccache.Bucket(environment, key,
                                    self.get_source_checksum(source))
            self.load_bytecode(bucket)
            return bucket

        def _path(self, bucket):
            return os.path.join(self.directory, bucket.key + _COMPILED_SUFFIX)

        def _context(self, bucket):
            return '%s/%s' % (COMPILED_DIR, bucket.key)

        def load_bytecode(self, bucket):
            path = self._path(bucket)
            data = self.cache.read(path, self._context(bucket))
            if data is None:
                return
            size = int.from_bytes(data[:4], 'big')
            if data[4:4 + size] != self._head(bucket):
                return  # another compiler, or a changed template
            code = data[4 + size:]
            try:
                bucket.code = marshal.loads(code)
            except (EOFError, ValueError, TypeError):
                self.cache.drop(path)
                return
            with contextlib.suppress(OSError):
                os.utime(path)

        @staticmethod
        def _head(bucket):
            return compiler + b'\0' + bucket.checksum.encode()

        def dump_bytecode(self, bucket):
            head = self._head(bucket)
            if self.cache.write(self._path(bucket), self._context(bucket),
                                len(head).to_bytes(4, 'big') + head +
                                marshal.dumps(bucket.code)):
                self.written = True

    return CompiledTemplates


@contextlib.contextmanager
def compiled_templates(cache=None, max_bytes=MAX_BYTES):
    """Yield a Jinja2 bytecode cache in ``cache`` (a
    :class:`~tripleo_ephemeral.usercache.UserCache`; default: the
    user's; None when it cannot be used), bounded to ``max_bytes`` on
    the way out."""
    cache = cache or usercache.cache()
    directory = cache.directory(COMPILED_DIR)
    if directory is None:
        yield None
        return
    _remove_jinja_entries(directory)
    compiled = _compiled_cache_class()(cache, directory)
    try:
        yield compiled
    finally:
        if compiled.written:
            evict(directory, _COMPILED_SUFFIX, max_bytes)
