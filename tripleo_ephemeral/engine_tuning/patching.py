"""What one shim changed, so that it can be put back.

A shim never assigns to Heat or a library directly: it asks its
:class:`Patches` to, and :meth:`Patches.undo` restores every attribute and
removes every event listener, in reverse order. So a test can install a
shim, compare with stock Heat and take it away, and a shim that fails
half-way leaves nothing behind. :attr:`Patches.replaced` names every
attribute replaced, which a test checks against the shim's declared,
fingerprinted targets.
"""

import typing
from collections.abc import Callable

from tripleo_ephemeral.engine_tuning import targets

_MISSING = object()


class Patches:
    """The changes one shim made, in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._undo: list[Callable[[], object]] = []
        self._replaced: list[str] = []

    @property
    def replaced(self) -> tuple[str, ...]:
        """The dotted path of each attribute replaced (and not put back
        yet), in order."""
        return tuple(self._replaced)

    def replace(self, owner: object, attr: str,
                value: object) -> typing.Any:
        """Set ``owner.attr`` to ``value``; return what it was.

        On a class, an inherited attribute is deleted again on undo rather
        than copied onto the class.
        """
        if isinstance(owner, type):
            previous = owner.__dict__.get(attr, _MISSING)
        else:
            previous = getattr(owner, attr, _MISSING)
        current = getattr(owner, attr)
        setattr(owner, attr, value)
        self._replaced.append(targets.path_of(owner, attr))

        def restore() -> None:
            if previous is _MISSING:
                delattr(owner, attr)
            else:
                setattr(owner, attr, previous)

        self._undo.append(restore)
        return current

    def listen(self, target: object, identifier: str,
               fn: Callable[..., object]) -> None:
        """A SQLAlchemy event listener, removed on undo."""
        from sqlalchemy import event

        event.listen(target, identifier, fn)
        self._undo.append(lambda: event.remove(target, identifier, fn))

    def on_undo(self, fn: Callable[[], object]) -> None:
        """Call ``fn`` on undo (for changes that are not attributes)."""
        self._undo.append(fn)

    def undo(self) -> None:
        """Put back everything, the last change first; safe to repeat."""
        while self._undo:
            self._undo.pop()()
        self._replaced.clear()
