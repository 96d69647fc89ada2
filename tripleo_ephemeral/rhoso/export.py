"""``overcloud adoption export``: a work dir's deployment as RHOSO documents.

:func:`build` reads the work dir (:mod:`.source`), decides the node groups
(:mod:`.plan`), makes every document, converts and proves each role's NIC
template, validates the lot against the target version
(:mod:`.validate`) and refuses (RhosoInvalidError) to hand back an
invalid export; :func:`files` lays it out and the command writes it with
:func:`~.writing.write`. Nothing is written before all of that passed.
"""

import configparser
import datetime
import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import ansible_vars
from tripleo_ephemeral.rhoso import ceph
from tripleo_ephemeral.rhoso import documents as documents_mod
from tripleo_ephemeral.rhoso import edpm_inventory
from tripleo_ephemeral.rhoso import netconfig
from tripleo_ephemeral.rhoso import nic
from tripleo_ephemeral.rhoso import nic_files
from tripleo_ephemeral.rhoso import nodeset as nodeset_mod
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import problems as problems_mod
from tripleo_ephemeral.rhoso import report as report_mod
from tripleo_ephemeral.rhoso import secret_docs
from tripleo_ephemeral.rhoso import shellvars
from tripleo_ephemeral.rhoso import source
from tripleo_ephemeral.rhoso import validate
from tripleo_ephemeral.rhoso import writing
from tripleo_ephemeral.rhoso.controlplane import exporting as controlplane_mod
from tripleo_ephemeral.rhoso.controlplane import report as controlplane_report

VARS_SCRIPT = 'adoption-vars.sh'
REPORT = 'report.md'
TEMPLATE_VAR = 'edpm_network_config_template'


class Template:
    """A role's NIC template: the TripleO ``path`` and ``text``, its
    ``conversion`` and ``proof`` (host -> None or why not)."""

    def __init__(self, path, text, conversion, proof):
        self.path = path
        self.text = text
        self.conversion = conversion
        self.proof = proof


class Export:
    """Everything an export writes, before it is written."""

    def __init__(self, deployment, choices, choices_controlplane=None):
        self.deployment = deployment
        self.choices = choices
        self.choices_controlplane = choices_controlplane
        self.controlplane = None  # controlplane.kit.ControlPlane
        self.controlplane_results = {}
        self.groups = []
        self.skipped = {}
        self.networks = []
        self.documents = []      # (file name, document)
        self.secrets = []        # secret_docs.Written
        self.sources = {}        # NodeSet -> {variable: source}
        self.templates = {}      # role -> Template
        self.key_path = None
        self.ceph_vars = None    # path of cephadm's client configuration
        self.result = None       # validate.Result

    def named(self, kind):
        return [d for _, d in self.documents if d.get('kind') == kind]


