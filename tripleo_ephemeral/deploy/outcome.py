"""How a deploy's end is recorded: which dump it made, or that it changed
nothing.

A deploy changes the deployment's state only once Heat has taken its stack
create. Before that (Heat failed to start, or crashed) the status file,
the dumps and the install archives stay as they were. After it, the dump
is recorded with how the deploy ended (:mod:`..heat_launcher.generations`):
a successful deploy's dump is kept out of the rotation.
"""

import os

from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral import interruption


class Stage:
    """How far a deploy got with Heat: the create ``sent``, then accepted."""

    def __init__(self):
        self.sent = False
        self.accepted = False

    def accept(self):
        self.accepted = True

    def changed(self):
        """Whether Heat may hold the stack: it took the create, or an
        interruption cut the request short (the stack may be stored)."""
        return self.accepted or (self.sent and interruption.requested())

    def heat_origin(self, origin):
        """What the dump made when Heat stops comes from; None: no dump
        (Heat never took the stack: its database holds nothing of this
        deploy)."""
        if not self.changed():
            return None
        if interruption.requested():
            return generations.DEPLOY_INTERRUPTED
        return origin or generations.DEPLOY_FAILED


def record(launcher, dump, succeeded):
    """Say how the deploy whose stack is in ``dump`` ended, once its stack
    was made (``deploy``: the end decides). A Heat left running
    (``--keep-running``) keeps the outcome for the dump its ``--kill``
    makes."""
    store = launcher.dumps
    if not dump:
        if launcher.ephemeral and launcher.is_running():
            launcher.state.save(dump_origin=_ended(succeeded))
        return
    made_by = store.manifest.record(os.path.basename(dump)).get('origin')
    if made_by != generations.DEPLOY:
        return  # failed or interrupted in Heat: already recorded
    store.record_origin(dump, _ended(succeeded))


def _ended(succeeded):
    if succeeded:
        return generations.DEPLOY_SUCCESS
    if interruption.requested():
        return generations.DEPLOY_INTERRUPTED
    return generations.DEPLOY_FAILED


def unchanged(workdir, previous, say, launcher):
    """Heat never took the stack: put the status back as it was; no dump,
    no archive, and not the (empty) database of this launch either."""
    workdir.restore_status(previous)
    if launcher.ephemeral and not launcher.is_running():
        launcher.database.remove()
    say('Heat failed before it took stack %s: the deployment status (%s), '
        'the dumps and the install archives are as they were' % (
            workdir.stack, previous or 'none'))
