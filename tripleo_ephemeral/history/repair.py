"""A damaged config-download history: reported in one line, and the
render kept.

A ``.git`` that git cannot use any more (its ``HEAD`` removed, an object
truncated, the index corrupt) never loses a render nor sends git looking
for another repository: a bad index is made again from the last version
(it holds nothing else); anything else moves the ``.git`` aside, named and
dated (``config-download/<stack>.git-damaged-<UTC time>``), and a new
history starts with what is in the directory.
"""

import logging

from tripleo_ephemeral.history import versions

LOG = logging.getLogger(__name__)


def _warn(say, text):
    (say or LOG.warning)('WARNING: %s' % text)


def recover(history, say=None):
    """Mend or set aside ``history`` if it is damaged; return whether it
    was (the caller then writes again)."""
    reason = history.damage()
    if reason is None:
        return False
    if reason == versions.INDEX_DAMAGED:
        history.rebuild_index()
        _warn(say, 'the git index of %s could not be read: made again from '
              'its last version (the history and the files are as they '
              'were)' % history.config_dir)
        return True
    aside = history.set_aside()
    _warn(say, 'config-download\'s git history is damaged (%s): moved to '
          '%s and a new history keeps the render; delete the old one once '
          'you need nothing from it' % (reason, aside))
    return True


def ensure_sound(history, stack, secrets, say=None):
    """Before a render replaces config-download: if it has no history
    (made before there was one, or ``.git`` removed) or a damaged one,
    mend it or start one holding the directory as found (hand edits
    included: they cannot be told apart; their ``secrets``, ``(values,
    names)``, masked). Returns the sha of that version, or None."""
    if history.exists():
        if not recover(history, say) or history.exists():
            return None
        why = 'its history was damaged and moved aside'
    else:
        why = 'it had no history'
    history.remember_secrets(*secrets)
    sha = history.commit_edits(
        '%s config-download as found before a render (%s)\n\nStack: '
        '%s\n' % (stack, why, stack), author=None)
    if sha:
        (say or LOG.warning)(
            'config-download as found kept as version %s: "openstack '
            'overcloud config diff --from %s" shows what the render '
            'changes' % (sha[:12], sha[:12]))
    return sha
