"""heatclient's parse of a template, kept across deploys by its content.

heatclient reads the templates and environments of a deploy (THT's 284
templates at 1+1) and parses each YAML template twice: once to tell a
template from a plain file (``template_utils.is_template``), once to
read it (``get_template_contents``); the parse is most of the inputs'
time, and the same on every deploy of the same templates.
:class:`ParsedTemplates` keeps each parse (or the ValueError that says a
file is no template) under the SHA-256 of its text and of what parses it
(heatclient's and PyYAML's versions, libyaml or not), in the user's cache
(:func:`~tripleo_ephemeral.fileutil.user_cache_dir`), so:

* a changed template has another key: it is never served a stale parse;
* an entry is written to a temporary file and renamed, and holds the
  digest of its body: a torn or damaged one fails the check, is removed
  and parsed again;
* entries are marshal data (dicts, lists, strings, numbers), loaded into
  new objects at every hit (heatclient changes what it parsed);
* the cache holds at most :data:`MAX_BYTES`: past it, the entries used
  longest ago go first;
* a cache that cannot be read or written (a read-only home, a full disk)
  is only slower: the deploy never fails for it.

While :meth:`ParsedTemplates.installed`, heatclient's
``template_format.parse`` goes through the cache; the original is put
back after (the YAML limits are checked before, on the file's text, by
:class:`~tripleo_ephemeral.overcloud.template_processing.LimitedReader`).

:func:`compiled_templates` does the same for the Jinja2 templates of the
template set (THT's ``*.j2.yaml``): Jinja2's own bytecode cache, whose
entries hold the SHA-1 of their template's source (a changed template is
compiled again), written to a temporary file and renamed; an entry it
cannot read is compiled again, and the cache is bounded the same way.
"""

import contextlib
import hashlib
from importlib import metadata
import logging
import marshal
import os

from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

#: Bytes the cache may hold (THT 18.0.0 at 1+1 takes about 7 MB).
MAX_BYTES = 256 << 20
#: The layout of an entry; a new one is a new key.
FORMAT = b'tripleo-ephemeral parsed template 1'
_SUFFIX = '.parsed'
_DIGEST = hashlib.sha256().digest_size


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
    """heatclient's parses, kept in ``directory`` (default: the user's
    cache) up to ``max_bytes``."""

    def __init__(self, directory=None, max_bytes=MAX_BYTES):
        self.directory = directory or fileutil.user_cache_dir(
            'parsed-templates')
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
        """The entry of ``key``, or None (none, or a damaged one: gone)."""
        path = self._path(key)
        try:
            with open(path, 'rb') as f:
                data = f.read()
        except OSError:
            return None
        body = data[_DIGEST:]
        try:
            if data[:_DIGEST] != hashlib.sha256(body).digest():
                raise ValueError('digest')
            entry = marshal.loads(body)
        except (ValueError, EOFError, TypeError):
            LOG.debug('Parsed template cache: %s is damaged, parsed again',
                      path)
            fileutil.remove(path)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: evicted last
        return entry

    def _store(self, key, entry):
        try:
            body = marshal.dumps(entry)
        except ValueError:
            return  # not plain data (a YAML tag heatclient keeps as is)
        try:
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            with fileutil.atomic_open(self._path(key), binary=True,
                                      durable=False) as f:
                f.write(hashlib.sha256(body).digest() + body)
            self._written = True
        except OSError as exc:
            LOG.debug('Parsed template cache: %s not written: %s',
                      self._path(key), exc)

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


#: Jinja2's names for its cache files.
_JINJA_PATTERN = '__jinja2_%s.cache'


@contextlib.contextmanager
def compiled_templates(directory=None, max_bytes=MAX_BYTES):
    """Yield a Jinja2 bytecode cache in ``directory`` (default: the
    user's cache; None when it cannot be made), bounded to ``max_bytes``
    on the way out; an entry it cannot read is compiled again (Jinja2
    would raise on a torn one)."""
    import jinja2

    class CompiledTemplates(jinja2.FileSystemBytecodeCache):

        def get_cache_key(self, name, filename=None):
            # By the template's name in its set, not the path of the work
            # dir's copy: every work dir shares it (its source is checked).
            return hashlib.sha256(name.encode('utf-8')).hexdigest()

        def load_bytecode(self, bucket):
            try:
                super().load_bytecode(bucket)
            except Exception as exc:  # pickle's errors on a torn entry
                LOG.debug('Compiled template cache: %s unread (%s): '
                          'compiled again', bucket.key, exc)
                bucket.reset()
                return
            if bucket.code is not None:
                with contextlib.suppress(OSError):
                    os.utime(self._get_cache_filename(bucket))

        def dump_bytecode(self, bucket):
            self.written = True
            super().dump_bytecode(bucket)

    directory = directory or fileutil.user_cache_dir('compiled-templates')
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError as exc:
        LOG.debug('Compiled template cache %s unusable: %s', directory, exc)
        yield None
        return
    cache = CompiledTemplates(directory, _JINJA_PATTERN)
    cache.written = False
    try:
        yield cache
    finally:
        if cache.written:
            evict(directory, '.cache', max_bytes)
