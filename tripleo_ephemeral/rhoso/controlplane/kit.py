"""The control plane's part of an export: steps 10-49 of the kit.

:func:`build` reads what the work dir has (through the data plane's
:class:`~tripleo_ephemeral.rhoso.source.Deployment` and NetConfig
networks) and the operator's :class:`~.inputs.Inputs`, and makes every
step in the procedure's order as a :class:`~tripleo_ephemeral.rhoso.steps.
Step`: the workers' networks (10-12), the backend services, the Ceph back
end and stopping the source's services (20-22), the database and OVN
migrations (30-32), then the services (40-49), each patch a step of its
own so that the waits and checks of its page come between. Each step's
documents are what ``oc apply -f NN-name/`` creates; its patch the
``oc patch`` it runs. Pure: nothing is written, nothing contacted.
"""

from tripleo_ephemeral.rhoso import ceph as ceph_mod
from tripleo_ephemeral.rhoso import secret_docs
from tripleo_ephemeral.rhoso import steps as steps_mod
from tripleo_ephemeral.rhoso.controlplane import addressing
from tripleo_ephemeral.rhoso.controlplane import apis
from tripleo_ephemeral.rhoso.controlplane import backend
from tripleo_ephemeral.rhoso.controlplane import ceph_backend
from tripleo_ephemeral.rhoso.controlplane import cinder
from tripleo_ephemeral.rhoso.controlplane import endpoints as endpoints_mod
from tripleo_ephemeral.rhoso.controlplane import glance
from tripleo_ephemeral.rhoso.controlplane import keystone
from tripleo_ephemeral.rhoso.controlplane import migration
from tripleo_ephemeral.rhoso.controlplane import networking
from tripleo_ephemeral.rhoso.controlplane import neutron
from tripleo_ephemeral.rhoso.controlplane import nova
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod
from tripleo_ephemeral.rhoso.controlplane import services as services_mod

#: The steps' directories, in the procedure's order.
NNCP, NETWORKS, METALLB = '10-nncp', '11-networks', '12-metallb'
SECRETS, BACKEND, CEPH, STOP = (
    '20-controlplane-secrets', '21-backend-services', '22-ceph-backend',
    '23-stop-services')
DATABASES, OVN_DATABASES, OVN_NORTHD = (
    '30-database-migration', '31-ovn-databases', '32-ovn-northd')
#: One per patch of an adopted service: (directory, patch name, title).
SERVICE_STEPS = (
    ('40-keystone', 'keystone', 'Adopt the Identity service'),
    ('41-neutron', 'neutron', 'Adopt the Networking service'),
    ('42-glance', 'glance', 'Adopt the Image service'),
    ('43-placement', 'placement', 'Adopt the Placement service'),
    ('44-nova', 'nova', 'Adopt the Compute service'),
    ('45-cinder-api', 'cinder-api', 'Adopt the Block Storage API'),
    ('46-cinder', 'cinder-services', 'Start the Block Storage services'),
    ('47-horizon', 'horizon', 'Adopt the Dashboard'),
    ('48-heat', 'heat', 'Adopt the Orchestration service'),
    ('49-telemetry', 'telemetry', 'Adopt the Telemetry services'))
#: The page that creates the control plane's first Secret.
PAGES_SECRETS = 'proc_adopting-the-identity-service.adoc'
WAIT_CONTROL_PLANE = ('oc wait --for condition=Ready --timeout=600s '
                      'OpenStackControlPlane openstack')


def step(directory, title, page, documents=(), patch=None, before=(),
         waits=(), checks=(), notes=(), private=False):
    """A :class:`~tripleo_ephemeral.rhoso.steps.Step` of the control
    plane: ``documents`` ``[(file, body)]``, ``patch`` a
    :class:`~.patch.Patch` (its ``after`` commands become checks)."""
    number, _, name = directory.partition('-')
    commands = list(before) + (['oc apply -f {dir}/'] if documents else [])
    patches = []
    if patch is not None:
        patches.append(patch)
        checks = list(patch.after) + list(checks)
        notes = list(notes) + list(patch.inputs)
    return steps_mod.Step(
        int(number), name, title, patch_mod.source(page),
        [steps_mod.Document(f, d) for f, d in documents], patches,
        commands, waits, checks, notes, private)


