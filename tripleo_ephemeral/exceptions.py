"""Every error the project raises on purpose, in one hierarchy.

Library code raises these; :mod:`tripleo_ephemeral.commands.errors` turns
them into the one-line ``CommandError`` a user sees. Each message names the
bad input and the fix.

::

    TripleoEphemeralError
      LockedError               a directory is in use by another command
      CommandFailedError        a program run through process.py failed
        CommandNotFoundError
      LauncherError             a Heat launcher could not do what it was asked
        AlreadyRunningError, NotRunningError, PortInUseError,
        ProcessExitedError, StartupTimeoutError
      DatabaseError             the Heat database: sync, dump, restore
        DumpNotFoundError, CorruptDumpError
      SavedStateError           a saved deployment cannot be read
      OvercloudError            the deploy's inputs and the stack outputs
        InputFileError, RolesDataError, TemplateError, EnvironmentFileError,
        DeployedServersError, PasswordsError, StackOutputsError,
        ContainerImagePrepareError
      DeployError               the deployment run failed
        CheckFailedError, AnsibleError, InputError
        TripleoAnsibleError     TripleO's Ansible is missing or lacks what
                                the playbooks need
      WorkDirError              the work dir's own files (archives)
      BackupError               a backup could not be written or restored
      AgentPushError            a server did not get its agent configuration
      AdoptionError             a stack cannot be adopted as it is
        DeploymentExistsError
      RhosoExportError          a work dir cannot be exported to RHOSO as
                                it is, or an export is invalid
        RhosoInvalidError
"""


class TripleoEphemeralError(Exception):
    """Base of every error this project raises on purpose."""


class LockedError(TripleoEphemeralError):
    """Another command holds the lock on a directory."""


# -- programs run through tripleo_ephemeral.process -------------------------

class CommandFailedError(TripleoEphemeralError):
    """A subprocess exited non-zero or timed out."""


class CommandNotFoundError(CommandFailedError):
    """The program to run is not installed."""


# -- Heat launchers and their databases -------------------------------------

class LauncherError(TripleoEphemeralError):
    """A Heat launcher could not do what it was asked."""


class AlreadyRunningError(LauncherError):
    """Heat is already running for this heat dir (``heat_dir``); the
    command says how to stop it."""

    def __init__(self, message, heat_dir=None):
        super().__init__(message)
        self.heat_dir = heat_dir


class NotRunningError(LauncherError):
    """No Heat is running for this heat dir."""


class PortInUseError(LauncherError):
    """The API port is taken by another process."""


class ProcessExitedError(LauncherError):
    """The Heat process exited while it was starting."""


class StartupTimeoutError(LauncherError):
    """Heat did not become ready before the deadline."""


class DatabaseError(TripleoEphemeralError):
    """The Heat database could not be synced, dumped or restored."""


class DumpNotFoundError(DatabaseError):
    """There is no database dump to restore."""


class CorruptDumpError(DatabaseError):
    """A database dump failed verification."""


class SavedStateError(TripleoEphemeralError):
    """A saved deployment (its dump or outputs) cannot be read."""


# -- the overcloud library: inputs and stack outputs ------------------------

class OvercloudError(TripleoEphemeralError):
    """Base of the overcloud library's errors."""


class InputFileError(OvercloudError):
    """A user supplied file is missing, unreadable or not valid YAML."""


class RolesDataError(OvercloudError):
    """The roles data or networks data is invalid."""


class TemplateError(OvercloudError):
    """A template could not be rendered or processed."""


class EnvironmentFileError(OvercloudError):
    """An environment file is missing, invalid or refers to a missing file."""


class DeployedServersError(OvercloudError):
    """The deployed servers file is invalid."""


class PasswordsError(OvercloudError):
    """The passwords file could not be read or written."""


class StackOutputsError(OvercloudError):
    """The stack outputs are missing or do not have the expected shape."""


class ContainerImagePrepareError(OvercloudError):
    """The container images cannot be named without a registry, or the
    ContainerImagePrepare entries are invalid."""


# -- the deployment run and the work dir ------------------------------------

class DeployError(TripleoEphemeralError):
    """The stack or config-download failed."""


class CheckFailedError(DeployError):
    """A pre-deploy check: the change would break the deployed overcloud."""


class AnsibleError(DeployError):
    """A play failed or Ansible could not run."""


class TripleoAnsibleError(AnsibleError):
    """TripleO's Ansible is not installed, or lacks a module or role the
    playbooks about to run use."""


class InputError(DeployError):
    """An option or input of a deploy that cannot work (before Heat)."""


class WorkDirError(TripleoEphemeralError):
    """A file of the work dir itself (e.g. an archive) could not be written."""


class ForeignWorkDirError(WorkDirError):
    """The directory holds what another tool (or the operator) made there,
    which a command would overwrite: it is refused before anything is
    written."""


class BackupError(TripleoEphemeralError):
    """A backup could not be written or restored."""


class AgentPushError(TripleoEphemeralError):
    """A server could not be given its agent configuration."""


class TemplatesNotFoundError(TripleoEphemeralError):
    """tripleo-heat-templates are not installed where they were looked for."""


class AdoptionError(TripleoEphemeralError):
    """A stack cannot be adopted into a work dir as it is."""


class DeploymentExistsError(AdoptionError):
    """The work dir already holds a deployment; the command says how to
    replace it."""


class HistoryError(TripleoEphemeralError):
    """The config-download history (its git repository) cannot be read or
    written, or a version named does not exist."""


class RhosoExportError(TripleoEphemeralError):
    """The work dir lacks what an export to RHOSO needs, an option names
    what it does not have, or an export's documents cannot be read."""


class RhosoInvalidError(RhosoExportError):
    """The documents of an export break their schema or a webhook rule;
    ``problems`` lists them."""

    def __init__(self, message, problems=()):
        super().__init__(message)
        self.problems = list(problems)
