"""The compressor thread the dumps and the install archives share."""

import threading

import pytest

from tripleo_ephemeral import compressor_thread


def test_items_are_compressed_in_order_on_the_thread():
    done = []

    def compress(item):
        done.append((item, threading.current_thread().name))

    thread = compressor_thread.CompressorThread(compress, 'test-gzip', 2)
    thread.start()
    for n in range(10):
        thread.put(n)
    thread.stop()
    assert done == [(n, 'test-gzip') for n in range(10)]
    assert not thread.is_alive()
    thread.raise_error()  # none


def test_an_error_is_raised_at_the_next_put_and_the_queue_still_drains():
    started = threading.Event()

    def compress(item):
        started.set()
        raise OSError(28, 'No space left on device')

    thread = compressor_thread.CompressorThread(compress, 'test-gzip', 1)
    thread.start()
    thread.put(1)
    started.wait(30)
    with pytest.raises(OSError, match='No space'):
        for n in range(100):  # never blocks: the thread takes them all
            thread.put(n)
    thread.stop()
    assert not thread.is_alive()
    with pytest.raises(OSError, match='No space'):
        thread.raise_error()
