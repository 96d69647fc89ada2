"""The control plane's part of an export, as steps 10-49 of the kit.

:func:`build` reads what the work dir has (through the data plane's
:class:`~tripleo_ephemeral.rhoso.source.Deployment` and NetConfig
networks) and the operator's :class:`~.inputs.Inputs`, and makes every
step in the procedure's order: the workers' networks (10-12), the backend
services and the Ceph back end (20-21), the database and OVN migrations
(30-31), then one step per adopted service (40-48). Each :class:`Step` is
the documents ``oc apply -f NN-name/`` creates, the patches ``oc patch``
applies, and the commands, waits and checks the page runs around them.
Pure: nothing is written, nothing contacted.
"""


from tripleo_ephemeral.rhoso import ceph as ceph_mod
from tripleo_ephemeral.rhoso import secret_docs
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
BACKEND, CEPH, STOP = ('20-backend-services', '21-ceph-backend',
                       '22-stop-services')
DATABASES, OVN = '30-database-migration', '31-ovn-migration'
#: One per adopted service.
SERVICE_STEPS = ('40-keystone', '41-neutron', '42-glance', '43-placement',
                 '44-nova', '45-cinder', '46-horizon', '47-heat',
                 '48-telemetry')
WAIT_CONTROL_PLANE = ('oc wait --for condition=Ready --timeout=600s '
                      'OpenStackControlPlane openstack')


class Step:
    """One step: ``documents`` ``[(file, document)]`` for ``oc apply -f``,
    ``patches`` (:class:`~.patch.Patch`), ``before``/``after`` commands,
    ``waits`` and ``checks``, the upstream ``page``."""

    def __init__(self, directory, page, documents=(), patches=(),
                 before=(), waits=(), checks=()):
        number, _, name = directory.partition('-')
        self.number = int(number)
        self.name = name
        self.page = patch_mod.page(page)
        self.documents = list(documents)
        self.patches = list(patches)
        self.before = list(before)
        self.waits = list(waits)
        self.checks = list(checks)

    @property
    def directory(self):
        return '%02d-%s' % (self.number, self.name)

    def patch_file(self, patch):
        if len(self.patches) == 1:
            return patch.file
        return '%d-%s' % (self.patches.index(patch) + 1, patch.file)


class ControlPlane:
    """Everything the control plane adds to an export."""

    def __init__(self):
        self.splits = []
        self.fates = {}
        self.endpoints = None
        self.steps = []
        self.secrets = []          # secret_docs.Written
        self.secret_sources = {}   # Secret name -> {key: source}
        self.missing_networks = {}
        self.values = []           # (what, value, source) of the backend
        self.inputs = []           # (step, sentence)
        self.compute_config = None
        self.compute_configs = {}
        self.compute_differs = []
        self.ceph_source = None
        self.variables = ''


def _role_running(deployment, names):
    for role in deployment.roles.values():
        if any(n in role.services for n in names):
            return role
    return None


def _networking(cp, inputs):
    policies, attachments, metallb, cp.missing_networks = \
        networking.documents(cp.splits, inputs.workers)
    steps = []
    if policies:
        steps.append(Step(NNCP, 'proc_configuring-openshift-worker-'
                          'nodes.adoc', [('nncp-%s.yaml' % d['metadata'][
                              'name'], d) for d in policies],
                          waits=['oc wait nncp %s --for jsonpath=\'{.status.'
                                 'conditions[?(@.type=="Available")].status}'
                                 '\'=True --timeout=300s' % d['metadata'][
                                     'name'] for d in policies]))
    else:
        cp.inputs.append((int(NNCP[:2]), 'No --ocp-worker: no '
                          'NodeNetworkConfigurationPolicy written; the '
                          'attachments expect a VLAN interface named after '
                          'each network on every worker'))
    steps.append(Step(NETWORKS, 'proc_configuring-networking-for-'
                      'control-plane-services.adoc',
                      [('nad-%s.yaml' % d['metadata']['name'], d)
                       for d in attachments],
                      checks=['oc get net-attach-def']))
    if metallb:
        steps.append(Step(METALLB, 'proc_configuring-networking-for-'
                          'control-plane-services.adoc',
                          [('%s-%s.yaml' % (d['kind'].lower(), d['metadata'][
                              'name']), d) for d in metallb],
                          checks=['oc get ipaddresspool -n metallb-system']))
    return steps


def _ceph(cp, deployment, roles):
    if not any(ceph_backend.uses_ceph(r) for r in roles):
        return None
    path, data = ceph_mod.client_vars(deployment)
    if data is None:
        path, data = ceph_backend.client_data(deployment)
    cp.ceph_source = path
    if data:
        written = secret_docs.ceph_conf(ceph_mod.conf_files(data), path)
        cp.secrets.append(written)
    else:
        cp.inputs.append((int(CEPH[:2]), 'The Ceph cluster\'s ceph.conf '
                          'and keyring are not in the work dir: create the '
                          '%s Secret from /etc/ceph of a controller'
                          % ceph_backend.SECRET))
    return Step(CEPH, ceph_backend.PAGE,
                patches=[ceph_backend.build()],
                before=['oc apply -f secrets/secret-%s.yaml'
                        % ceph_backend.SECRET])


