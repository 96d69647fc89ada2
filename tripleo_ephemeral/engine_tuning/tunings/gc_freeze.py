"""Python's garbage collector kept off what exists once Heat has started.

A 200-member create spent a seventh of its CPU in the cyclic garbage
collector, most of it in full collections walking Heat's and its
libraries' own long-lived objects.
"""

import gc


def install_gc_freeze(patches):
    """Move every object that exists now out of the collector's reach."""
    # No gc.collect() first: it would cost 0.1-0.2 s of the launch and
    # found nothing to free here after Heat's imports.
    gc.freeze()
    patches.on_undo(gc.unfreeze)