class ControlPlane:
    """Everything the control plane adds to an export."""

    def __init__(self):
        self.splits = []
        self.fates = {}
        self.endpoints = None
        self.steps = []            # steps.Step, in order
        self.secrets = []          # secret_docs.Written
        self.missing_networks = {}
        self.values = []           # (what, value, source) of the backend
        self.compute_config = None
        self.compute_configs = {}
        self.compute_differs = []
        self.ceph_source = None
        self.variables = ''


def _role_running(deployment, names):
    return next((r for r in deployment.roles.values()
                 if any(n in r.services for n in names)), None)


def _networking(cp, inputs):
    policies, attachments, metallb, cp.missing_networks = \
        networking.documents(cp.splits, inputs.workers)
    found = []
    if policies:
        found.append(step(
            NNCP, 'Configure the OpenShift workers\' networks',
            'proc_configuring-openshift-worker-nodes.adoc',
            [('nncp-%s.yaml' % d['metadata']['name'], d) for d in policies],
            waits=['oc wait nncp %s --for jsonpath=\'{.status.conditions[?('
                   '@.type=="Available")].status}\'=True --timeout=300s'
                   % d['metadata']['name'] for d in policies]))
    notes = [] if policies else [
        'No --ocp-worker: no NodeNetworkConfigurationPolicy written; the '
        'attachments expect a VLAN interface named after each network on '
        'every worker']
    page = 'proc_configuring-networking-for-control-plane-services.adoc'
    found.append(step(NETWORKS, 'Attach the pods to TripleO\'s networks',
                      page, [('nad-%s.yaml' % d['metadata']['name'], d)
                             for d in attachments],
                      checks=['oc get net-attach-def'], notes=notes))
    if metallb:
        found.append(step(
            METALLB, 'Give the load balancers their addresses', page,
            [('%s-%s.yaml' % (d['kind'].lower(), d['metadata']['name']), d)
             for d in metallb],
            checks=['oc get ipaddresspool -n metallb-system']))
    return found


def _ceph(cp, deployment):
    if not any(ceph_backend.uses_ceph(r) for r in deployment.roles.values()):
        return None
    path, data = ceph_mod.client_vars(deployment)
    if data is None:
        path, data = ceph_backend.client_data(deployment)
    cp.ceph_source = path
    notes = []
    if data:
        cp.secrets.append(secret_docs.ceph_conf(ceph_mod.conf_files(data),
                                                path))
    else:
        notes.append('The Ceph cluster\'s ceph.conf and keyring are not in '
                     'the work dir: create the %s Secret from /etc/ceph of '
                     'a controller' % ceph_backend.SECRET)
    return step(CEPH, 'Mount the Ceph back end', ceph_backend.PAGE,
                patch=ceph_backend.build(), notes=notes)


def _services(cp, deployment, inputs, cells):
    ep = cp.endpoints
    patches = {}
    for name in services_mod.adopted(cp.fates):
        role = _role_running(deployment, [
            s for s, f in cp.fates.items()
            if f.target == name and f.kind == services_mod.ADOPT])
        if name == 'keystone':
            patches['keystone'] = keystone.build(role, ep)
            document, sources = keystone.secret(role)
            if document:
                cp.secrets.append(secret_docs.Written(
                    keystone.SECRET, document, sources,
                    'the Fernet and credential keys TripleO deployed, for '
                    'the Identity service'))
        elif name == 'neutron':
            patches['neutron'] = neutron.build(deployment, role, ep)
        elif name == 'glance':
            patches['glance'] = glance.build(deployment, role, ep,
                                             inputs.replicas)
        elif name == 'placement':
            patches['placement'] = apis.placement(ep)
        elif name == 'nova':
            patches['nova'] = nova.build(role, ep, cells)
        elif name == 'cinder':
            for found in cinder.build(deployment, role, ep):
                patches[found.name] = found
        elif name in ('horizon', 'heat'):
            patches[name] = getattr(apis, name)(role)
        elif name == 'telemetry':
            patches['telemetry'] = apis.telemetry(deployment)
    found = []
    for directory, name, title in SERVICE_STEPS:
        if name in patches:
            found.append(step(directory, title, patches[name].page_name,
                              patch=patches[name],
                              waits=[WAIT_CONTROL_PLANE]))
    return found


