"""What the deploy, lifecycle and status code call: small, and never
fatal to them (a history that cannot be written is a warning).
"""

import contextlib
import dataclasses
import glob
import logging
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import changes
from tripleo_ephemeral.history import edits
from tripleo_ephemeral.history import inputs
from tripleo_ephemeral.history import purge
from tripleo_ephemeral.history import repair
from tripleo_ephemeral.history import runs
from tripleo_ephemeral.history import versions

LOG = logging.getLogger(__name__)

#: What a re-render of config-download carries over (fileutil.replace_dir).
KEEP = (versions.GIT_DIR,)
#: Said of a history no Ansible run applied a version of: rendered only.
NOTHING_APPLIED = 'no version applied yet: rendered only'


def _warn(say, text):
    (say or LOG.warning)('WARNING: %s' % text)


#: Before a render replaces config-download: hand edits kept
#: (:func:`.edits.keep`).
keep_hand_edits = edits.keep


def commit_render(workdir, say=None, adopted=False):
    """Commit the config-download just rendered; return its sha (None if
    nothing changed or the history cannot be written). ``adopted``: the
    render is the adopted stack's, applied by the tooling adopted from.
    A damaged history is mended or moved aside and the render committed
    to a new one (:mod:`.repair`)."""
    history = versions.ConfigHistory(workdir.config_download_dir)
    try:
        parameters = inputs.saved_parameters(workdir)
        secrets = inputs.secrets(workdir, parameters)

        def commit():
            return history.commit(workdir.stack, parameters=parameters,
                                  secrets=secrets)
        try:
            sha = commit()
        except exceptions.HistoryError:
            if not repair.recover(history, say):
                raise
            sha = commit()
        if adopted:
            runs.record(history, runs.ADOPTED, 'adopted stack %s, applied '
                        'by the tooling it was adopted from' % workdir.stack)
    except (exceptions.TripleoEphemeralError, OSError) as exc:
        _warn(say, 'config-download not versioned: %s' % exc)
        return None
    if say:
        say('config-download version %s' % sha[:12] if sha else
            'config-download unchanged since version %s' %
            (history.head() or '')[:12])
    return sha


@contextlib.contextmanager
def recording_run(config_dir, playbook, limit=None, tags=None,
                  skip_tags=None):
    """Record the run of ``playbook`` around the block: applied (partial
    if narrowed) when the block ends, failed when it raises."""
    history = versions.ConfigHistory(config_dir)
    if not runs.applies(config_dir, playbook) or not history.exists():
        yield
        return
    what = runs.describe(playbook, limit, tags, skip_tags)
    try:
        yield
    except BaseException:
        _record(history, runs.FAILED, what)
        raise
    partial = runs.narrowed(config_dir, limit, tags, skip_tags)
    _record(history, runs.PARTIAL if partial else runs.APPLIED, what)


def _record(history, outcome, what):
    try:
        runs.record(history, outcome, what)
    except (exceptions.TripleoEphemeralError, OSError) as exc:
        _warn(None, 'the run was not recorded in the config-download '
              'history: %s' % exc)


class Pending:
    """The rendered version against the applied one: ``head`` and
    ``applied`` (Version or None), ``since`` (the first version not
    applied) and ``diff`` (:class:`~.changes.Diff`)."""

    def __init__(self, head, applied, since, diff, partial=()):
        self.head = head
        self.applied = applied
        self.since = since
        self.diff = diff
        self.partial = list(partial)

    @property
    def undeployed(self):
        return bool(self.diff)

    def summary(self):
        if self.diff is None:
            return 'none: version %s is the one applied' % self.head.short
        text = self.diff.summary()
        if self.applied is None:
            text = '%s (%s)' % (text, NOTHING_APPLIED)
        if self.partial:
            text += '; partly applied by %s' % ', '.join(
                r.message for r in self.partial)
        return text


def pending(config_dir):
    """The :class:`Pending` of ``config_dir``, or None without history."""
    history = versions.ConfigHistory(config_dir)
    if not os.path.isdir(config_dir):
        return None
    history.check_sound()
    if not history.head():
        return None
    head = history.versions(limit=1)[0]
    applied_sha = history.resolve('applied')
    applied = history.versions(applied_sha, limit=1)[0] if applied_sha \
        else None
    if applied_sha == head.sha:
        return Pending(head, applied, None, None)
    newer = history.versions(
        '%s..%s' % (applied_sha, head.sha) if applied_sha else head.sha)
    diff = changes.compare(history, applied_sha, head.sha)
    partial = [r for r in runs.runs(history)
               if r.outcome == runs.PARTIAL and r.sha == head.sha]
    return Pending(head, applied, newer[-1] if newer else head, diff,
                   partial)


def status_values(workdir):
    """``overcloud status``'s columns about the config-download history."""
    columns = ('Config Version', 'Applied Version', 'Undeployed Changes',
               'Undeployed Since', 'Hand Edits')
    try:
        found = pending(workdir.config_download_dir)
        hand = edits.summary(workdir.config_download_dir)
    except exceptions.TripleoEphemeralError as exc:
        return columns, (None, None, 'unknown: %s' % exc, None, None)
    if found is None:
        return columns, (None, None, None, None, None)
    return columns, (
        found.head.short, found.applied.short if found.applied else
        'none (%s)' % NOTHING_APPLIED,
        found.summary() if found.undeployed else 'none',
        found.since.date.isoformat() if found.undeployed else None, hand)


def result_values(workdir, say=None):
    """The deploy result's ``config_version`` and ``undeployed_changes``;
    ``say`` (a render without Ansible) gets them as one line."""
    try:
        found = pending(workdir.config_download_dir)
    except exceptions.TripleoEphemeralError as exc:
        _warn(say, 'config-download history not read: %s' % exc)
        return {}
    if found is None:
        return {}
    summary = found.summary() if found.undeployed else None
    if say and summary:
        say('The next Ansible run would change %s: see "openstack overcloud '
            'config diff"' % summary)
    elif say:
        say('The next Ansible run would change nothing: %s' % (
            found.summary() if found.diff is None else
            'only noise since the applied version (%s)' %
            found.diff.noise_text()))
    return {'config_version': found.head.short,
            'undeployed_changes': summary}


def purge_secrets(workdir):
    """Rewrite the config-download history of ``workdir`` without any
    secret (:func:`.purge.purge`); return its :class:`~.purge.Purged`,
    with ``damaged_copies``: the histories :mod:`.repair` moved aside,
    which keep theirs."""
    history = versions.ConfigHistory(workdir.config_download_dir)
    history.check_sound()
    done = purge.purge(history, *inputs.secrets(workdir))
    return dataclasses.replace(done, damaged_copies=sorted(glob.glob(
        glob.escape(history.config_dir) + '.git-damaged-*')))
