"""Bytes in, gzip out, compressed on a second thread: how dumps are written.

The compressor is ISA-L's (``isal``, where its wheel installs: x86-64 and
aarch64), else zlib's. Both write the same format, one gzip member any
gzip reads; ISA-L's level 1 takes about a fifth of zlib's level 1 CPU
for a smaller file (THT 3+500's 935 MB of SQL: 1.0 s of CPU instead of
5.2, 101 MB instead of 104).
"""

import hashlib
import zlib

from tripleo_ephemeral import compressor_thread

try:
    from isal import isal_zlib as _deflate
except ImportError:  # no wheel for this machine: the standard library's
    _deflate = zlib

#: gzip (a header and a trailer around the deflate stream), 32 KiB window.
_GZIP_WBITS = 16 + 15
#: Level 1 of either: the fastest that still finds the repeats in SQL.
LEVEL = 1


def compressor_name():
    """Which compressor dumps are written with: ``isal`` or ``zlib``."""
    return 'zlib' if _deflate is zlib else 'isal'


class GzipPipe:
    """Bytes in, gzip out to the binary file ``raw``: compressed on a
    second thread while they are read.

    The compressors let go of the GIL while they compress, so the reading
    (in SQLite, also GIL-free) and the compressing overlap
    (:class:`~tripleo_ephemeral.compressor_thread.CompressorThread`). Data
    goes over in pieces of at least 256 KiB through a short queue, so
    memory stays bounded whatever the database. The SHA-256 of what was
    written is :meth:`hexdigest` once closed: no need to read the file
    again.
    An error of the writing thread (a full disk) is raised to the caller
    at its next write or at the end.
    """

    SIZE = 256 * 1024
    DEPTH = 4

    def __init__(self, raw):
        self._raw = raw
        self._deflate = _deflate.compressobj(LEVEL, _deflate.DEFLATED,
                                             _GZIP_WBITS)
        self._digest = hashlib.sha256()
        self._parts, self._size = [], 0
        self._thread = compressor_thread.CompressorThread(
            self._compress, 'dump-gzip', self.DEPTH)
        self._thread.start()

    def _compress(self, data):
        self._out(self._deflate.compress(data))

    def _out(self, data):
        if data:
            self._raw.write(data)
            self._digest.update(data)

    def write(self, text):
        """Text, written as UTF-8."""
        self.write_bytes(text.encode('utf-8'))

    def write_bytes(self, data):
        if len(data) >= self.SIZE:
            self._send()
            self._thread.put(data)
            return
        self._parts.append(data)
        self._size += len(data)
        if self._size >= self.SIZE:
            self._send()

    def _send(self):
        if self._parts:
            self._thread.put(b''.join(self._parts))
            self._parts, self._size = [], 0

    def hexdigest(self):
        """The SHA-256 of the gzip bytes written, once closed."""
        return self._digest.hexdigest()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                self._send()
        finally:
            self._thread.stop()
        if exc_type is None:
            self._thread.raise_error()
            self._out(self._deflate.flush())
