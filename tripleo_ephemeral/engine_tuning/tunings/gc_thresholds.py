"""Python's garbage collector run less often (see :mod:`.gc_freeze`)."""

import gc

from tripleo_ephemeral.engine_tuning.patching import Patches
from tripleo_ephemeral.engine_tuning.spec import Option
from tripleo_ephemeral.engine_tuning.spec import Shim


def install(patches: Patches, gc_thresholds: list[str]) -> None:
    """Collect less often than Python's 700,10,10."""
    stock = gc.get_threshold()
    gc.set_threshold(*(int(t) for t in gc_thresholds))
    patches.on_undo(lambda: gc.set_threshold(*stock))


SHIM = Shim(
    'gc_thresholds', install, stage='started',
    untargeted='calls Python\'s documented gc.set_threshold() (undone '
               'with the stock thresholds): no code is replaced',
    options=(Option(
        'gc_thresholds', 'list', '', '10000,20,20',
        help='Thresholds of Python\'s cyclic garbage collector, '
             'generation 0,1,2 (empty: Python\'s 700,10,10).'),))
