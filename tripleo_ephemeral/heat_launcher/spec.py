"""The Heat a command asks for, as a value, and the launcher it makes.

A command reads its ``--heat-*`` and container options once into a frozen
:class:`LauncherSpec`; :func:`build` makes the launcher of a heat dir from
it (the type of the last launch there when the spec names none).
"""

import dataclasses
from typing import Any
from typing import Callable

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_launcher import config_options
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.heat_launcher import state as launcher_state
from tripleo_ephemeral.heat_launcher import tuning as launcher_tuning


@dataclasses.dataclass(frozen=True)
class LauncherSpec:
    """The Heat a command asked for, read once from the ``--heat-*`` and
    container options. ``heat_type`` None means the last launch's in the
    heat dir, else native; ``overrides`` are the raw
    ``section.option=value`` strings; ``tuning`` is ``--heat-tuning``
    (``stock`` runs Heat without the engine tunings)."""

    heat_type: str | None = None
    api_port: int | None = None
    overrides: tuple[str, ...] = ()
    tuning: str = 'tuned'
    startup_timeout: int = base.DEFAULT_STARTUP_TIMEOUT
    debug: bool = False
    images: podman.ContainerImages | None = None
    pull: bool = True
    engine_workers: int | None = None

    def replace(self, **changes: Any) -> 'LauncherSpec':
        """A copy with ``changes`` (``heat_type`` chosen by auto, say)."""
        return dataclasses.replace(self, **changes)


def build(spec: LauncherSpec, heat_dir: str,
          say: Callable[[str], None] | None = None) -> base.HeatLauncher:
    """The launcher ``spec`` describes, for ``heat_dir``; ``say`` prints
    its progress (the command's stderr). An override Heat would not take
    is an :class:`~tripleo_ephemeral.exceptions.InputError`, before
    anything is made.

    The type defaults to the last launch's in that heat dir; without an
    API port the launcher chooses the port.
    """
    saved = launcher_state.LauncherState(heat_dir).load()
    try:
        overrides = config.parse_overrides(list(spec.overrides))
    except ValueError as exc:
        raise exceptions.InputError(
            '--heat-config-override %s is not section.option=value' % exc)
    config_options.check(overrides)
    launcher: base.HeatLauncher = heat_launcher.get_launcher(
        spec.heat_type or saved.get('heat_type') or 'native',
        heat_dir,
        api_port=spec.api_port, say=say,
        tuning=(launcher_tuning.Tuning.stock(overrides=overrides)
                if spec.tuning == 'stock' else
                launcher_tuning.Tuning(overrides=overrides)),
        startup_timeout=spec.startup_timeout,
        debug=spec.debug,
        images=spec.images, pull=spec.pull,
        engine_workers=spec.engine_workers)
    return launcher
