"""A gzip file written at two levels: compressed data is stored as it is.

Most of an install archive's bytes are the Heat dump, gzipped already:
compressing it again costs as much CPU as the rest of the archive (0.24 s
for THT 1+1's 6 MB dump at level 1, 0.02 s to store it) and gains about
1 %. :class:`MixedGzip` is the file a :mod:`tarfile` writes into: the
archiver calls :meth:`MixedGzip.store` before a member that is compressed
already (:func:`compressed`), and :meth:`MixedGzip.compress` before the
others.

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

#: Names (lower case) of files that are compressed already.
COMPRESSED_SUFFIXES = ('.gz', '.tgz', '.bz2', '.xz', '.zst', '.zip')


def compressed(name):
    """Whether the file ``name`` is compressed already."""
    return name.lower().endswith(COMPRESSED_SUFFIXES)


class MixedGzip:
    """A write-only gzip file over ``raw`` (a binary file, left open):
    data written after :meth:`store` is stored, after :meth:`compress`
    compressed at ``level``; :meth:`close` ends it."""

    def __init__(self, raw, level):
        self._raw = raw
        self._level = level
        self._current = level
        self._deflate = None
        self._crc = 0
        self._size = 0
        # The header of gzip (RFC 1952): no name; XFL 4 is "fastest".
        raw.write(b'\x1f\x8b\x08\x00' + struct.pack('<I', int(time.time())) +
                  (b'\x04' if level == 1 else b'\x00') + b'\xff')

    def store(self):
        """Store what is written next, as it is."""
        self._switch(0)

    def compress(self):
        """Compress what is written next at the level given."""
        self._switch(self._level)

    def _switch(self, level):
        if level == self._current:
            return
        if self._deflate is not None:
            self._raw.write(self._deflate.flush(zlib.Z_SYNC_FLUSH))
            self._deflate = None
        self._current = level

    def write(self, data):
        if not data:
            return 0
        if self._deflate is None:
            self._deflate = zlib.compressobj(self._current, zlib.DEFLATED,
                                             -zlib.MAX_WBITS)
        self._raw.write(self._deflate.compress(data))
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        return len(data)

    def tell(self):
        """Bytes written (uncompressed): tarfile asks."""
        return self._size

    def close(self):
        """End the deflate stream and write gzip's trailer."""
        deflate = self._deflate or zlib.compressobj(
            self._current, zlib.DEFLATED, -zlib.MAX_WBITS)
        self._deflate = None
        self._raw.write(deflate.flush(zlib.Z_FINISH))
        self._raw.write(struct.pack('<II', self._crc,
                                    self._size & 0xffffffff))
