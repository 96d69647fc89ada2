"""What a shim declaration in :mod:`.registry` is made of, and the releases
it was checked on. No Heat here."""

import dataclasses

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
STAGES = ('database', 'engine', 'started')

_STOCK = object()


@dataclasses.dataclass(frozen=True)
class Option:
    """An ``[ephemeral_heat]`` option of the runner.

    ``stock`` is Heat's own behaviour (as TripleO's native launcher ran
    it: the benchmark's baseline) and the runner's default; ``tuned`` is
    what the launcher writes into heat.conf (None: not a tuning). Values
    are written as heat.conf has them (a list as ``a,b,c``).
    """

    name: str
    type: str  # bool, int, float, str, list, host or port
    stock: object
    tuned: object = None
    help: str = ''
    min: float = None

    def value(self, text):
        """The value the runner sees for ``text`` in heat.conf."""
        if self.type == 'list' and isinstance(text, str):
            return [v for v in text.split(',') if v]
        return text


@dataclasses.dataclass(frozen=True)
class Target:
    """Code a shim replaces or relies on, and the fingerprints accepted
    for it (one per release where it differs)."""

    path: str
    fingerprints: tuple

    @property
    def distribution(self):
        return DISTRIBUTIONS.get(self.path.split('.', 1)[0], 'Python')


def target(path, *fingerprints):
    return Target(path, fingerprints)


@dataclasses.dataclass(frozen=True)
class Shim:
    """One tuning or fix of the engine.

    Installed by ``install(patches, **values)``, the function beside the
    declaration in its module of :mod:`.tunings`, which gets the values
    of its options that are not booleans, by name.
    """

    name: str
    install: object
    options: tuple = ()
    targets: tuple = ()
    #: 'distribution version' of every release its targets were read on.
    checked_on: tuple = ()
    #: A fix: installed whatever the options say.
    always_on: bool = False
    #: The value of the first option that leaves it out (default: stock).
    off: object = _STOCK
    stage: str = 'engine'
    #: 'in_process' (every engine in this process), 'message_bus' or None.
    when: str = None
    #: Tunings installed before this one whose replacements it replaces in
    #: turn (it wraps them): the attributes it replaces there are their
    #: targets, or their own code.
    wraps: tuple = ()
    #: Why a shim with no ``targets`` needs none: it replaces no code, it
    #: only calls a documented interface (a failure to install still
    #: leaves it off).
    untargeted: str = None
    #: A fix some Pythons need: ``(first, last)`` versions it is needed on
    #: (``sys.version_info[:3]``, the last one excluded); elsewhere it is
    #: not installed and reported as not needed, ``unneeded`` saying why.
    pythons: tuple = None
    unneeded: str = None

    def needed(self, version):
        """None when this Python (``version``, a version_info) needs the
        shim, else why not."""
        if self.pythons is None:
            return None
        first, last = self.pythons
        if first <= tuple(version[:3]) < last:
            return None
        return 'not needed on Python %d.%d.%d: %s' % (
            tuple(version[:3]) + (self.unneeded,))

    def enabled(self, values):
        """Whether the options' ``values`` (name -> value) switch it on."""
        if self.always_on:
            return True
        first = self.options[0]
        off = first.stock if self.off is _STOCK else self.off
        return values[first.name] != first.value(off)
