"""``overcloud adoption validate``: an export checked, as a request.

The command reads its options once into a :class:`ValidateRequest` (each
choice it leaves out, None, is the export's, as its manifest recorded
it); :func:`check` merges the manifest in, reads the work dir the export
came from (checked as every command checks one: a stack name Heat takes,
a directory that is the product's) and checks every document against
RHOSO's rules and that deployment, returning a :class:`ValidateResult`.
"""

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso.controlplane import exporting
from tripleo_ephemeral.rhoso import crosscheck
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral import workdir as workdir_mod
from tripleo_ephemeral.workdir import ownership


@dataclasses.dataclass(frozen=True)
class ValidateRequest:
    """What to check: the export in ``directory``; None (or empty) takes
    the export's own choice, else the default."""

    directory: str
    rhoso_version: str | None = None
    #: the work dir to check against, and its stack
    work_dir: str | None = None
    stack: str | None = None
    #: False (``--no-work-dir``): the documents alone
    against_work_dir: bool = True
    nic_template_dir: str | None = None
    #: role -> its NIC template file
    nic_templates: Mapping[str, str] = dataclasses.field(
        default_factory=dict)


@dataclasses.dataclass(frozen=True)
class ValidateResult:
    """What :func:`check` found: every problem (none: valid), the RHOSO
    version and how many documents were checked, the work dir they were
    checked against (None: the documents alone), the NIC templates'
    proofs, and how many control plane states were checked (None: the
    export has no control plane steps)."""

    problems: list[problems_mod.Problem]
    version: str
    documents: int
    work_dir: str | None
    proofs: list[crosscheck.Proof]
    control_plane_states: int | None


def check(request: ValidateRequest) -> ValidateResult:
    """Check the export of ``request`` (:class:`ValidateResult`); an export
    whose work dir is gone, unless another is given, is a
    :class:`~tripleo_ephemeral.exceptions.RhosoExportError`."""
    documents, found = validate.load_dir(request.directory)
    manifest = validate.manifest(request.directory)
    version = (request.rhoso_version or manifest.get('rhoso_version') or
               schema.default_version())
    deployment = _deployment(request, manifest)
    network_map = manifest.get('network_map') or {}
    result = validate.check(
        exporting.dataplane_only(documents), version, deployment,
        lambda lower: network_map.get(
            lower, plan.DEFAULT_NETWORK_MAP.get(lower, lower)),
        request.nic_template_dir or manifest.get('nic_template_dir'),
        {role: os.path.abspath(os.path.expanduser(path))
         for role, path in (request.nic_templates or manifest.get(
             'nic_templates') or {}).items()},
        skipped=set(manifest.get('skipped_roles') or ()))
    cp_problems, cp_states, cp_found = exporting.validate_dir(
        request.directory, version, deployment, manifest, documents)
    return ValidateResult(
        problems=list(found) + list(result.problems) + list(cp_problems),
        version=version, documents=result.documents,
        work_dir=deployment.workdir.path if deployment else None,
        proofs=list(result.proofs),
        control_plane_states=cp_states if cp_found else None)


def _deployment(request: ValidateRequest,
                manifest: Mapping[str, Any]) -> 'source.Deployment | None':
    """The deployment the export is checked against, or None."""
    if not request.against_work_dir:
        return None
    path = request.work_dir or manifest.get('work_dir')
    if not path:
        return None
    if not request.work_dir and not os.path.isdir(str(path)):
        raise exceptions.RhosoExportError(
            'The work dir %s the export came from is not here: give '
            '--work-dir, or --no-work-dir to check the documents alone'
            % path)
    stack = str(request.stack or manifest.get('stack') or
                workdir_mod.DEFAULT_STACK)
    deployment: source.Deployment = source.read(
        ownership.checked_work_dir(str(path), stack))
    return deployment
