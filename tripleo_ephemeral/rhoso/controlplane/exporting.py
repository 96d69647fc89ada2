"""The control plane in ``overcloud adoption export``: build, check, lay out.

:func:`build` adds the control plane to an export of the data plane: its
steps, its Secrets beside the others, the computes' Nova settings in the
cells' ConfigMap, and the NetConfig's allocation ranges without the
addresses the control plane takes. :func:`check` validates the steps at
every bundled RHOSO version; :func:`files` lays them out: ``NN-name/``
directories of documents and ``.patch`` files, ``migration-vars.sh``.

Interim wiring, until the data-plane branch's step model and network plan
land: then the steps become ``steps.Step``\\ s of its kit and the pods' and
load balancers' ranges come from its plan.
"""


from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import kit
from tripleo_ephemeral.rhoso.controlplane import migration
from tripleo_ephemeral.rhoso.controlplane import nova
from tripleo_ephemeral.rhoso.controlplane import readback
from tripleo_ephemeral.rhoso.controlplane import schemas
from tripleo_ephemeral.rhoso.controlplane import validation
from tripleo_ephemeral.rhoso import writing


def build(export, inputs, compute_roles):
    """Build the control plane of ``export`` (an
    :class:`~tripleo_ephemeral.rhoso.export.Export` whose NetConfig,
    groups and key are made) into ``export.controlplane``; return the
    extra files of the cells' ConfigMap."""
    cp = kit.build(export.deployment, export.networks, export.groups, inputs,
                   export.key_path, compute_roles)
    export.controlplane = cp
    for name, document in export.documents:
        if document.get('kind') == 'NetConfig':
            addressing.carve_netconfig(document, cp.splits)
    names = {s.name for s in export.secrets}
    export.secrets += [s for s in cp.secrets if s.name not in names]
    return {nova.COMPUTE_FILE: cp.compute_config} if cp.compute_config \
        else {}


def patches(cp):
    return kit.patches(cp)


def check(export, deployment=None):
    """``{version: (problems, states, provenance)}`` of the control plane
    at every bundled version; the work-dir checks with ``deployment``."""
    cp = export.controlplane
    documents = [(problems_mod.describe(path, d), d)
                 for path, d in kit.documents(cp)]
    results = {}
    extra = []
    if deployment is not None:
        extra = validation.coverage(deployment, patches(cp), frozenset(
            export.choices_controlplane.skip_services))
        extra += validation.addresses(deployment, documents + [
            (name, d) for name, d in export.documents
            if d.get('kind') == 'NetConfig'])
    for version in schemas.versions():
        found, states = validation.check(documents, patches(cp), version)
        bundle = schemas.load(version)
        provenance = {k: v for k, v in bundle.provenance().items()
                      if k in _kinds(cp)}
        results[version] = (found + extra, states, provenance)
    return results


def _kinds(cp):
    return {d['kind'] for _, d in kit.documents(cp)}


def files(cp, header):
    """The :class:`~tripleo_ephemeral.rhoso.writing.File` list of the
    control plane's steps."""
    result = []
    for step in cp.steps:
        for document in step.documents:
            result.append(writing.File(step.path_of(document), writing.dump(
                document.body, header)))
        for patch in step.patches:
            command = patch.command.format(dir=step.directory,
                                           path=step.path_of(patch))
            result.append(writing.File(step.path_of(patch), writing.dump(
                patch.body, '%s\nApply with: %s' % (header, command))))
    result.append(writing.File(migration.FILE, cp.variables))
    return result


def manifest(cp, inputs):
    return {
        'steps': [s.directory for s in cp.steps],
        'patches': [p for p, _ in kit.patches(cp)],
        'skip_services': sorted(inputs.skip_services),
        'workers': [list(w) for w in inputs.workers],
    }


def validate_dir(path, version, deployment=None, manifest=None,
                 dataplane_documents=()):
    """``(problems, states, found)`` of the control plane's steps in the
    export directory ``path``: ``found`` says whether it has any."""
    documents, patch_list, found = readback.load(path)
    if not documents and not patch_list and not found:
        return [], 0, False
    problems, states = validation.check(documents, patch_list, version)
    problems = found + problems
    if deployment is not None:
        skip = frozenset(((manifest or {}).get('controlplane') or {}).get(
            'skip_services') or ())
        try:
            problems += validation.coverage(deployment, patch_list, skip)
        except exceptions.RhosoExportError as exc:
            problems.append(problems_mod.Problem(
                'the export', '', str(exc), 'export again', 'work dir'))
        problems += validation.addresses(deployment, documents + [
            (w, d) for w, d in dataplane_documents
            if isinstance(d, dict) and d.get('kind') == 'NetConfig'])
    return problems, states, True
