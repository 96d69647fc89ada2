"""How a deploy's end is recorded: which dump it made, or that it changed
nothing.

A deploy changes the deployment's state only once Heat has taken its stack
create. Before that (Heat failed to start, or crashed) the status file,
the dumps and the install archives stay as they were. After it, the dump
is recorded with how the deploy ended (:mod:`..heat_launcher.generations`):
a successful deploy's dump is kept out of the rotation.
"""

import os

from tripleo_ephemeral.heat_launcher import generations
from tripleo_ephemeral import interruption


def heat_origin(origin, accepted):
    """What the dump made when Heat stops comes from; None: no dump (Heat
    never took the stack, so its database holds nothing of this deploy)."""
    if not accepted:
        return None
    if interruption.requested():
        return generations.DEPLOY_INTERRUPTED
    return origin or generations.DEPLOY_FAILED


def record(store, dump, succeeded):
    """Say how the deploy whose stack is in ``dump`` ended, once its stack
    was made (``deploy``: the end decides)."""
    if not dump:
        return
    made_by = store.manifest.record(os.path.basename(dump)).get('origin')
    if made_by != generations.DEPLOY:
        return  # failed or interrupted in Heat: already recorded
    if succeeded:
        origin = generations.DEPLOY_SUCCESS
    elif interruption.requested():
        origin = generations.DEPLOY_INTERRUPTED
    else:
        origin = generations.DEPLOY_FAILED
    store.record_origin(dump, origin)


def unchanged(workdir, previous, say):
    """Heat never took the stack: put the status back as it was; no dump,
    no archive."""
    workdir.restore_status(previous)
    say('Heat failed before it took stack %s: the deployment status (%s), '
        'the dumps and the install archives are as they were' % (
            workdir.stack, previous or 'none'))
