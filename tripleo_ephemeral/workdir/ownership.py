"""Whether a directory is this product's to use as a work dir.

A new or empty directory is; so is one it claimed (:mod:`.claim`), one an
earlier version wrote (:data:`OUR_SIGNS`; claimed at the next write), and
one holding only the operator's files, none of them a name the product
writes (:mod:`.layout`): deploying there is allowed, and those files stay
the operator's. Anything else is refused in one line before anything is
written: another tool's work dir (tripleoclient's, :mod:`.foreign`, with
the ``overcloud adopt`` that takes it in), or a file the product would
overwrite. It only reads.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import locking
from tripleo_ephemeral.workdir import claim
from tripleo_ephemeral.workdir import foreign
from tripleo_ephemeral.workdir import layout
from tripleo_ephemeral.workdir import work_dir as work_dir_mod

#: WorkDir properties naming files only this product writes: a work dir
#: holding one was made by it (versions before the claim wrote none).
OUR_SIGNS = ('deploy_inputs_file', 'last_success_file', 'outputs_file',
             'adoption_file')
#: The same in a heat dir (the launchers' state, secret, key, dumps and
#: lock; tripleoclient's has none of them).
HEAT_DIR_SIGNS = ('launcher-state.json', 'api_secret', 'dumps.json',
                  'auth_encryption_key', 'heat-db-dump.sql.gz',
                  locking.LOCK_NAME)


def made_by_us(workdir):
    """Whether the product wrote the work dir ``workdir``: its claim, its lock,
    or a file only the product writes."""
    return claim.read(workdir.path) is not None or any(
        os.path.exists(getattr(workdir, p)) for p in OUR_SIGNS) or \
        os.path.exists(workdir.join(locking.LOCK_NAME)) or \
        heat_dir_made_by_us(workdir.heat_dir)


def heat_dir_made_by_us(heat_dir):
    return any(os.path.exists(os.path.join(heat_dir, n))
               for n in HEAT_DIR_SIGNS)


def check(workdir):
    """Raise ForeignWorkDirError unless the work dir ``workdir`` (a WorkDir) is
    the product's to use, as the module says; then check its status file
    (:meth:`~tripleo_ephemeral.workdir.WorkDir.status`)."""
    try:
        names = os.listdir(workdir.path)
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise exceptions.ForeignWorkDirError(
            '%s is a file, not a work dir: choose another --work-dir'
            % workdir.path)
    if not names:
        return
    if not made_by_us(workdir):
        _refuse_unclaimed(workdir, names)
    if os.path.exists(workdir.status_file):
        workdir.status()


def checked_work_dir(path: str | None, stack: str) -> 'work_dir_mod.WorkDir':
    """The :class:`~tripleo_ephemeral.workdir.WorkDir` of ``stack`` in
    ``path`` (None: the default), when ``stack`` is a name Heat takes
    (:func:`~tripleo_ephemeral.workdir.check_stack_name`) and the directory
    is the product's to use (:func:`check`): how every command opens the
    work dir it is given."""
    work_dir_mod.check_stack_name(stack)
    workdir = work_dir_mod.WorkDir(path, stack)
    check(workdir)
    return workdir


def _refuse_unclaimed(workdir, names):
    refuse_tripleoclient(workdir.path, workdir.stack, '--work-dir')
    ours = layout.Layout(workdir, [workdir.stack])
    taken = [n for n in sorted(names) if ours.owns(n)]
    if taken:
        raise exceptions.ForeignWorkDirError(
            '%s holds %s, which this product did not write and would '
            'overwrite: move %s away, or choose another --work-dir' % (
                workdir.path, ', '.join(taken[:3]),
                'them' if len(taken) > 1 else 'it'))


def refuse_tripleoclient(path, stack, option):
    """Raise ForeignWorkDirError if tripleoclient left a deployment in the
    directory ``path`` (a work dir, or one holding its heat dir)."""
    found = foreign.Tripleoclient(path)
    if found.evidence():
        raise exceptions.ForeignWorkDirError(
            '%s holds a deployment another tool made (tripleoclient\'s %s), '
            'which is left untouched: adopt it into a work dir of its own '
            'with "%s" (%s holds the auth_encryption_key of its Heat: '
            'Heat\'s built-in one for RHOSP 17.1, see "Adopting a 17.1 '
            'deployment" in the docs), or choose another %s' % (
                path, found.describe(), found.way_in(stack),
                foreign.KEY_FILE, option))


def check_heat_dir(heat_dir, stack):
    """Raise ForeignWorkDirError unless ``heat_dir`` (given on its own, as
    --heat-dir) is new, empty or a heat dir of this product's."""
    try:
        names = sorted(os.listdir(heat_dir))
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise exceptions.ForeignWorkDirError(
            '%s is a file, not a heat dir: choose another --heat-dir'
            % heat_dir)
    if not names or heat_dir_made_by_us(heat_dir):
        return
    if foreign.Tripleoclient(os.path.dirname(heat_dir)).heat_dir_signs():
        refuse_tripleoclient(os.path.dirname(heat_dir), stack, '--heat-dir')
    raise exceptions.ForeignWorkDirError(
        '%s holds %s, which this product did not write: a heat dir is '
        'wholly the product\'s; choose another --heat-dir' % (
            heat_dir, ', '.join(names[:3])))


def stacks(workdir):
    """The stacks the work dir ``workdir`` holds for the product: its claim's,
    else (an earlier version wrote it) ``workdir.stack`` if it is the
    product's."""
    found = claim.stacks(workdir.path)
    if not found and made_by_us(workdir):
        found = [workdir.stack]
    return found
