"""``overcloud adoption export``: a work dir's deployment as RHOSO's kit.

:func:`build` reads the work dir (:mod:`.source`), decides the node groups
(:mod:`.plan`), plans the networks (:mod:`.network_plan`, merged into the
operator's NetConfig by :mod:`.netconfig_merge`), makes every document,
converts and proves each role's NIC template (:mod:`.nodeset_vars`), lays
the documents out as the procedure's steps (:mod:`.dataplane_steps`),
validates the lot against the target version (:mod:`.validate`) and
refuses (RhosoInvalidError) to hand back an invalid export;
:mod:`.export_files` lays it out as files and :mod:`.writing` writes them.
Nothing is written before all of that passed.
"""

import configparser
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import ceph
from tripleo_ephemeral.rhoso import dataplane_steps
from tripleo_ephemeral.rhoso import documents as documents_mod
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import netconfig_merge
from tripleo_ephemeral.rhoso import network_plan
from tripleo_ephemeral.rhoso import nodeset as nodeset_mod
from tripleo_ephemeral.rhoso import nodeset_vars
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import secret_docs
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso import steps
from tripleo_ephemeral.rhoso import upstream
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral.rhoso.controlplane import exporting as controlplane


class Export:
    """Everything an export writes, before it is written."""

    def __init__(self, deployment, choices, controlplane_inputs=None):
        self.deployment = deployment
        self.choices = choices
        #: the control plane's steps 10-49 (controlplane.kit.ControlPlane)
        #: when its inputs are given
        self.controlplane_inputs = controlplane_inputs
        self.controlplane = None
        self.controlplane_results = {}
        self.workers = {}           # network -> {OpenShift worker: address}
        self.groups = []
        self.skipped = {}
        self.networks = []
        self.netconfig = None       # the NetConfig document
        self.merged_into = None     # the operator's NetConfig's name
        self.dropped = {}           # subnet -> single addresses left out
        self.kit = steps.Kit()
        self.secrets = []           # secret_docs.Written, data plane's
        self.osp_secret = None      # the control plane's, as a patch
        self.sources = {}           # NodeSet -> {variable: source}
        self.templates = {}         # role -> nodeset_vars.Template
        self.key_path = None
        self.ceph_vars = None       # path of cephadm's client configuration
        self.result = None          # validate.Result

    @property
    def tls(self):
        return bool(self.deployment.global_vars.get('enable_internal_tls'))

    def named(self, kind):
        return self.kit.of_kind(kind)


