"""Heat launchers: one interface, one class per ``--heat-type``."""

from tripleo_ephemeral.heat_launcher.base import HeatLauncher  # noqa: F401
from tripleo_ephemeral.heat_launcher.tuning import Tuning  # noqa: F401

_LAUNCHERS = {
    'installed':
        'tripleo_ephemeral.heat_launcher.installed:InstalledHeatLauncher',
    'native': 'tripleo_ephemeral.heat_launcher.native:NativeHeatLauncher',
    'container':
        'tripleo_ephemeral.heat_launcher.container:ContainerHeatLauncher',
    'pod': 'tripleo_ephemeral.heat_launcher.pod:PodHeatLauncher',
}

#: Options only some types take (images, engine workers); the commands pass
#: them to every type and the factory drops them where they do not apply.
_TYPE_OPTIONS = ('images', 'pull', 'engine_workers')


#: Types that start and stop Heat themselves.
_EPHEMERAL = ('container', 'native', 'pod')


def heat_types(ephemeral_only=False):
    return sorted(t for t in _LAUNCHERS
                  if not ephemeral_only or t in _EPHEMERAL)


def get_launcher(heat_type, heat_dir, **kwargs):
    """Build the launcher class registered for ``heat_type``."""
    import importlib

    try:
        module, _, name = _LAUNCHERS[heat_type].partition(':')
    except KeyError:
        raise ValueError('Unknown heat type %r; choose one of %s' %
                         (heat_type, ', '.join(heat_types())))
    import inspect

    cls = getattr(importlib.import_module(module), name)
    accepted = inspect.signature(cls.__init__).parameters
    kwargs = {k: v for k, v in kwargs.items()
              if k not in _TYPE_OPTIONS or k in accepted}
    return cls(heat_dir, **kwargs)
