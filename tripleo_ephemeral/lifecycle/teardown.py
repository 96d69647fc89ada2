"""``overcloud delete``: what deleting means when no stack outlives a command.

tripleoclient 20.0.0 deleted no Heat stack either: the stack was ephemeral,
so deleting an overcloud meant removing its work dir (and its Neutron
ports). Here, in order:

1. a Heat still running for the work dir (``--keep-running``, a ``tripleo
   launch heat``) is stopped;
2. with an installed Heat, the stack is deleted there;
3. what it removes is archived next to the work dir
   (``<stack>-deleted-<UTC>.tar.gz``, 0600) unless asked not to:
   passwords and dumps are its only copy;
4. the product's files of the stack are removed
   (:mod:`tripleo_ephemeral.workdir.layout`: the stack's own files, and
   the shared ones when no other stack is claimed there); whatever else is
   in the work dir is the operator's and stays, and so does the directory
   unless it is empty then.

Nothing on the servers is stopped or unconfigured.
"""

import contextlib
import datetime
import os
import shutil
import time

from heatclient import exc as heat_exc

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral.deploy import heat_client
from tripleo_ephemeral.deploy import stack_operation
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral import locking
from tripleo_ephemeral.workdir import claim
from tripleo_ephemeral.workdir import layout
from tripleo_ephemeral.workdir import ownership

#: Any of these makes a directory a work dir of the stack.
_SIGNS = ('status_file', 'deploy_inputs_file', 'passwords_file',
          'outputs_file')
DELETE_POLL = 2


def check_work_dir(workdir):
    """Refuse to remove a directory that is not the stack's work dir."""
    if not os.path.isdir(workdir.path):
        raise exceptions.WorkDirError(
            'No deployment was found for %s in %s: check --stack/--work-dir'
            % (workdir.stack, workdir.path))
    ownership.check(workdir)  # never another tool's work dir
    if workdir.stack not in ownership.stacks(workdir) or (
            workdir.stack not in claim.stacks(workdir.path) and not any(
                os.path.exists(getattr(workdir, sign)) for sign in _SIGNS)):
        raise exceptions.WorkDirError(
            '%s does not look like the work dir of stack %s (no %s): check '
            '--stack/--work-dir' % (workdir.path, workdir.stack,
                                    os.path.basename(workdir.status_file)))


def stop_heat(workdir):
    """Stop an ephemeral Heat left running for the work dir; return its
    type, or None."""
    saved = launcher_state.LauncherState(workdir.heat_dir).load()
    heat_type = saved.get('heat_type')
    if not saved.get('running') or heat_type not in heat_launcher.heat_types(
            ephemeral_only=True):
        return None
    launcher = heat_launcher.get_launcher(
        heat_type, workdir.heat_dir, api_port=saved.get('api_port') or 1)
    if not launcher.is_running():
        launcher.kill()  # forget a stale pid
        return None
    launcher.stop(dump=False)
    return heat_type


def delete_installed_stack(workdir, launcher, timeout=600, sleep=time.sleep):
    """Delete the stack on an installed Heat and wait until it is gone;
    True if there was one."""
    client = heat_client.make_client(launcher.session())
    try:
        client.stacks.delete(workdir.stack)
    except heat_exc.HTTPNotFound:
        return False
    except heat_exc.HTTPException as exc:
        raise exceptions.DeployError(
            'The installed Heat refused to delete stack %s: %s' % (
                workdir.stack, stack_operation.heat_message(exc)))
    deadline = time.monotonic() + timeout
    while True:
        try:
            stack = client.stacks.get(workdir.stack)
        except heat_exc.HTTPNotFound:
            return True
        if stack.stack_status == 'DELETE_COMPLETE':
            return True
        if stack.stack_status == 'DELETE_FAILED':
            raise exceptions.DeployError(
                'Stack %s DELETE_FAILED on the installed Heat: %s; the work '
                'dir was kept' % (workdir.stack, stack.stack_status_reason))
        if time.monotonic() > deadline:
            raise exceptions.DeployError(
                'Stack %s still %s after %ds on the installed Heat; the work '
                'dir was kept' % (workdir.stack, stack.stack_status, timeout))
        sleep(DELETE_POLL)


def delete(workdir, installed=None, archive=True, now=None):
    """Steps 1-4 above; ``installed`` is an installed Heat's launcher.
    Returns what was done: ``removed`` (how many top-level entries),
    ``kept`` (what stays: the operator's, other stacks'), and whether the
    work dir itself was removed."""
    check_work_dir(workdir)
    done = {'work_dir': workdir.path, 'archive': None}
    with locking.DirLock(workdir.path):
        done['heat_stopped'] = stop_heat(workdir)
        done['installed_stack_deleted'] = (
            delete_installed_stack(workdir, installed) if installed
            else None)
        others = [s for s in ownership.stacks(workdir) if s != workdir.stack]
        ours = layout.Layout(workdir, [workdir.stack] + others)
        if others:
            doomed = ours.stack_paths(workdir.stack)
        else:
            doomed = [workdir.join(n) for n in ours.split()[0]]
        done['kept'] = sorted(set(os.listdir(workdir.path)) - {
            os.path.basename(p) for p in doomed
            if os.path.dirname(p) == workdir.path})
        if archive:
            now = now or datetime.datetime.now(datetime.timezone.utc)
            done['archive'] = install_archives.write_tar(
                os.path.join(os.path.dirname(workdir.path),
                             '%s-deleted-%s.tar.gz' % (
                                 workdir.stack,
                                 now.strftime('%Y%m%d-%H%M%S'))),
                workdir.path, [os.path.relpath(p, workdir.path)
                               for p in doomed])
        try:
            for path in doomed:
                _remove(path)
            claim.remove(workdir.path, workdir.stack)
        except OSError as exc:
            raise exceptions.WorkDirError(
                'Could not remove %s: %s; remove it by hand' % (
                    exc.filename or workdir.path, exc.strerror or exc))
        done['removed'] = len(doomed)
    done['work_dir_removed'] = False
    with contextlib.suppress(OSError):  # not empty: the operator's stay
        os.rmdir(workdir.path)
        done['work_dir_removed'] = True
    return done


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)