def ssh_key(deployment):
    """``(path, text)`` of the key TripleO's Ansible logged in with: the
    ``private_key_file`` of config-download's ansible.cfg, else the work
    dir's tripleo-admin key; ``(None, None)`` when neither is readable."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(os.path.join(deployment.config_dir, 'ansible.cfg'))
    candidates = [parser.get('defaults', 'private_key_file', fallback=None),
                  deployment.workdir.ssh_admin_key]
    for path in candidates:
        if path and os.path.isfile(path):
            try:
                with open(path) as f:
                    return path, f.read()
            except OSError:
                continue
    return None, None


def _networks(export):
    choices = export.choices
    export.networks = netconfig.networks(export.deployment, choices)
    path = choices.network.netconfig_file
    theirs = netconfig_merge.read(path) if path else None
    if theirs is not None:
        export.merged_into = theirs['metadata'].get('name')
        netconfig_merge.match(export.networks, theirs, path)
    export.dropped = network_plan.plan(
        export.networks, controlplane.reserve(export, choices),
        export.merged_into)
    export.netconfig = (netconfig_merge.document(export.networks, theirs)
                        if theirs is not None else
                        netconfig.document(export.networks))


def _nodesets(export):
    for group in export.groups:
        document = nodeset_mod.document(export.deployment, group,
                                        export.networks, export.choices)
        sources, templates = nodeset_vars.fill(
            export.deployment, group, document, export.netconfig,
            export.networks, export.choices)
        group.document = document
        export.sources[group.name] = sources
        export.templates.update(templates)


def _secrets(export):
    deployment = export.deployment
    export.key_path, key_text = ssh_key(deployment)
    on_ceph = [r for g in export.groups for r in g.roles
               if g.kind == plan.COMPUTE and ceph.uses_ceph(r)]
    ceph_files = None
    if on_ceph:
        export.ceph_vars, ceph_data = ceph.client_vars(deployment)
        ceph_files = ceph.conf_files(ceph_data) if ceph_data else None
    export.secrets = secret_docs.data_plane(
        deployment.passwords, export.tls, export.choices.ssh_key_secret,
        export.key_path, key_text, ceph_files, export.ceph_vars)
    export.osp_secret = secret_docs.osp_secret(deployment.passwords)
    return on_ceph


def _secret_notes(export):
    notes = []
    if export.key_path is None:
        notes.append('No SSH key of TripleO\'s Ansible was found (ansible.cfg '
                     'private_key_file, the work dir\'s ssh_private_key): '
                     'oc create secret generic %s --from-file=ssh-privatekey='
                     '<the key TripleO\'s Ansible logs in with>'
                     % export.choices.ssh_key_secret)
    redhat = export.choices.redhat
    if redhat is not None:
        notes.append('Downstream, the NodeSets read %s and %s '
                     '(ansibleVarsFrom): oc create secret generic %s '
                     '--from-literal rhc_auth=\'{"login": {"username": '
                     '"<user>", "password": "<password>"}}\'; oc create '
                     'secret generic %s --from-literal '
                     'edpm_container_registry_logins=\'{"registry.redhat.io"'
                     ': {"<user>": "<password>"}}\' '
                     '(%s)' % (redhat.subscription_secret,
                               redhat.registry_secret,
                               redhat.subscription_secret,
                               redhat.registry_secret,
                               upstream.source('compute', '336-356').text()))
    return notes


def _kit(export, on_ceph, extra=None):
    kit = export.kit
    notes = []
    if export.merged_into is None:
        notes.append('No --netconfig was given: this is a NetConfig of its '
                     'own, for a namespace without one.')
    kit.add(dataplane_steps.netconfig_step(
        export.netconfig, export.choices.network.netconfig_file, notes))
    kit.add(dataplane_steps.secrets_step(export.secrets,
                                         _secret_notes(export)))
    cells = sorted({g.cell for g in export.groups if g.kind == plan.COMPUTE})
    files = dict(extra or {})
    if on_ceph:
        files[ceph.NOVA_CONF] = ceph.nova_conf(on_ceph[0])
    config = documents_mod.cells_config(files or None)
    nova = [documents_mod.nova_service(cell, export.tls) for cell in cells]
    cleanup = upstream.facts()['cleanup']
    dataplane_steps.compute_steps(
        kit, export.groups, config, nova, 'Only the compute cells\' '
        'NodeSets: the cleanup stops %s (%s), so it never runs on '
        'networkers, whose tripleo_ovn_controller carries the gateways' % (
            cleanup['stops'], upstream.source(
                cleanup['source'], cleanup['lines']).text()))
    dataplane_steps.networker_steps(kit, export.groups, not cells)


def documents(export):
    """``(where, document)`` of every document the kit applies."""
    return [(problems_mod.describe(path, doc.body), doc.body)
            for path, doc in export.kit.documents()]


def build(workdir, choices, controlplane_inputs=None):
    """The validated :class:`Export` of work dir ``workdir``, with the control
    plane's steps when ``controlplane_inputs`` (its
    :class:`~.controlplane.inputs.Inputs`) are given; RhosoExportError (or
    RhosoInvalidError with the problems) when it cannot be made."""
    deployment = source.read(workdir)
    export = Export(deployment, choices, controlplane_inputs)
    export.groups, export.skipped = plan.classify(deployment, choices)
    _networks(export)
    _nodesets(export)
    on_ceph = _secrets(export)
    extra = controlplane.build(export) if controlplane_inputs else None
    _kit(export, on_ceph, extra)
    if controlplane_inputs:
        controlplane.add_steps(export)
    export.result = validate.check(
        controlplane.dataplane_only(documents(export)), choices.version,
        deployment, choices.rhoso_network, choices.nic_template_dir,
        choices.nic_templates, skipped=set(export.skipped))
    problems = list(export.result.problems)
    if controlplane_inputs:
        export.controlplane_results = controlplane.check(export, deployment)
        problems += export.controlplane_results[choices.version][0]
    if problems:
        raise exceptions.RhosoInvalidError(
            'The export would not be valid for RHOSO %s (%d problems; '
            'nothing written), first: %s' % (
                choices.version, len(problems),
                problems_mod.line(problems[0])), problems)
    return export
