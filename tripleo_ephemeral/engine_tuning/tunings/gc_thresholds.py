"""Python's garbage collector run less often (see :mod:`.gc_freeze`)."""

import gc


def install_gc_thresholds(patches, gc_thresholds):
    """Collect less often than Python's 700,10,10."""
    stock = gc.get_threshold()
    gc.set_threshold(*(int(t) for t in gc_thresholds))
    patches.on_undo(lambda: gc.set_threshold(*stock))