def _service_patches(cp, deployment, inputs, cells):
    adopted = services_mod.adopted(cp.fates)
    ep = cp.endpoints
    found = {}
    for name in adopted:
        role = _role_running(deployment, [
            s for s, f in cp.fates.items() if f.target == name and
            f.kind == services_mod.ADOPT])
        if name == 'keystone':
            found[name] = [keystone.build(role, ep)]
            document, sources = keystone.secret(role)
            if document:
                cp.secrets.append(secret_docs.Written(
                    keystone.SECRET, document, sources,
                    'oc apply -f before the Identity service\'s patch'))
        elif name == 'neutron':
            found[name] = [neutron.build(deployment, role, ep)]
        elif name == 'glance':
            found[name] = [glance.build(deployment, role, ep,
                                        inputs.replicas)]
        elif name == 'placement':
            found[name] = [apis.placement(ep)]
        elif name == 'nova':
            found[name] = [nova.build(role, ep, cells)]
        elif name == 'cinder':
            found[name] = cinder.build(deployment, role, ep)
        elif name == 'horizon':
            found[name] = [apis.horizon(role)]
        elif name == 'heat':
            found[name] = [apis.heat(role)]
        elif name == 'telemetry':
            found[name] = [apis.telemetry(deployment)]
    steps = []
    for directory in SERVICE_STEPS:
        name = directory.split('-', 1)[1]
        if name not in found:
            continue
        before = ['oc apply -f secrets/secret-%s.yaml' % keystone.SECRET] \
            if name == 'keystone' else []
        steps.append(Step(directory, found[name][0].page.split(':')[-1],
                          patches=found[name], before=before,
                          waits=[WAIT_CONTROL_PLANE]))
    return steps


def build(deployment, networks, groups, inputs, key_path=None,
          compute_roles=()):
    """The :class:`ControlPlane` of ``deployment``."""
    cp = ControlPlane()
    cp.fates = services_mod.fates(deployment, inputs.skip_services)
    cp.splits = addressing.split(deployment, networks, inputs)
    cells = sorted({g.cell for g in groups if g.cell})
    cp.endpoints = endpoints_mod.endpoints(cp.splits, cells)
    cp.steps += _networking(cp, inputs)
    tls = bool(deployment.global_vars.get('enable_internal_tls'))
    dns = next((r.group_vars.get('ctlplane_dns_nameservers')
                for r in deployment.roles.values()
                if r.group_vars.get('ctlplane_dns_nameservers')), [])
    document, cp.values, needed = backend.document(
        inputs, cp.endpoints, cells, tls, dns)
    cp.inputs += [(int(BACKEND[:2]), n) for n in needed]
    cp.steps.append(Step(
        BACKEND, backend.PAGE,
        [('openstackcontrolplane.yaml', document)],
        before=['# osp-secret exists (the RHOSO installation\'s); then: oc '
                'patch secret osp-secret --type merge --patch-file '
                'secrets/secret-%s.yaml' % secret_docs.OSP_SECRET_NAME],
        waits=['oc wait --for condition=Ready --timeout=600s galera/'
               'openstack rabbitmq/rabbitmq'],
        checks=['oc get Rabbitmqs,Galera']))
    ceph_step = _ceph(cp, deployment, list(deployment.roles.values()))
    if ceph_step:
        cp.steps.append(ceph_step)
    cp.steps.append(Step(
        STOP, 'proc_stopping-openstack-services.adoc',
        before=['. %s' % migration.FILE,
                '# the page\'s scripts: they stop the source cloud\'s '
                'services with $CONTROLLER1_SSH..$CONTROLLER%d_SSH'
                % max(1, len(migration.controllers(deployment)))]))
    cp.steps.append(Step(
        DATABASES, 'proc_migrating-databases-to-mariadb-instances.adoc',
        before=['. %s' % migration.FILE,
                '# the page\'s mariadb-copy-data pod and scripts, with the '
                'variables above'],
        checks=['the page\'s verification: the databases\' tables and '
                'nova-manage cell_v2 list_cells']))
    cp.variables = migration.script(deployment, inputs, cells, key_path,
                                    cp.endpoints.internal)
    ovn = [f for f in cp.fates.values() if f.target == 'ovn']
    if ovn:
        cp.steps.append(Step(OVN, migration.OVN_PAGE,
                             patches=migration.ovn_patches(inputs,
                                                           cp.endpoints),
                             before=['. %s' % migration.FILE]))
    cp.steps += _service_patches(cp, deployment, inputs, cells)
    _merge_mounts(cp)
    cp.compute_config, cp.compute_configs, cp.compute_differs = \
        nova.compute_config(compute_roles)
    for step in cp.steps:
        for patch in step.patches:
            cp.inputs += [(step.number, i) for i in patch.inputs]
    cp.steps.sort(key=lambda s: s.number)
    return cp


def _merge_mounts(cp):
    """A later patch's ``extraMounts`` replaces the list (merge patches
    replace arrays): keep the Ceph volume in Glance's NFS patch."""
    ceph = [p for s in cp.steps for p in s.patches if p.service == 'ceph']
    if not ceph:
        return
    for step in cp.steps:
        for patch in step.patches:
            mounts = patch.document['spec'].get('extraMounts')
            if patch.service != 'ceph' and mounts:
                patch.document['spec']['extraMounts'] = ceph[0].document[
                    'spec']['extraMounts'] + mounts


def patches(cp):
    """Every ``(step, patch)`` in order."""
    return [(s, p) for s in cp.steps for p in s.patches]


def documents(cp):
    """Every ``(path, document)`` of the steps' directories."""
    return [('%s/%s' % (s.directory, f), d) for s in cp.steps
            for f, d in s.documents]
