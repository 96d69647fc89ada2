"""What the commands of this plugin are: said once.

Mixed into osc-lib's command classes (``class DeployOvercloud(
base.DeploymentCommand, command.ShowOne)``):

* :class:`LocalCommand`: every command here needs no Keystone (its Heat is
  its own, or found through clouds.yaml), so osc-lib's shell skips the
  authentication (``auth_required = False``); and none lets another user
  write what it creates, whatever the umask
  (:func:`~tripleo_ephemeral.fileutil.restrict_umask`), nor what
  openstackclient made before it
  (:func:`~tripleo_ephemeral.usercache.close_entry_point_cache`).
* :class:`DeploymentCommand`: a command that works on a deployment takes
  ``--stack``/``--work-dir`` as its :attr:`~DeploymentCommand.
  work_dir_options` say, and reads them with :meth:`~DeploymentCommand.
  workdir`.
* :func:`deploy_started`: the first call of a deploy command's
  ``take_action``.
"""

import gc

from tripleo_ephemeral.commands import options
from tripleo_ephemeral import fileutil
from tripleo_ephemeral import lap_clock
from tripleo_ephemeral import usercache

_frozen = []


def deploy_started():
    """Start a deploy command's clock (its ``startup`` phase ends here:
    :func:`~tripleo_ephemeral.lap_clock.started`) and, once a process, put
    what the process loaded to get here (Python, openstackclient, every
    plugin: objects that live until it exits) out of the garbage
    collector's reach (``gc.freeze``): the deploy's collections then walk
    its own objects only (THT 1+1: 0.34 s of CPU in collections after the
    start-up, 0.09 s frozen)."""
    if not _frozen:
        _frozen.append(True)
        gc.freeze()
    return lap_clock.started()


class LocalCommand:
    """A command that needs no Keystone, run under a umask that keeps
    others from writing what it creates."""

    auth_required = False

    def run(self, parsed_args):
        fileutil.restrict_umask()
        usercache.close_entry_point_cache()
        return super().run(parsed_args)


class DeploymentCommand(LocalCommand):
    """A command that works on a deployment: ``--stack`` and
    ``--work-dir``, added first (to :attr:`work_dir_group`)."""

    #: How this command takes them (a :class:`~.options.WorkDirOptions`).
    work_dir_options = options.WorkDirOptions()

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        #: The group of the work dir options: a command adds its own
        #: options of the same kind there.
        self.work_dir_group = self.work_dir_options.add(parser)
        return parser

    def workdir(self, parsed_args, existing=False):
        """The :class:`~tripleo_ephemeral.workdir.WorkDir` the options
        name; with ``existing``, it must hold a deployment already."""
        return self.work_dir_options.read(parsed_args, existing=existing)
