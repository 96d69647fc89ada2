"""An export as files: the steps' directories and what is not a document.

``NN-<step>/`` holds the documents of one step (and patches under names
``oc apply -f`` does not read); the top holds no ``.yaml``, ``.yml`` or
``.json`` file, so neither ``oc apply -f <dir>`` nor ``oc apply -f
<dir>/NN-<step>/`` applies anything but that step: the report
(``report.md``), the shell variables (``adoption-vars.sh``), the manifest
(:data:`~.destination.MANIFEST`: what was written, with checksums) and
``secrets/`` (0700: the passwords as shell variables, the control
plane's osp-secret keys as a merge patch).
"""

import datetime
import os

from tripleo_ephemeral.rhoso import destination
from tripleo_ephemeral.rhoso import report as report_mod
from tripleo_ephemeral.rhoso import secret_docs
from tripleo_ephemeral.rhoso import shellvars
from tripleo_ephemeral.rhoso import writing
from tripleo_ephemeral.rhoso.controlplane import exporting as controlplane
from tripleo_ephemeral.rhoso.controlplane import report as controlplane_report

VARS_SCRIPT = 'adoption-vars.sh'
REPORT = 'report.md'


def manifest(export, files, now=None):
    """The manifest's data; ``files`` are the others written."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    choices = export.choices
    return {
        'written': now.strftime('%Y-%m-%dT%H:%M:%SZ'),
        'by': destination.BY,
        'stack': export.deployment.stack,
        'work_dir': export.deployment.workdir.path,
        'rhoso_version': choices.version,
        'network_map': {n.lower: n.name for n in export.networks},
        'netconfig': {'merged_into': export.merged_into,
                      'from': choices.network.netconfig_file},
        'nic_template_dir': choices.nic_template_dir,
        'nic_templates': dict(choices.nic_templates),
        'nodesets': {g.name: [h.name for h in g.hosts]
                     for g in export.groups},
        'skipped_roles': dict(export.skipped),
        'controlplane': controlplane.manifest(export)
        if export.controlplane else None,
        'steps': [{'directory': s.directory, 'commands': s.commands,
                   'documents': [{'file': d.file, 'kind': d.kind,
                                  'name': d.name} for d in s.documents]}
                  for s in export.kit.steps()],
        'files': writing.checksums(files),
    }


def files(export):
    """The :class:`~.writing.File` list of the export, manifest last."""
    deployment = export.deployment
    header = ('Written by "openstack overcloud adoption export" from %s '
              '(stack %s)\nfor RHOSO %s; report.md says where every value '
              'came from.' % (deployment.workdir.path, deployment.stack,
                              export.choices.version))
    result = []
    for step in export.kit.steps():
        mode = 0o600 if step.private else 0o644
        for document in step.documents:
            comments = export.sources.get(document.name) \
                if document.kind == 'OpenStackDataPlaneNodeSet' else None
            result.append(writing.File(step.path_of(document), writing.dump(
                document.body, header, comments), mode=mode))
        for patch in step.patches:
            text = patch.body if isinstance(patch.body, str) else \
                writing.dump(patch.body, header)
            result.append(writing.File(step.path_of(patch), text, mode=mode))
    passwords = shellvars.passwords_script(deployment, export.tls)
    embedded = passwords if export.choices.embed_secrets else None
    result.append(writing.File(VARS_SCRIPT, shellvars.variables_script(
        deployment, export.groups, export.choices, export.key_path,
        embedded), mode=0o600 if embedded else 0o644))
    if embedded is None:
        result.append(writing.File(os.path.join(
            writing.SECRETS_DIR, shellvars.PASSWORDS_FILE), passwords,
            mode=0o600))
    result.append(writing.File(secret_docs.OSP_PATCH, writing.dump(
        export.osp_secret.document, header), mode=0o600))
    report = report_mod.text(export)
    if export.controlplane is not None:
        result += controlplane.files(export)
        report += '\n' + controlplane_report.text(
            export.controlplane, export.controlplane_results)
    result.append(writing.File(REPORT, report))
    result.append(writing.File(destination.MANIFEST, writing.dump(
        manifest(export, result))))
    return result


def private_dirs(export):
    return [s.directory for s in export.kit.steps() if s.private]
