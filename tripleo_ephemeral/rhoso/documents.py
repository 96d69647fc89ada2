"""The procedure's other documents: its services, the cells' ConfigMap and
the three OpenStackDataPlaneDeployments (pre-adoption validation, the
TripleO cleanup, the adoption itself), as the data-plane-adoption
procedure writes them."""

from tripleo_ephemeral.rhoso import nodeset as nodeset_mod

API_VERSION = nodeset_mod.API_VERSION
SERVICE = 'OpenStackDataPlaneService'
DEPLOYMENT = 'OpenStackDataPlaneDeployment'
PRE_ADOPTION = 'pre-adoption-validation'
CLEANUP = 'tripleo-cleanup'
CELLS_CONFIG = 'nova-cells-global-config'
MIGRATION_KEY = 'nova-migration-ssh-key'
WORKAROUNDS = ('99-nova-compute-cells-workarounds.conf',
               '[workarounds]\ndisable_compute_service_check_for_ffu=true\n')


def _object(kind, name, spec, api_version=API_VERSION):
    return {'apiVersion': api_version, 'kind': kind,
            'metadata': {'name': name}, 'spec': spec}


def services(cells, tls):
    """The services the procedure defines: its validation, the cleanup,
    and one Nova service per cell."""
    result = [
        _object(SERVICE, PRE_ADOPTION,
                {'playbook': 'osp.edpm.pre_adoption_validation'}),
        _object(SERVICE, CLEANUP, {'playbook': 'osp.edpm.tripleo_cleanup'}),
    ]
    for cell in sorted(cells):
        spec = {
            'dataSources': [
                {'secretRef': {'name': 'nova-%s-compute-config' % cell}},
                {'secretRef': {'name': MIGRATION_KEY}},
                {'configMapRef': {'name': CELLS_CONFIG}},
            ],
            'playbook': 'osp.edpm.nova',
            'caCerts': 'combined-ca-bundle',
            'edpmServiceType': 'nova',
            'containerImageFields': ['NovaComputeImage', 'EdpmIscsidImage'],
        }
        if tls:
            spec['tlsCerts'] = {'nova': {
                'contents': ['dnsnames', 'ips'], 'networks': ['ctlplane'],
                'issuer': 'osp-rootca-issuer-internal',
                'edpmRoleServiceName': 'nova'}}
        result.append(_object(SERVICE, nodeset_mod.nova_service(cell), spec))
    return result


def cells_config(extra=None):
    """The ConfigMap every cell's Nova service reads."""
    data = {WORKAROUNDS[0]: WORKAROUNDS[1]}
    data.update(extra or {})
    return {'apiVersion': 'v1', 'kind': 'ConfigMap',
            'metadata': {'name': CELLS_CONFIG}, 'data': data}


def deployments(nodesets):
    """The three Deployments, over every NodeSet, in the order they run."""
    names = list(nodesets)
    return [
        _object(DEPLOYMENT, 'openstack-pre-adoption',
                {'nodeSets': names, 'servicesOverride': [PRE_ADOPTION]}),
        _object(DEPLOYMENT, CLEANUP,
                {'nodeSets': names, 'servicesOverride': [CLEANUP]}),
        _object(DEPLOYMENT, 'openstack', {'nodeSets': names}),
    ]
