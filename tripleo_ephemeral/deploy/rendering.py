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
import tempfile
import threading
import time

from tripleo_ephemeral.ansible import run as ansible_run
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


class Build:
    """The files of a render of ``outputs``, written into a new directory
    beside the work dir's config-download dir, on a thread if
    :meth:`start` is asked (a deploy renders while Heat stops and its
    database is dumped: the render is Python, the dump mostly SQLite and
    zlib, which let go of the GIL). Only :func:`render` swaps it in: an
    interrupted deploy discards it and keeps the last project."""

    def __init__(self, workdir, outputs, deployments, render_settings):
        self.workdir = workdir
        self.outputs = outputs
        self.deployments = deployments
        self.render_settings = render_settings
        #: seconds the render took (not the wait for it)
        self.seconds = None
        self._staged = None
        self._error = None
        self._thread = None

    def start(self, thread=True):
        """Render now, or on a thread with ``thread``; return self."""
        if thread:
            self._thread = threading.Thread(
                target=self._run, name='config-download-render', daemon=True)
            self._thread.start()
        else:
            self._run()
        return self

    def _run(self):
        started = time.monotonic()
        workdir = self.workdir
        try:
            stack_environment = stack_outputs.load_environment(
                workdir.stack_environment_file)
            excluded = deleted_hosts.names(workdir)
            parent, name = os.path.split(workdir.config_download_dir)
            fileutil.make_private_dirs(parent)
            # replace_dir's own prefix: the same clean-up applies.
            self._staged = tempfile.mkdtemp(dir=parent,
                                            prefix='.%s.new-' % name)
            config_download.render(
                self.outputs, self._staged, workdir.stack,
                deployments=self.deployments,
                stack_environment=stack_environment, excluded_hosts=excluded,
                **self.render_settings)
        except BaseException as exc:  # raised again by wait()
            self._error = exc
        self.seconds = time.monotonic() - started

    def wait(self):
        """Wait for the render; raise what it raised."""
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            error, self._error = self._error, None
            self.discard()
            raise error

    def adopt(self, path):
        """``replace_dir``'s build: the rendered directory becomes
        ``path``."""
        os.rmdir(path)
        os.rename(self._staged, path)
        self._staged = None

    def discard(self):
        """Wait for the render and remove what it wrote (nothing once
        adopted); safe to repeat."""
        if self._thread is not None:
            self._thread.join()
        if self._staged is not None:
            shutil.rmtree(self._staged, ignore_errors=True)
            self._staged = None


def render(workdir, outputs, deployments, render_settings, say,
           phases=None, build=None):
    """Render into the work dir's config-download dir; return it.

    The project is rendered into a new directory beside the old one, then
    swapped in: a failure keeps the last good project (and its run state)
    whole. Hand edits of the last one are kept in its git history first;
    the history is carried over and the render committed (``phases``, a
    deploy's :class:`~tripleo_ephemeral.lap_clock.Phases`, gets ``render``
    and ``history``). ``build``: the :class:`Build` of the same outputs and
    settings, started earlier.
    """
    dest = workdir.config_download_dir
    if build is None:
        build = Build(workdir, outputs, deployments,
                      render_settings).start(thread=False)
    build.wait()
    history.keep_hand_edits(workdir, say)
    try:
        fileutil.replace_dir(dest, build.adopt,
                             keep=ansible_run.RUN_STATE + history.KEEP)
    finally:
        build.discard()
    workdir.save(workdir.render_settings_file, render_settings)
    say('config-download rendered into %s in %.1fs' % (dest, build.seconds))
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
    outputs, deployments = workdir.saved_outputs_and_deployments()
    values = dict(saved_settings(workdir, servers))
    if ssh_user:
        values.pop('host_ssh_users', None)
        values['ssh_user'] = ssh_user
    if python_interpreter:
        values['ansible_python_interpreter'] = python_interpreter
    dest = render(workdir, outputs, deployments, values, say)
    return dest, outputs
