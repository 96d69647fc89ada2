"""The control plane in ``overcloud adoption export`` and ``validate``.

:func:`reserve` gives the network plan the OpenShift workers' addresses
before it places its parts; :func:`build` makes the control plane's steps
on the planned networks and adds them to the export's kit, with the
computes' Nova settings for the cells' ConfigMap; :func:`check` validates
them at every bundled RHOSO version (the data plane's checks leave steps
10-49 to it: :func:`dataplane_only`); :func:`files` adds
``migration-vars.sh``. :func:`validate_dir` is ``adoption validate``'s
part: the steps read back from a directory.
"""

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import steps
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import kit
from tripleo_ephemeral.rhoso.controlplane import migration
from tripleo_ephemeral.rhoso.controlplane import nova
from tripleo_ephemeral.rhoso.controlplane import readback
from tripleo_ephemeral.rhoso.controlplane import schemas
from tripleo_ephemeral.rhoso.controlplane import validation
from tripleo_ephemeral.rhoso import writing


def reserve(export, choices):
    """``choices`` for the network plan, with the workers' addresses
    reserved; remembers them on ``export``."""
    inputs = export.controlplane_inputs
    if inputs is None:
        return choices
    export.workers, reservations = addressing.workers(
        export.networks, inputs, choices.network)
    return addressing.with_workers(choices, reservations)


def build(export):
    """Make ``export.controlplane``; return the files it adds to the cells'
    ConfigMap."""
    cp = kit.build(export.deployment, export.networks, export.groups,
                   export.controlplane_inputs, export.workers,
                   export.key_path, [r for g in export.groups
                                     if g.kind == plan.COMPUTE
                                     for r in g.roles])
    export.controlplane = cp
    return {nova.COMPUTE_FILE: cp.compute_config} if cp.compute_config \
        else {}


def add_steps(export):
    for step in export.controlplane.steps:
        export.kit.add(step)


def is_control_plane(where):
    number = where.split('-', 1)[0]
    return number.isdigit() and int(number) in steps.CONTROL_PLANE


def dataplane_only(documents):
    """``(where, document)`` not of the control plane's steps."""
    return [(w, d) for w, d in documents if not is_control_plane(w)]


def check(export, deployment=None):
    """``{version: (problems, states, provenance)}`` of the control plane
    at every bundled version; the work-dir checks with ``deployment``."""
    cp = export.controlplane
    documents = [(problems_mod.describe(p, d), d)
                 for p, d in kit.documents(cp)]
    netconfigs = [(problems_mod.describe(p, d.body), d.body)
                  for p, d in export.kit.documents()
                  if d.kind == 'NetConfig']
    extra = []
    if deployment is not None:
        extra = validation.coverage(deployment, kit.patches(cp), frozenset(
            export.controlplane_inputs.skip_services))
        extra += validation.addresses(deployment, documents + netconfigs)
    kinds = {d['kind'] for _, d in documents}
    results = {}
    for version in schemas.versions():
        found, states = validation.check(documents, kit.patches(cp), version)
        provenance = {k: v for k, v in schemas.load(
            version).provenance().items() if k in kinds}
        results[version] = (found + extra, states, provenance)
    return results


def files(export):
    """The control plane's files outside the steps."""
    return [writing.File(migration.FILE, export.controlplane.variables)]


def manifest(export):
    inputs = export.controlplane_inputs
    return {'skip_services': sorted(inputs.skip_services),
            'workers': [list(w) for w in inputs.workers]}


def validate_dir(path, version, deployment=None, manifest_data=None,
                 documents=()):
    """``(problems, states, found)`` of the control plane's steps in the
    export directory ``path`` (``documents``: what ``validate`` read of
    it); ``found`` says whether it has any."""
    cp_documents, patches, found = readback.load(path)
    if not cp_documents and not patches and not found:
        return [], 0, False
    problems, states = validation.check(cp_documents, patches, version)
    problems = found + problems
    if deployment is not None:
        skip = frozenset(((manifest_data or {}).get('controlplane') or {})
                         .get('skip_services') or ())
        try:
            problems += validation.coverage(deployment, patches, skip)
        except exceptions.RhosoExportError as exc:
            problems.append(problems_mod.Problem(
                'the export', '', str(exc), 'export again', 'work dir'))
        problems += validation.addresses(deployment, cp_documents + [
            (w, d) for w, d in documents
            if isinstance(d, dict) and d.get('kind') == 'NetConfig'])
    return problems, states, True
