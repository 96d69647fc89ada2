"""Which engine tunings a runner installed, which it refused and which
fixes this Python does not need.

The runner (``heat_all``) logs them after each stage and writes them to
``<log_dir>/engine-tunings-<mode>.json`` (one file per process kind: a
pod's API and engine containers write their own); the launcher clears
those files before a launch and :func:`read` merges them for ``openstack
tripleo launch heat -f json``. No Heat here.
"""

import glob
import json
import logging
import os
import typing
from collections.abc import Iterable
from collections.abc import Mapping

from tripleo_ephemeral import fileutil

LOG = logging.getLogger(__name__)

PATTERN = 'engine-tunings-%s.json'


class Tunings(typing.TypedDict):
    """What the runners of a launch installed, refused (name -> why) and
    did not need (name -> why): ``engine_tunings`` of ``openstack tripleo
    launch heat -f json`` and of the deploy's result."""

    installed: list[str]
    refused: dict[str, str]
    not_needed: dict[str, str]


def write(log_dir: str, mode: str, installed: Iterable[str],
          refused: Mapping[str, str],
          not_needed: Mapping[str, str] | None = None) -> None:
    """Record ``installed`` (names), ``refused`` and ``not_needed`` (name
    -> why) of the runner of ``mode``; a failure to write is only
    logged."""
    path = os.path.join(log_dir, PATTERN % mode)
    try:
        fileutil.write_atomic(path, json.dumps(
            {'mode': mode, 'installed': list(installed),
             'refused': dict(refused),
             'not_needed': dict(not_needed or {})}, sort_keys=True))
    except OSError as exc:
        LOG.warning('Could not record the engine tunings in %s: %s', path,
                    exc)


def line(stage: str, installed: Iterable[str], refused: Mapping[str, str],
         not_needed: Mapping[str, str] | None = None) -> str:
    """The runner's log line of a stage."""
    text = 'Engine tunings after stage %s: installed %s; refused %s' % (
        stage, ', '.join(installed) or 'none', _reasons(refused))
    if not_needed:
        text += '; not needed %s' % _reasons(not_needed)
    return text


def _reasons(found: Mapping[str, str]) -> str:
    return '; '.join('%s (%s)' % item for item in sorted(found.items())
                     ) or 'none'


def clear(log_dir: str) -> None:
    """Forget what an earlier launch recorded."""
    for path in glob.glob(os.path.join(log_dir, PATTERN % '*')):
        try:
            fileutil.remove(path)
        except OSError as exc:
            LOG.debug('Could not remove %s: %s', path, exc)


def read(log_dir: str) -> Tunings | None:
    """{'installed': [names], 'refused': {name: why}, 'not_needed':
    {name: why}} of every runner of the launch, or None when none recorded
    them (yet)."""
    merged: Tunings | None = None
    for path in sorted(glob.glob(os.path.join(log_dir, PATTERN % '*'))):
        try:
            with open(path) as f:
                found = json.load(f)
        except (OSError, ValueError):
            continue
        if merged is None:
            merged = {'installed': [], 'refused': {}, 'not_needed': {}}
        for name in found.get('installed') or ():
            if name not in merged['installed']:
                merged['installed'].append(name)
        merged['refused'].update(found.get('refused') or {})
        merged['not_needed'].update(found.get('not_needed') or {})
    return merged
