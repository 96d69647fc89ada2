"""Where an engine tuning's target lives: for the tests that check what is
there, or put another release's code there."""

from tripleo_ephemeral.engine_tuning import fingerprint


def owner_and_name(path):
    """The module or class that holds the target ``path``, and its name
    there."""
    module, _value, _dialect = fingerprint._resolve(path)
    owner_path, name = path.rsplit('.', 1)
    if owner_path == module.__name__:
        return module, name
    return fingerprint._resolve(owner_path)[1], name


def held(path):
    """The object at ``path`` as its owner holds it (a class's own entry,
    not what the attribute lookup binds)."""
    owner, name = owner_and_name(path)
    return (owner.__dict__.get(name) if isinstance(owner, type)
            else getattr(owner, name))
