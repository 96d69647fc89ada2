"""Progress lines of a command: to stderr, its result to stdout."""


def writer(stream):
    """A ``say(line)`` for the library, writing lines to ``stream``."""
    def say(line):
        stream.write(line + '\n')
        stream.flush()
    return say