def ssh_key(deployment):
    """``(path, text)`` of the key TripleO's Ansible logged in with: the
    ``private_key_file`` of config-download's ansible.cfg, else the work
    dir's tripleo-admin key; ``(None, None)`` when neither is readable."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(os.path.join(deployment.config_dir, 'ansible.cfg'))
    candidates = [parser.get('defaults', 'private_key_file', fallback=None),
                  deployment.wd.ssh_admin_key]
    for path in candidates:
        if path and os.path.isfile(path):
            try:
                with open(path) as f:
                    return path, f.read()
            except OSError:
                continue
    return None, None


def _place(document, carried, sources):
    """Carried variables: in the node template when every node has the
    same value, else on each node."""
    spec = document['spec']
    template_vars = spec['nodeTemplate']['ansible']['ansibleVars']
    names = sorted({n for values in carried.values() for n in values})
    for name in names:
        values = [carried[h].get(name, (None, None))[0] for h in carried]
        tripleo_name = next(c[name][1] for c in carried.values()
                            if name in c)
        sources[name] = 'TripleO\'s %s (the NIC template uses it)' % \
            tripleo_name
        if all(v == values[0] for v in values):
            template_vars[name] = values[0]
            continue
        for host, values_of in carried.items():
            if name in values_of:
                node = spec['nodes'][host].setdefault('ansible', {})
                node.setdefault('ansibleVars', {})[name] = values_of[name][0]


def _nic(export, group, document, netconfig_doc):
    """Convert and prove the role's NIC template into ``document``."""
    deployment, choices, role = export.deployment, export.choices, group.role
    path = choices.nic_templates.get(role.name) or nic_files.path(
        role, choices.nic_template_dir)
    text = nic_files.read(path)
    tripleo_vars = {h.name: deployment.tripleo_vars(h) for h in role.hosts}
    edpm_vars = {h.name: edpm_inventory.node_vars(document, h.name,
                                                  netconfig_doc)
                 for h in role.hosts}
    servicenets = edpm_inventory.service_networks(netconfig_doc)
    network_map = {n.lower: servicenets[n.name.lower()]
                   for n in export.networks}
    network_names = {(deployment.network(n.lower) or {}).get('name'): n.name
                     for n in export.networks if n.lower != 'ctlplane'}
    try:
        conversion = nic.convert(text, tripleo_vars, edpm_vars, network_map,
                                 network_names)
    except nic.RenderError as exc:
        raise exceptions.RhosoExportError(
            'The NIC template %s of role %s is not a Jinja template (%s): '
            'fix it, or give the role another with --nic-template %s=<file>'
            % (path, role.name, exc, role.name))
    _place(document, conversion.carried, export.sources[group.name])
    document['spec']['nodeTemplate']['ansible']['ansibleVars'][
        TEMPLATE_VAR] = conversion.template
    export.sources[group.name][TEMPLATE_VAR] = (
        '%sNetworkConfigTemplate %s, converted to EDPM\'s variables'
        % (role.name, path))
    edpm_vars = {h.name: edpm_inventory.node_vars(document, h.name,
                                                  netconfig_doc)
                 for h in role.hosts}
    proof = nic.prove(text, conversion.template, tripleo_vars, edpm_vars)
    failed = {h: why for h, why in proof.items() if why}
    if failed:
        host = sorted(failed)[0]
        raise exceptions.RhosoExportError(
            'The NIC template %s of role %s cannot be converted so that EDPM '
            'renders the same network_config on %s: %s; give the role a '
            'template EDPM renders the same with --nic-template %s=<file>'
            % (path, role.name, host, failed[host], role.name))
    export.templates[role.name] = Template(path, text, conversion, proof)


def _nodesets(export, netconfig_doc):
    ctlplane = [str(s.cidr) for s in export.networks[0].subnets]
    for group in export.groups:
        document = nodeset_mod.document(export.deployment, group,
                                        export.networks, export.choices)
        variables = document['spec']['nodeTemplate']['ansible'][
            'ansibleVars']
        sources = export.sources.setdefault(group.name, {})
        for var in ansible_vars.role_vars(group.role, ctlplane):
            variables[var.name] = var.value
            sources[var.name] = var.source
        if group.kind == plan.COMPUTE and ceph.uses_ceph(group.role):
            spec = document['spec']
            spec['services'].insert(spec['services'].index(
                'install-certs'), ceph.SERVICE)
            spec['nodeTemplate']['extraMounts'] = ceph.EXTRA_MOUNTS
        _nic(export, group, document, netconfig_doc)
        export.documents.append(('nodeset-%s.yaml' % group.name, document))


