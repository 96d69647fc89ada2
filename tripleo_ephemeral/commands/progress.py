"""Progress lines of a command: to stderr, its result to stdout."""

from tripleo_ephemeral import progress


def writer(stream):
    """The progress channel (a ``say(line)``) of ``stream``, the command's
    stderr: :func:`tripleo_ephemeral.progress.channel`."""
    return progress.channel(stream)
