"""Errors raised by the library; commands turn them into CommandError."""


class TripleoEphemeralError(Exception):
    """Base of every error this project raises on purpose."""


class LauncherError(TripleoEphemeralError):
    """A Heat launcher could not do what it was asked."""


class AlreadyRunningError(LauncherError):
    """Heat is already running for this heat dir."""


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


class LockedError(TripleoEphemeralError):
    """Another command holds the lock on a directory."""


class CommandFailedError(LauncherError):
    """A subprocess exited non-zero."""


class CommandNotFoundError(CommandFailedError):
    """The program to run is not installed."""


class TemplatesNotFoundError(TripleoEphemeralError):
    """tripleo-heat-templates are not installed where they were looked for."""