def build(deployment, networks, groups, inputs, workers=None,
          key_path=None, compute_roles=()):
    """The :class:`ControlPlane` of ``deployment`` on ``networks`` as
    the network plan split them, the workers at ``workers``' addresses
    (:func:`~.addressing.workers`)."""
    cp = ControlPlane()
    cp.fates = services_mod.fates(deployment, inputs.skip_services)
    cp.splits = addressing.splits(networks, workers or {})
    cells = sorted({g.cell for g in groups if g.cell})
    cp.endpoints = endpoints_mod.endpoints(cp.splits, cells)
    cp.steps += _networking(cp, inputs)
    tls = bool(deployment.global_vars.get('enable_internal_tls'))
    dns = next((r.group_vars.get('ctlplane_dns_nameservers')
                for r in deployment.roles.values()
                if r.group_vars.get('ctlplane_dns_nameservers')), [])
    document, cp.values, needed = backend.document(
        inputs, cp.endpoints, cells, tls, dns)
    cp.steps.append(step(
        BACKEND, 'Deploy the backend services', backend.PAGE,
        [('openstackcontrolplane.yaml', document)],
        before=['# osp-secret exists (the RHOSO installation\'s); then: oc '
                'patch secret osp-secret --type merge --patch-file %s'
                % secret_docs.OSP_PATCH],
        waits=['oc wait --for condition=Ready --timeout=600s galera/'
               'openstack rabbitmq/rabbitmq'],
        checks=['oc get Rabbitmqs,Galera'], notes=needed))
    ceph_step = _ceph(cp, deployment)
    if ceph_step:
        cp.steps.append(ceph_step)
    source = '. %s' % migration.FILE
    cp.steps.append(step(
        STOP, 'Stop the source cloud\'s services',
        'proc_stopping-openstack-services.adoc', before=[
            source, '# the page\'s scripts, with $CONTROLLER1_SSH..'
            '$CONTROLLER%d_SSH' % max(1, len(migration.controllers(
                deployment)))]))
    cp.steps.append(step(
        DATABASES, 'Copy the databases',
        'proc_migrating-databases-to-mariadb-instances.adoc', before=[
            source, '# the page\'s mariadb-copy-data pod and scripts'],
        checks=['the page\'s verification: nova-manage cell_v2 '
                'list_cells']))
    if any(f.target == 'ovn' for f in cp.fates.values()):
        first, second = migration.ovn_patches(inputs, cp.endpoints)
        cp.steps.append(step(OVN_DATABASES, 'Start the OVN databases on '
                             'the copied data', migration.OVN_PAGE,
                             patch=first, before=[
                                 source, '# the page\'s ovn-copy-data pod '
                                 'and scripts']))
        cp.steps.append(step(OVN_NORTHD, 'Start ovn-northd',
                             migration.OVN_PAGE, patch=second))
    cp.variables = migration.script(deployment, inputs, cells, key_path,
                                    cp.endpoints.internal)
    cp.steps += _services(cp, deployment, inputs, cells)
    _merge_mounts(cp)
    cp.compute_config, cp.compute_configs, cp.compute_differs = \
        nova.compute_config(compute_roles)
    if cp.secrets:
        cp.steps.append(step(
            SECRETS, 'The control plane\'s Secrets', PAGES_SECRETS, [
                ('%02d-secret-%s.yaml' % (i, w.name), w.document)
                for i, w in enumerate(cp.secrets, 1)], private=True,
            notes=[w.note for w in cp.secrets]))
    cp.steps.sort(key=lambda s: s.number)
    return cp


def _merge_mounts(cp):
    """A later patch's ``extraMounts`` replaces the list (merge patches
    replace arrays): keep the Ceph volume in Glance's NFS patch."""
    bodies = [p.body for s in cp.steps for p in s.patches]
    ceph = [b for b in bodies if b['spec'].get('extraMounts') and
            set(b['spec']) == {'extraMounts'}]
    for body in bodies:
        if ceph and body is not ceph[0] and body['spec'].get('extraMounts'):
            body['spec']['extraMounts'] = ceph[0]['spec']['extraMounts'] + \
                body['spec']['extraMounts']


def patches(cp):
    """Every ``(path, patch body)`` in order."""
    return [(s.path_of(p), p.body) for s in cp.steps for p in s.patches]


def documents(cp):
    """Every ``(path, body)`` of the steps' directories."""
    return [(s.path_of(d), d.body) for s in cp.steps for d in s.documents]
