"""Install the shims the options enable, each only where it still fits.

Before a shim is installed its targets are fingerprinted
(:mod:`.fingerprint`) and compared with those :mod:`.registry` recorded.
A target that differs or is missing leaves that shim off, with one
warning line naming it, the target and the versions it was checked on:
Heat then runs its own code there, slower but never wrong. A shim that
fails while installing is undone and left off the same way.

Installed shims are kept here and :func:`uninstall` takes them away
again, so a test can install one, compare it with stock Heat and remove
it. Imported by the runner (after it chose oslo.service's backend) and
the tests.
"""

import importlib.metadata
import logging
import platform
import sys
from collections.abc import Collection
from collections.abc import Iterable

from tripleo_ephemeral.engine_tuning import fingerprint
from tripleo_ephemeral.engine_tuning import patching
from tripleo_ephemeral.engine_tuning import registry
from tripleo_ephemeral.engine_tuning import spec
from tripleo_ephemeral.engine_tuning import targets

LOG = logging.getLogger(__name__)

#: Installed shims: name -> their Patches, in the order installed.
_installed: dict[str, patching.Patches] = {}
#: Shims the options enabled but the guard left off: name -> why.
_refused: dict[str, str] = {}
#: Fixes this Python does not need (:attr:`.spec.Shim.pythons`): name ->
#: why.
_unneeded: dict[str, str] = {}


def install(opts: object, stage: spec.Stage = 'engine') -> list[str]:
    """Install the shims of ``stage`` that ``opts`` (the
    ``[ephemeral_heat]`` group) enables; return the names installed
    (:func:`refused` says which were left off, and why)."""
    done = []
    conditions: dict[str, bool] = {}
    for shim in registry.SHIMS:
        if shim.stage != stage or shim.name in _installed:
            continue
        values = {opt.name: getattr(opts, opt.name) for opt in shim.options}
        if not shim.enabled(values):
            continue
        if shim.when is not None:
            if not conditions:
                conditions['in_process'] = engines_in_process()
                conditions['message_bus'] = not conditions['in_process']
            if not conditions[shim.when]:
                continue
        if install_shim(shim.name, **values) is not None:
            done.append(shim.name)
    return done


def install_shim(name: str, check: bool = True,
                 **values: object) -> patching.Patches | None:
    """Install the shim ``name`` with its options' ``values`` (tuned
    values for those not given); return its Patches, or None when it
    stays off. Installing an installed shim returns it as it is."""
    if name in _installed:
        return _installed[name]
    shim = registry.shim(name)
    if check:
        why = shim.needed(sys.version_info)
        if why:
            LOG.info('Engine tuning %s is %s', name, why)
            _unneeded[name] = why
            return None
        problem = mismatch(shim)
        if problem:
            LOG.warning('Engine tuning %s is off: %s; Heat runs its own '
                        'code there (tools/check_tuning.py re-checks)',
                        name, problem)
            _refused[name] = problem
            return None
    kwargs = {opt.name: values.get(opt.name, opt.value(opt.tuned))
              for opt in shim.options if opt.type != 'bool'}
    patches = patching.Patches(name)
    try:
        shim.install(patches, **kwargs)
    except Exception as exc:  # a library that moved under the shim
        patches.undo()
        LOG.warning('Engine tuning %s is off: it failed to install (%s: '
                    '%s); Heat runs its own code there', name,
                    type(exc).__name__, exc)
        _refused[name] = 'failed to install (%s: %s)' % (
            type(exc).__name__, exc)
        return None
    _refused.pop(name, None)
    _installed[name] = patches
    return patches


def uninstall(names: Collection[str] | None = None) -> None:
    """Take away the installed shims (or those of ``names``), the last
    installed first."""
    for name in reversed(list(_installed)):
        if names is None or name in names:
            _installed.pop(name).undo()
    for found in (_refused, _unneeded):
        for name in list(found):
            if names is None or name in names:
                del found[name]


def installed() -> list[str]:
    """The names of the installed shims, in order."""
    return list(_installed)


def replaced() -> dict[str, tuple[str, ...]]:
    """The attributes each installed shim replaced: name -> their dotted
    paths (:attr:`.patching.Patches.replaced`)."""
    return {name: patches.replaced for name, patches in _installed.items()}


def refused() -> dict[str, str]:
    """The shims the options enabled but the guard left off: name ->
    why (a target that differs or is missing, or a failed install)."""
    return dict(_refused)


def unneeded() -> dict[str, str]:
    """The fixes this Python does not need: name -> why."""
    return dict(_unneeded)


def mismatch(shim: spec.Shim) -> str | None:
    """Why ``shim``'s targets are not what it was checked on, in one
    line; None when every one matches."""
    differs, missing = [], []
    for tgt in shim.targets:
        try:
            if fingerprint.fingerprint(tgt.path) not in tgt.fingerprints:
                differs.append(tgt)
        except targets.TargetMissing as exc:
            missing.append((tgt, exc))
    if not differs and not missing:
        return None
    parts = []
    if differs:
        parts.append('%s differ%s from the code it was checked on' % (
            ', '.join(t.path for t in differs),
            's' if len(differs) == 1 else ''))
    parts += ['%s' % exc for _tgt, exc in missing]
    bad = differs + [tgt for tgt, _exc in missing]
    return '%s (checked on %s; installed: %s)' % (
        '; '.join(parts), ', '.join(shim.checked_on),
        ', '.join(installed_versions(bad)))


def installed_versions(shim_targets: Iterable[spec.Target]) -> list[str]:
    """'distribution version' of each distribution ``shim_targets`` come
    from."""
    found = []
    for dist in sorted({t.distribution for t in shim_targets}):
        if dist == 'Python':
            version = platform.python_version()
        else:
            try:
                version = importlib.metadata.version(dist)
            except importlib.metadata.PackageNotFoundError:
                version = 'unknown'
        found.append('%s %s' % (dist, version))
    return found


def engines_in_process() -> bool:
    """Whether every engine runs in this process (the in-memory bus)."""
    from oslo_config import cfg
    import oslo_messaging

    return bool(
        oslo_messaging.TransportURL.parse(cfg.CONF).transport == 'fake')
