"""Which names in a work dir are this product's: its fixed layout.

The product knows what it writes by the names
:class:`~tripleo_ephemeral.workdir.WorkDir` spells, not by a list of every
file it wrote: dozens of modules write there (the launchers, the dumps,
config-download's history, Ansible, the archives), a list would have to
follow each of them, and a crash between a write and its entry would orphan
the file. So the product's are: each stack's files (``<stack>-*.yaml`` of
the layout, ``<stack>rc``, its install archives), the directories and files
the stacks share (``heat-launcher/``, ``config-download/``, ``clouds.yaml``,
the claim...), and what a crash may leave of a write of these. Whatever is
inside the product's directories is the product's. Everything else in the
directory is the operator's: ``overcloud delete`` leaves it (and the
directory), archives and backups leave it out and say so.

A :class:`Layout` is built from a WorkDir and asks it for the names, so the
layout is spelled in one place; it only lists and reads.
"""

import fnmatch
import os

from tripleo_ephemeral import locking
from tripleo_ephemeral.workdir import claim

#: The WorkDir properties that name a stack's own files at the top of the
#: work dir (a test checks every such property is here or shared).
STACK_FILES = (
    'passwords_file', 'deployed_servers_file', 'ip_allocations_file',
    'tht_parameters_file', 'deploy_parameters_file', 'deploy_inputs_file',
    'status_file', 'last_success_file', 'stack_size_file', 'rc_file',
    'render_settings_file', 'deleted_hosts_file',
    'adopted_environment_file', 'adopted_servers_file', 'adoption_file',
    'roles_data_file', 'network_data_file')
#: The WorkDir properties every stack of the work dir shares.
SHARED_PATHS = ('heat_dir', 'templates_dir', 'outputs_dir',
                'agent_config_dir', 'adopted_dir', 'clouds_file',
                'ssh_admin_key', 'rhoso_export_dir')
#: Where a deploy keeps what preparing may change until Heat starts
#: (tripleo_ephemeral.deploy.rollback).
ROLLBACK_DIR = '.before-deploy'
#: Shared names that are not a WorkDir property.
SHARED_NAMES = (claim.NAME, locking.LOCK_NAME, ROLLBACK_DIR)
#: Scratch the product makes and removes again (a crash may leave it).
SCRATCH = ('.restore-*',)


def leftover_of(name, owned):
    """Whether ``name`` is what a crash left of a write of one of
    ``owned``: ``.<name>.XXXX.tmp`` (atomic writes), ``.<name>.new-XXXX``
    and ``<name>.old`` (directory swaps)."""
    if name.endswith('.old') and name[:-4] in owned:
        return True
    return name.startswith('.') and any(name[1:].startswith(o + '.')
                                        for o in owned)


class Layout:
    """The product's names in the work dir of ``workdir`` (a WorkDir), for
    ``stacks`` (default: its own, those its claim names and, in a work dir
    an earlier version wrote, those with a status file)."""

    def __init__(self, workdir, stacks=None):
        self.workdir = workdir
        self.path = workdir.path
        if stacks is None:
            stacks = [workdir.stack] + claim.stacks(self.path) + \
                self._status_stacks()
        self.stacks = list(dict.fromkeys(stacks))

    def _status_stacks(self):
        suffix = os.path.basename(self.workdir.status_file)[
            len(self.workdir.stack):]
        try:
            names = os.listdir(self.path)
        except FileNotFoundError:
            return []
        return sorted(n[:-len(suffix)] for n in names
                      if n.endswith(suffix) and len(n) > len(suffix))

    def _of(self, stack):
        return type(self.workdir)(self.path, stack)

    @property
    def shared(self):
        workdir = self.workdir
        names = {os.path.basename(getattr(workdir, p)) for p in SHARED_PATHS}
        names.add(os.path.basename(
            os.path.dirname(workdir.config_download_dir)))
        names.add(os.path.basename(workdir.ssh_admin_key) + '.pub')
        return names | set(SHARED_NAMES)

    def stack_names(self, stack):
        """The top-level names of ``stack``'s own files."""
        workdir = self._of(stack)
        names = {os.path.basename(getattr(workdir, p)) for p in STACK_FILES}
        names.update(os.path.basename(workdir.export_file(cell)) for cell in
                     (False, True))
        return names

    def owns(self, name, stacks=None):
        """Whether the top-level ``name`` is the product's: one of
        ``stacks``' (default: the layout's) or a shared one."""
        owned = set(self.shared)
        for stack in self.stacks if stacks is None else stacks:
            owned |= self.stack_names(stack)
            if self._of(stack).is_install_archive(name):
                return True
        return (name in owned or leftover_of(name, owned) or
                any(fnmatch.fnmatchcase(name, p) for p in SCRATCH))

    def split(self):
        """``(ours, others)``: the top-level names present, sorted."""
        try:
            names = sorted(os.listdir(self.path))
        except FileNotFoundError:
            return [], []
        ours = [n for n in names if self.owns(n)]
        return ours, [n for n in names if n not in ours]

    def stack_paths(self, stack):
        """What ``stack`` alone owns, as paths: its files, its
        config-download and its outputs (removing one stack of several)."""
        shared = self.shared
        found = [os.path.join(self.path, n) for n in os.listdir(self.path)
                 if n not in shared and self.owns(n, [stack])]
        workdir = self._of(stack)
        parent = os.path.dirname(workdir.config_download_dir)
        if os.path.isdir(parent):
            found += [os.path.join(parent, n) for n in os.listdir(parent)
                      if n == stack or leftover_of(n, {stack})]
        if os.path.isdir(workdir.outputs_dir):
            found += [os.path.join(workdir.outputs_dir, n)
                      for n in os.listdir(workdir.outputs_dir)
                      if n.startswith(stack + '-')]
        return sorted(found)
