"""Errors raised while preparing or rendering an overcloud deployment."""

from tripleo_ephemeral import exceptions


class OvercloudError(exceptions.TripleoEphemeralError):
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
