"""A compressor on a thread of its own, fed through a short queue: how
the Heat dumps (``heat_db/gzip_pipe.py``) and the install archives
(``archives/mixed_gzip.py``) are written.

zlib and ISA-L let go of the GIL while they compress, so the caller's
reading (SQLite's rows, tarfile's members) and the compressing overlap,
each on its core.
"""

import queue
import threading


class CompressorThread(threading.Thread):
    """A daemon thread that calls ``compress`` with each item :meth:`put`,
    in order, and writes nothing itself: ``compress`` does.

    At most ``depth`` items wait, so memory stays bounded whatever the
    caller writes. An error of ``compress`` (a full disk) is raised to the
    caller at its next :meth:`put`, or by :meth:`raise_error` once the
    thread is stopped; the thread then takes the items still handed to it
    without compressing them, so the caller never waits on a full queue.
    """

    def __init__(self, compress, name, depth):
        super().__init__(name=name, daemon=True)
        self._compress = compress
        self._queue = queue.Queue(depth)
        self.error = None

    def run(self):
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self.error is None:
                try:
                    self._compress(item)
                except BaseException as exc:  # raised again by the caller
                    self.error = exc

    def put(self, item):
        """Hand ``item`` to the thread (waiting while ``depth`` items
        wait); first raise the thread's error, if it had one."""
        self.raise_error()
        self._queue.put(item)

    def raise_error(self):
        """Raise what ``compress`` raised, if it raised."""
        if self.error is not None:
            raise self.error

    def stop(self):
        """Let the thread take what it was handed, then end it; wait."""
        self._queue.put(None)
        self.join()
