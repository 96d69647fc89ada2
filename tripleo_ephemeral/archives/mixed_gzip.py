"""A gzip file written at two levels: compressed data is stored as it is,
and the rest compressed on a thread of its own.

Most of an install archive's bytes are the Heat dump, gzipped already:
compressing it again costs as much CPU as the rest of the archive (0.24 s
for THT 1+1's 6 MB dump at level 1, 0.02 s to store it) and gains about
1 %. :class:`MixedGzip` is the file a :mod:`tarfile` writes into: the
archiver calls :meth:`MixedGzip.store` before a member that is compressed
already (:func:`compressed`), and :meth:`MixedGzip.compress` before the
others. zlib lets go of the GIL while it compresses, so the compression
runs on a thread beside tarfile's reading and headers
(:class:`~tripleo_ephemeral.compressor_thread.CompressorThread`; the
archive is written once the deploy is over, when the second core is
free).

The result is one gzip member holding one deflate stream, as ``tarfile``'s
``w:gz`` writes: each stretch is a run of non-final deflate blocks (a
compressor at its level, flushed to a byte boundary with
``Z_SYNC_FLUSH``), a level 0 stretch is stored blocks, and the last
compressor ends the stream. Every gzip reader reads it, Python's streaming
``r|gz`` included (it reads only the first of several gzip members).
"""

import struct
import time
import zlib

from tripleo_ephemeral import compressor_thread

#: Names (lower case) of files that are compressed already.
COMPRESSED_SUFFIXES = ('.gz', '.tgz', '.bz2', '.xz', '.zst', '.zip')
#: Bytes handed to the compressing thread at a time, and how many such
#: chunks may wait for it.
CHUNK = 256 * 1024
WAITING = 8


def compressed(name):
    """Whether the file ``name`` is compressed already."""
    return name.lower().endswith(COMPRESSED_SUFFIXES)


class MixedGzip:
    """A write-only gzip file over ``raw`` (a binary file, left open):
    data written after :meth:`store` is stored, after :meth:`compress`
    compressed at ``level``. A context manager: it ends the file when the
    block succeeds (:meth:`close`), and only stops its thread when the
    block fails."""

    def __init__(self, raw, level):
        self._raw = raw
        self._level = level
        self._current = level
        self._pending = []
        self._pending_size = 0
        self._size = 0
        self._thread = None
        # The compressing thread's: its deflate stream (at its level) and
        # the CRC and size of what it took.
        self._deflate = None
        self._deflate_level = None
        self._crc = 0
        self._taken = 0

    def __enter__(self):
        # The header of gzip (RFC 1952): no name; XFL 4 is "fastest".
        self._raw.write(b'\x1f\x8b\x08\x00' +
                        struct.pack('<I', int(time.time())) +
                        (b'\x04' if self._level == 1 else b'\x00') + b'\xff')
        self._thread = compressor_thread.CompressorThread(
            self._compress, 'archive-gzip', WAITING)
        self._thread.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self._stop()

    def store(self):
        """Store what is written next, as it is."""
        self._switch(0)

    def compress(self):
        """Compress what is written next at the level given."""
        self._switch(self._level)

    def _switch(self, level):
        if level != self._current:
            self._hand_over()
            self._current = level

    def write(self, data):
        if data:
            self._pending.append(bytes(data))
            self._pending_size += len(data)
            self._size += len(data)
            if self._pending_size >= CHUNK:
                self._hand_over()
        return len(data)

    def tell(self):
        """Bytes written (uncompressed): tarfile asks."""
        return self._size

    def close(self):
        """End the deflate stream and write gzip's trailer; raise what
        writing raised."""
        thread = self._thread
        try:
            self._hand_over()
        finally:
            self._stop()
        thread.raise_error()
        deflate = self._deflate or zlib.compressobj(
            self._level, zlib.DEFLATED, -zlib.MAX_WBITS)
        self._raw.write(deflate.flush(zlib.Z_FINISH))
        self._raw.write(struct.pack('<II', self._crc,
                                    self._taken & 0xffffffff))

    def _hand_over(self):
        self._thread.raise_error()
        if self._pending:
            self._thread.put((self._current, b''.join(self._pending)))
            self._pending, self._pending_size = [], 0

    def _stop(self):
        if self._thread is not None:
            self._thread.stop()
            self._thread = None

    def _compress(self, item):
        """On the thread: compress (or store) a chunk at its level, a
        stretch at another level flushed to a byte boundary first."""
        level, data = item
        if self._deflate is not None and level != self._deflate_level:
            self._raw.write(self._deflate.flush(zlib.Z_SYNC_FLUSH))
            self._deflate = None
        if self._deflate is None:
            self._deflate_level = level
            self._deflate = zlib.compressobj(level, zlib.DEFLATED,
                                             -zlib.MAX_WBITS)
        self._raw.write(self._deflate.compress(data))
        self._crc = zlib.crc32(data, self._crc)
        self._taken += len(data)
