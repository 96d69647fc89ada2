"""Heat launchers: one interface, one class per ``--heat-type``."""

from tripleo_ephemeral.heat_launcher.base import HeatLauncher  # noqa: F401
from tripleo_ephemeral.heat_launcher.base import Tuning  # noqa: F401

_LAUNCHERS = {
    'native': 'tripleo_ephemeral.heat_launcher.native:NativeHeatLauncher',
}


def heat_types():
    return sorted(_LAUNCHERS)


def get_launcher(heat_type, heat_dir, **kwargs):
    """Build the launcher class registered for ``heat_type``."""
    import importlib

    try:
        module, _, name = _LAUNCHERS[heat_type].partition(':')
    except KeyError:
        raise ValueError('Unknown heat type %r; choose one of %s' %
                         (heat_type, ', '.join(heat_types())))
    cls = getattr(importlib.import_module(module), name)
    return cls(heat_dir, **kwargs)
