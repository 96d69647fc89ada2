"""Rendering config-download into a work dir, the same way every time.

A deploy renders from the stack it just created; ``--config-download-only``
and ``overcloud node delete`` render again from the outputs it saved. All
three use the SSH users and Python interpreter the deploy was given (kept
in ``<stack>-render-settings.yaml``) and leave out the hosts ``node
delete`` took out, so a re-render never changes who Ansible logs in as or
brings a deleted host back.
"""

import os
import shutil
import time

from tripleo_ephemeral.deploy import ansible_run
from tripleo_ephemeral.deploy import deleted_hosts
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral.overcloud import config_download
from tripleo_ephemeral.overcloud import deployed_servers
from tripleo_ephemeral.overcloud import outputs as stack_outputs


def settings(ssh_user=None, servers=None, python_interpreter=None):
    """render() keyword arguments: --overcloud-ssh-user wins over the
    servers' own ``ssh_user``."""
    values = {'ansible_python_interpreter': python_interpreter}
    if ssh_user:
        values['ssh_user'] = ssh_user
    else:
        values['host_ssh_users'] = deployed_servers.ssh_users(servers,
                                                              default=None)
    return values


def saved_settings(workdir, servers=None):
    """The settings of the last render, else those of ``servers``."""
    saved = workdir.load(workdir.render_settings_file)
    if isinstance(saved, dict):
        return saved
    return settings(servers=servers)


def render(workdir, outputs, deployments, render_settings, say,
           phases=None):
    """Render into the work dir's config-download dir; return it.

    The project is rendered into a new directory beside the old one, then
    swapped in: a failure keeps the last good project (and its run state)
    whole. Its git history is carried over and the render committed
    (``phases``, a deploy's :class:`~.phases.Phases`, gets ``render``
    and ``history``).
    """
    dest = workdir.config_download_dir
    started = time.monotonic()
    stack_environment = stack_outputs.load_environment(
        workdir.stack_environment_file)
    excluded = deleted_hosts.names(workdir)
    fileutil.replace_dir(dest, lambda path: config_download.render(
        outputs, path, workdir.stack, deployments=deployments,
        stack_environment=stack_environment, excluded_hosts=excluded,
        **render_settings), keep=ansible_run.RUN_STATE + history.KEEP)
    workdir.save(workdir.render_settings_file, render_settings)
    say('config-download rendered into %s in %.1fs' % (
        dest, time.monotonic() - started))
    if phases is not None:
        phases.lap('render')
    history.commit_render(workdir, say)
    if phases is not None:
        phases.lap('history')
    return dest


def copy_project(config_dir, dirs, stack, say):
    """Copy the rendered project ``config_dir`` to ``<dir>/<stack>`` of
    each of ``dirs`` (``--output-dir``, ``--config-dir``), replacing what
    was there; the work dir keeps its own."""
    for directory in dirs:
        dest = os.path.join(directory, stack)

        def copy(path):
            shutil.rmtree(path)
            shutil.copytree(config_dir, path, symlinks=True)
        fileutil.replace_dir(dest, copy)
        say('config-download copied to %s' % dest)


def render_saved(workdir, say, servers=None, ssh_user=None,
                 python_interpreter=None):
    """Render again from the saved outputs (no Heat) with the last
    settings (``ssh_user`` and ``python_interpreter`` override them);
    return ``(config-download dir, outputs)``."""
    outputs, deployments = stack_outputs.load(workdir.outputs_file,
                                              workdir.deployments_file)
    values = dict(saved_settings(workdir, servers))
    if ssh_user:
        values.pop('host_ssh_users', None)
        values['ssh_user'] = ssh_user
    if python_interpreter:
        values['ansible_python_interpreter'] = python_interpreter
    dest = render(workdir, outputs, deployments, values, say)
    return dest, outputs
