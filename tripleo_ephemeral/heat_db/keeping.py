"""What a heat dir keeps of a Heat's database when that Heat ends.

A graceful stop dumps the database into the heat dir's dump store
(:class:`~.dumps.DumpStore`) and records what made the dump
(:mod:`.generations`), then removes the live database: the dump is the
artifact (:func:`keep`). A database with no stack is not dumped over a
dump that has one. Before a fresh start, the database a crashed run left
behind is kept as the dump its stop never made (:func:`recover`).
``say`` prints a line of progress in both.
"""

import os
import time

from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral import interruption


def _worth_dumping(database, store, say):
    """(whether to dump, the number of stacks)."""
    if not database.has_data():
        return False, 0
    stacks = database.stack_count()
    if stacks == 0 and store.all():
        say('The Heat database holds no stack: not dumped, the newest dump '
            '%s stays the newest' % store.latest)
        return False, stacks
    return True, stacks


def keep(database, store, origin, say):
    """Dump ``database`` into ``store`` (made by ``origin``) if it is worth
    it, then remove it; return (the dump's path, seconds it took), or
    (None, None) when nothing was dumped."""
    worth, stacks = _worth_dumping(database, store, say)
    if not worth:
        database.remove()
        return None, None
    started = time.monotonic()
    with interruption.activity('dumping the Heat database'):
        path = database.dump(store, consume=True)
        store.record_origin(path, origin, stacks)
    seconds = time.monotonic() - started
    say('Dumped the Heat database to %s (%d bytes, %.1fs)' % (
        path, os.path.getsize(path), seconds))
    # The dump is the artifact; the live database goes with Heat.
    database.remove()
    return path, seconds


def recover(database, store, say):
    """Before a start from an empty database: keep the old one as a dump,
    as the stop a crashed run never made would have (an empty one only if
    there is no dump yet), then remove it."""
    if not database.has_data():
        return
    kept = store.all()
    stacks = database.stack_count()
    if database.newer_than(kept[:1]) and (stacks != 0 or not kept):
        path = database.dump(store, consume=True)
        store.record_origin(path, generations.RECOVERED, stacks)
        say('Found the database of a Heat that did not stop cleanly: kept '
            'it as the dump %s' % path)
    database.remove()
