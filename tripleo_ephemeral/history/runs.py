"""What Ansible applied: a ref and a tag per run of config-download.

A run that succeeds moves :data:`~.versions.APPLIED_REF` to the version it
ran and tags it ``applied-<UTC time>``; a run that fails (or is
interrupted) tags it ``failed-<UTC time>`` and moves nothing; so does a
run that succeeds on part of the overcloud only (``--limit``, ``--tags``,
``--skip-tags``), tagged ``partial-<UTC time>``. The tag's message names
the playbook and what narrowed the run.
"""

import datetime
import os

from tripleo_ephemeral.history import versions

#: The playbooks that apply config-download to the hosts.
APPLYING = ('deploy_steps_playbook.yaml', 'update_steps_playbook.yaml',
            'upgrade_steps_playbook.yaml', 'post_upgrade_steps_playbook.yaml',
            'external_update_steps_playbook.yaml',
            'external_upgrade_steps_playbook.yaml')
APPLIED, FAILED, PARTIAL, ADOPTED = ('applied', 'failed', 'partial',
                                     'adopted')
#: Skipped tags that leave a run whole: the in-flight validations only
#: check (the deploy skips them unless --inflight-validations).
CHECK_ONLY_TAGS = ('opendev-validation',)
#: The outcomes that make a version the applied one.
APPLYING_OUTCOMES = (APPLIED, ADOPTED)


class Run:
    """A recorded run: ``outcome`` (applied/failed/adopted), ``sha``,
    ``date`` and the tag's ``message``."""

    def __init__(self, tag, sha, date, message):
        self.tag = tag
        self.outcome = tag.split('-', 1)[0]
        self.sha = sha
        self.date = date
        self.message = message


def applies(config_dir, playbook):
    """Whether running ``playbook`` applies ``config_dir``'s version."""
    playbook = os.path.abspath(playbook)
    return (os.path.dirname(playbook) == os.path.abspath(config_dir) and
            os.path.basename(playbook) in APPLYING)


def record(history, outcome, what, now=None):
    """Tag the current version with ``outcome``; an applied (or adopted)
    one becomes the applied version. Returns the tag, or None when there
    is no version to tag."""
    sha = history.head()
    if not sha:
        return None
    now = now or datetime.datetime.now(datetime.timezone.utc)
    tag = '%s-%s' % (outcome, now.strftime('%Y%m%dT%H%M%S.%fZ'))
    if history.dirty():
        what += ' (the directory had been edited since this version)'
    history.git.run('tag', '-a', '-F', '-', tag, sha, input=what + '\n')
    if outcome in APPLYING_OUTCOMES:
        history.git.run('update-ref', '-m', tag, versions.APPLIED_REF, sha)
    return tag


def narrowed(config_dir, limit=None, tags=None, skip_tags=None):
    """Whether a run with these options configures only part of the
    overcloud. A limit naming every host (``all``, ``allovercloud`` or the
    stack's group, the config-download dir's name) does not narrow it."""
    whole = ('all', 'allovercloud', os.path.basename(
        os.path.abspath(config_dir)))
    skipped = {t.strip() for t in (skip_tags or '').split(',') if t.strip()}
    return bool((limit and limit not in whole) or tags or
                skipped - set(CHECK_ONLY_TAGS))


def describe(playbook, limit=None, tags=None, skip_tags=None):
    """One line naming a run's playbook and what narrowed it."""
    parts = [os.path.basename(playbook)]
    for flag, value in (('--limit', limit), ('--tags', tags),
                        ('--skip-tags', skip_tags)):
        if value:
            parts.append('%s %s' % (flag, value))
    return ' '.join(parts)


def runs(history):
    """The recorded runs, newest first."""
    if not history.head():
        return []
    out = history.git.text(
        'for-each-ref',
        '--format=%(refname:short)%1f%(*objectname)%1f'
        '%(creatordate:unix)%1f%(contents:subject)', 'refs/tags/')
    found = []
    for line in out.splitlines():
        tag, sha, date, message = line.split('\x1f', 3)
        if tag.split('-', 1)[0] in (APPLIED, FAILED, PARTIAL, ADOPTED):
            found.append(Run(tag, sha, versions.when(date), message))
    # Newest first by the tag's own time (microseconds; the tag date has
    # seconds only).
    return sorted(found, key=lambda r: r.tag.split('-', 1)[1], reverse=True)
