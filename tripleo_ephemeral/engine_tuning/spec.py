"""What a shim declaration in :mod:`.registry` is made of, and the releases
it was checked on. No Heat here; its types are checked by mypy
(``python3 tools/dev.py lint``)."""

import dataclasses
import typing
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

#: The distribution a target's top-level package comes from (others are
#: Python's standard library).
DISTRIBUTIONS = {'heat': 'openstack-heat', 'oslo_db': 'oslo.db',
                 'oslo_messaging': 'oslo.messaging', 'futurist': 'futurist',
                 'yaql': 'yaql'}

#: The releases the fingerprints were taken on: those OpenStack 2026.1's
#: constraints pin and those a plain pip install resolves on each Python
#: (Heat 27 needs 3.11, futurist 3.5 too). Every target matched the same
#: fingerprint on both Heats, oslo.dbs and oslo.messagings (osprofiler
#: 4.3 and 4.4 wrap a few of Heat's methods differently: two each), and
#: each library's on Python 3.10.13, 3.11.7, 3.12.1 and 3.13.0 alike.
HEAT = ('openstack-heat 26.0.2', 'openstack-heat 27.0.1')
OSLO_DB = ('oslo.db 18.0.0', 'oslo.db 18.1.1')
OSLO_MESSAGING = ('oslo.messaging 17.3.0', 'oslo.messaging 18.1.0',
                  'oslo.messaging 18.3.1')
#: The standard library's own code differs per Python: only the Python a
#: fix is needed on is checked.
PYTHON = ('Python 3.11.7',)
FUTURIST = ('futurist 3.2.1', 'futurist 3.3.0', 'futurist 3.5.0')
#: The yaql tripleo-heat-templates need (3 removed format()).
YAQL = ('yaql 2.0.1',)
#: The in-memory bus's driver was read on this one only.
FAKE_BUS = ('oslo.messaging 17.3.0',)

#: When a shim is installed: before Heat's first query, after the
#: migrations (before the engine starts), once Heat has started.
Stage = typing.Literal['database', 'engine', 'started']
STAGES: tuple[Stage, ...] = typing.get_args(Stage)

#: Where the engines run: 'in_process' (every engine in this process, on
#: the in-memory bus) or 'message_bus' (a pod's).
When = typing.Literal['in_process', 'message_bus']

#: The types of the runner's options (oslo.config's, by name).
OptionType = typing.Literal['bool', 'int', 'float', 'str', 'list', 'host',
                            'port']
#: An option's value as heat.conf has it (a list as ``a,b,c``).
Value = typing.Union[bool, int, float, str]

#: A Python version: ``sys.version_info[:3]``.
Version = tuple[int, int, int]


class _Stock:
    """:attr:`Shim.off`'s default: the first option's stock value."""


_STOCK = _Stock()


@dataclasses.dataclass(frozen=True)
class Option:
    """An ``[ephemeral_heat]`` option of the runner.

    ``stock`` is Heat's own behaviour (as TripleO's native launcher ran
    it: the benchmark's baseline) and the runner's default; ``tuned`` is
    what the launcher writes into heat.conf (None: not a tuning). Values
    are written as heat.conf has them (a list as ``a,b,c``).
    """

    name: str
    type: OptionType
    stock: Value
    tuned: Value | None = None
    help: str = ''
    min: float | None = None

    def value(self, text: Value | None) -> Value | list[str] | None:
        """The value the runner sees for ``text`` in heat.conf."""
        if self.type == 'list' and isinstance(text, str):
            return [v for v in text.split(',') if v]
        return text


@dataclasses.dataclass(frozen=True)
class Target:
    """Code a shim replaces or relies on, and the fingerprints accepted
    for it (one per release where it differs)."""

    path: str
    fingerprints: tuple[str, ...]

    @property
    def distribution(self) -> str:
        """The distribution the target comes from (``Python``: the
        standard library)."""
        return DISTRIBUTIONS.get(self.path.split('.', 1)[0], 'Python')


def target(path: str, *fingerprints: str) -> Target:
    """A :class:`Target`, its fingerprints given one by one."""
    return Target(path, fingerprints)


@dataclasses.dataclass(frozen=True)
class Shim:
    """One tuning or fix of the engine.

    Installed by ``install(patches, **values)``, the function beside the
    declaration in its module of :mod:`.tunings`, which gets the values
    of its options that are not booleans, by name.
    """

    name: str
    #: ``install(patches, **values)``: a :class:`.patching.Patches` and
    #: the values of the options that are not booleans.
    install: Callable[..., None]
    options: tuple[Option, ...] = ()
    targets: tuple[Target, ...] = ()
    #: 'distribution version' of every release its targets were read on.
    checked_on: tuple[str, ...] = ()
    #: A fix: installed whatever the options say.
    always_on: bool = False
    #: The value of the first option that leaves it out (default: stock).
    off: Value | _Stock = _STOCK
    stage: Stage = 'engine'
    #: Installed only where the engines run so (None: wherever they run).
    when: When | None = None
    #: Tunings installed before this one whose replacements it replaces in
    #: turn (it wraps them): the attributes it replaces there are their
    #: targets, or their own code.
    wraps: tuple[str, ...] = ()
    #: Why a shim with no ``targets`` needs none: it replaces no code, it
    #: only calls a documented interface (a failure to install still
    #: leaves it off).
    untargeted: str | None = None
    #: A fix some Pythons need: ``(first, last)`` versions it is needed on
    #: (``sys.version_info[:3]``, the last one excluded); elsewhere it is
    #: not installed and reported as not needed, ``unneeded`` saying why.
    pythons: tuple[Version, Version] | None = None
    unneeded: str | None = None

    def needed(self, version: Sequence[typing.Any]) -> str | None:
        """None when this Python (``version``, a version_info) needs the
        shim, else why not."""
        if self.pythons is None:
            return None
        first, last = self.pythons
        if first <= tuple(version[:3]) < last:
            return None
        major, minor, micro = version[:3]
        return 'not needed on Python %d.%d.%d: %s' % (
            major, minor, micro, self.unneeded)

    def enabled(self, values: Mapping[str, object]) -> bool:
        """Whether the options' ``values`` (name -> value) switch it on."""
        if self.always_on:
            return True
        first = self.options[0]
        off = first.stock if isinstance(self.off, _Stock) else self.off
        return bool(values[first.name] != first.value(off))
