"""Hand edits: files of config-download changed since the last version.

An operator's hotfix in ``group_vars/...``, a file they added or removed
is theirs. ``overcloud status`` and ``overcloud config diff`` name them;
before a render replaces config-download they are committed as a version
of their own, on top of the last render, authored as the operator's hand
edits, and the render then replaces the directory (its version follows,
so the next Ansible run applies the render, not the edit). The progress
line says how to carry them over; nothing is removed unsaid.
"""

import getpass
import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import inputs
from tripleo_ephemeral.history import repair
from tripleo_ephemeral.history import versions

LOG = logging.getLogger(__name__)

#: Files named in one line before "...".
SHOWN = 5


def author():
    """The hand edits' author: the operator, as such."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = 'operator'
    return ('%s (hand edits)' % user, '%s@localhost' % user)


def counts(edits):
    """``2 modified, 1 added`` of ``[(change, path)]``."""
    return ', '.join('%d %s' % (n, change) for change, n in (
        (c, sum(1 for e, _ in edits if e == c)) for c in versions.EDITS)
        if n)


def listing(edits):
    """The files of ``[(change, path)]``, the first :data:`SHOWN`."""
    return ', '.join(['%s (%s)' % (path, change)
                      for change, path in edits[:SHOWN]] +
                     (['...'] if len(edits) > SHOWN else []))


def describe(edits):
    """One phrase naming the files of ``[(change, path)]``."""
    return '%d file(s): %s' % (len(edits), listing(edits))


def carry_over(config_dir, sha):
    """The command that applies a hand edits version to the files."""
    return 'git -C %s cherry-pick -n %s' % (config_dir, sha[:12])


def _message(stack, edits, head):
    listing = ''.join('%s %s\n' % e for e in edits)
    return ('%s config-download edited by hand: %s\n\n'
            'Changed since version %s, kept before a render replaced '
            'them.\n\n%s\nStack: %s\nHand-Edits: %d\n' % (
                stack, counts(edits), (head or 'none')[:12], listing, stack,
                len(edits)))


def keep(workdir, say=None):
    """Before a render replaces config-download: keep what was changed by
    hand as a version of its own and say so; a damaged history is
    mended or set aside first (:mod:`.repair`). Returns the sha of the
    version kept, or None. Never fatal: what cannot be kept is a
    warning."""
    history = versions.ConfigHistory(workdir.config_download_dir)
    if not os.path.isdir(history.config_dir):
        return None
    tell = say or LOG.warning
    try:
        secrets = inputs.secrets(workdir)
        found = repair.ensure_sound(history, workdir.stack, secrets, say)
        if found:
            return found
        history.remember_secrets(*secrets)
        edits = history.uncommitted()
        if not edits:
            return None
        head = history.head()
        sha = history.commit_edits(_message(workdir.stack, edits, head),
                                   author())
    except (exceptions.TripleoEphemeralError, OSError) as exc:
        tell('WARNING: hand edits of %s not looked for: %s; this render '
             'replaces the directory' % (history.config_dir, exc))
        return None
    if sha:
        tell('config-download had hand edits (%s: %s): kept as version '
             '%s, which this render replaces; carry them over with "%s"'
             % (counts(edits), listing(edits), sha[:12],
                carry_over(history.config_dir, sha)))
    return sha


def summary(config_dir):
    """``overcloud status``'s text of the hand edits of ``config_dir``:
    'none', or what they are."""
    history = versions.ConfigHistory(config_dir)
    if not os.path.isdir(config_dir) or not history.head():
        return None
    edits = history.uncommitted()
    if not edits:
        return 'none'
    return ('%s; the next render keeps them as a version of their own, '
            'then replaces them' % describe(edits))