def build(wd, choices, controlplane=None):
    """The validated :class:`Export` of work dir ``wd``, with the control
    plane's steps when ``controlplane`` (its
    :class:`~.controlplane.inputs.Inputs`) is given; RhosoExportError (or
    RhosoInvalidError with the problems) when it cannot be made."""
    deployment = source.read(wd)
    export = Export(deployment, choices, controlplane)
    bundle_version = choices.version
    export.groups, export.skipped = plan.classify(deployment, choices)
    export.networks = netconfig.networks(deployment, choices)
    netconfig_doc = netconfig.document(export.networks)
    export.documents.append(('netconfig.yaml', netconfig_doc))
    _nodesets(export, netconfig_doc)
    tls = bool(deployment.global_vars.get('enable_internal_tls'))
    cells = {g.cell for g in export.groups if g.kind == plan.COMPUTE}
    for service in documents_mod.services(cells, tls):
        export.documents.append(('service-%s.yaml' % service['metadata'][
            'name'], service))
    on_ceph = [g.role for g in export.groups
               if g.kind == plan.COMPUTE and ceph.uses_ceph(g.role)]
    export.key_path, key_text = ssh_key(deployment)
    extra = {ceph.NOVA_CONF: ceph.nova_conf(on_ceph[0])} if on_ceph else {}
    if controlplane is not None:
        extra.update(controlplane_mod.build(export, controlplane, [
            g.role for g in export.groups if g.kind == plan.COMPUTE]))
    config = documents_mod.cells_config(extra or None)
    export.documents.append(('configmap-%s.yaml' % config['metadata'][
        'name'], config))
    for deployment_doc in documents_mod.deployments(
            [g.name for g in export.groups]):
        export.documents.append(('deployment-%s.yaml' % deployment_doc[
            'metadata']['name'], deployment_doc))
    ceph_files = None
    if on_ceph:
        export.ceph_vars, ceph_data = ceph.client_vars(deployment)
        ceph_files = ceph.conf_files(ceph_data) if ceph_data else None
    controlplane_secrets = list(export.secrets)
    export.secrets = secret_docs.all_secrets(
        deployment.passwords, tls, choices.ssh_key_secret, export.key_path,
        key_text, ceph_files, export.ceph_vars)
    names = {s.name for s in export.secrets}
    export.secrets += [s for s in controlplane_secrets if s.name not in names]
    documents = [(problems_mod.describe(name, doc), doc)
                 for name, doc in export.documents]
    documents += [(problems_mod.describe(secret_file(s), s.document),
                   s.document) for s in export.secrets]
    export.result = validate.check(
        documents, bundle_version, deployment, choices.rhoso_network,
        choices.nic_template_dir, choices.nic_templates)
    problems = list(export.result.problems)
    if controlplane is not None:
        export.controlplane_results = controlplane_mod.check(export,
                                                             deployment)
        problems += export.controlplane_results[bundle_version][0]
    if problems:
        first = problems[0]
        raise exceptions.RhosoInvalidError(
            'The export would not be valid for RHOSO %s (%d problems; '
            'nothing written), first: %s' % (
                bundle_version, len(problems),
                problems_mod.line(first)), problems)
    return export


def secret_file(written):
    return os.path.join(writing.SECRETS_DIR, 'secret-%s.yaml' % written.name)


def manifest(export, now=None):
    now = now or datetime.datetime.now(datetime.timezone.utc)
    choices = export.choices
    return {
        'written': now.strftime('%Y-%m-%dT%H:%M:%SZ'),
        'by': 'openstack overcloud adoption export',
        'stack': export.deployment.stack,
        'work_dir': export.deployment.wd.path,
        'rhoso_version': choices.version,
        'network_map': {n.lower: n.name for n in export.networks},
        'nic_template_dir': choices.nic_template_dir,
        'nic_templates': dict(choices.nic_templates),
        'nodesets': {g.name: [h.name for h in g.role.hosts]
                     for g in export.groups},
        'skipped_roles': dict(export.skipped),
        'controlplane': controlplane_mod.manifest(
            export.controlplane, export.choices_controlplane)
        if export.controlplane else None,
        'files': [{'file': name, 'kind': doc['kind'],
                   'name': doc['metadata']['name']}
                  for name, doc in export.documents] + [
            {'file': secret_file(s), 'kind': 'Secret', 'name': s.name}
            for s in export.secrets],
    }


def files(export):
    """The :class:`~.writing.File` list of the export."""
    deployment = export.deployment
    header = ('Written by "openstack overcloud adoption export" from %s '
              '(stack %s)\nfor RHOSO %s; report.md says where every value '
              'came from.' % (deployment.wd.path, deployment.stack,
                              export.choices.version))
    result = []
    for name, document in export.documents:
        result.append(writing.File(name, writing.dump(
            document, header, export.sources.get(
                document['metadata']['name']))))
    for written in export.secrets:
        result.append(writing.File(secret_file(written), writing.dump(
            written.document, header), mode=0o600))
    tls = bool(deployment.global_vars.get('enable_internal_tls'))
    passwords = shellvars.passwords_script(deployment, tls)
    embedded = passwords if export.choices.embed_secrets else None
    result.append(writing.File(VARS_SCRIPT, shellvars.variables_script(
        deployment, export.groups, export.choices, export.key_path,
        embedded), mode=0o600 if embedded else 0o644))
    if embedded is None:
        result.append(writing.File(os.path.join(
            writing.SECRETS_DIR, shellvars.PASSWORDS_FILE), passwords,
            mode=0o600))
    report = report_mod.text(export)
    if export.controlplane is not None:
        result += controlplane_mod.files(export.controlplane, header)
        report += '\n' + controlplane_report.text(
            export.controlplane, export.controlplane_results)
    result.append(writing.File(validate.MANIFEST, writing.dump(
        manifest(export))))
    result.append(writing.File(REPORT, report))
    return result
