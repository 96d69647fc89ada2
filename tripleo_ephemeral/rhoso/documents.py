"""The procedure's other documents: its services, the cells' ConfigMap and
its OpenStackDataPlaneDeployments, as the data-plane-adoption procedure
writes them (names and fields), each made by one function."""

from typing import Any, Iterable, TypedDict

from tripleo_ephemeral.rhoso import services as services_mod
from tripleo_ephemeral.rhoso import steps

API_VERSION = 'dataplane.openstack.org/v1beta1'
SERVICE = 'OpenStackDataPlaneService'
DEPLOYMENT = 'OpenStackDataPlaneDeployment'
PRE_ADOPTION = 'pre-adoption-validation'
CLEANUP = 'tripleo-cleanup'
CELLS_CONFIG = 'nova-cells-global-config'
MIGRATION_KEY = 'nova-migration-ssh-key'
WORKAROUNDS = ('99-nova-compute-cells-workarounds.conf',
               '[workarounds]\ndisable_compute_service_check_for_ffu=true\n')
#: The Deployments' names in the procedures.
PRE_ADOPTION_DEPLOYMENT = 'openstack-pre-adoption'
CLEANUP_DEPLOYMENT = 'tripleo-cleanup'
ADOPTION_DEPLOYMENT = 'openstack'
NETWORKER_PRE_ADOPTION = 'openstack-pre-adoption-networker'
NETWORKER_DEPLOYMENT = 'openstack-networker'
#: The fast-forward upgrade's (``openstack-nova-compute-ffu-$CELL``).
FFU_DEPLOYMENT = 'openstack-nova-compute-ffu-%s'
FFU_BACKOFF_LIMIT = 3


class DataPlaneObject(TypedDict):
    """An OpenStackDataPlaneService or OpenStackDataPlaneDeployment
    (``spec``: the procedure's fields of each)."""

    apiVersion: str
    kind: str
    metadata: steps.Metadata
    spec: dict[str, Any]


class ConfigMap(TypedDict):
    apiVersion: str
    kind: str
    metadata: steps.Metadata
    data: dict[str, str]


def _object(kind: str, name: str, spec: dict[str, Any],
            api_version: str = API_VERSION) -> DataPlaneObject:
    return {'apiVersion': api_version, 'kind': kind,
            'metadata': {'name': name}, 'spec': spec}


def pre_adoption_service() -> DataPlaneObject:
    return _object(SERVICE, PRE_ADOPTION,
                   {'playbook': 'osp.edpm.pre_adoption_validation'})


def cleanup_service() -> DataPlaneObject:
    return _object(SERVICE, CLEANUP, {'playbook': 'osp.edpm.tripleo_cleanup'})


def nova_service(cell: str, tls: bool) -> DataPlaneObject:
    """The cell's Nova service, as the procedure defines it per cell."""
    spec: dict[str, Any] = {
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
    return _object(SERVICE, services_mod.nova(cell), spec)


def cells_config(extra: dict[str, str] | None = None) -> ConfigMap:
    """The ConfigMap every cell's Nova service reads."""
    data = {WORKAROUNDS[0]: WORKAROUNDS[1]}
    data.update(extra or {})
    return {'apiVersion': 'v1', 'kind': 'ConfigMap',
            'metadata': {'name': CELLS_CONFIG}, 'data': data}


def deployment(name: str, nodesets: Iterable[str],
               services_override: Iterable[str] | None = None,
               backoff_limit: int | None = None) -> DataPlaneObject:
    spec: dict[str, Any] = {'nodeSets': list(nodesets)}
    if services_override:
        spec['servicesOverride'] = list(services_override)
    if backoff_limit is not None:
        spec['backoffLimit'] = backoff_limit
    return _object(DEPLOYMENT, name, spec)


def ffu_deployment(cell: str, nodesets: Iterable[str]) -> DataPlaneObject:
    """The fast-forward upgrade's Deployment of a cell: its Nova service
    again on all the cell's NodeSets (upstream writes ``backoffLimit``
    beside ``spec``, where strict validation refuses it)."""
    return deployment(FFU_DEPLOYMENT % cell, nodesets,
                      [services_mod.nova(cell)], FFU_BACKOFF_LIMIT)
