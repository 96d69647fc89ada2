"""Python's garbage collector kept off what exists once Heat has started.

A 200-member create spent a seventh of its CPU in the cyclic garbage
collector, most of it in full collections walking Heat's and its
libraries' own long-lived objects.
"""

import gc

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim


def install(patches: Patches) -> None:
    """Move every object that exists now out of the collector's reach."""
    # No gc.collect() first: it would cost 0.1-0.2 s of the launch and
    # found nothing to free here after Heat's imports.
    gc.freeze()
    patches.on_undo(gc.unfreeze)


SHIM = Shim(
    # Python's public gc module: nothing to fingerprint.
    'gc_freeze', install, stage='started',
    untargeted='calls Python\'s documented gc.freeze() (undone by '
               'gc.unfreeze()): no code is replaced',
    options=(Option(
        'gc_freeze', 'bool', False, True,
        help='Move every object that exists once Heat has started out '
             'of the garbage collector\'s reach (gc.freeze): full '
             'collections then scan only what came after.'),))
