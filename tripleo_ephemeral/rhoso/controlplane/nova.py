"""Adopting the Compute service: the procedure's cells and the scheduler
and compute settings TripleO had.

``proc_adopting-the-compute-service.adoc`` patches Nova on with ``cell0``
on the top database and message bus and each renamed cell on its own, and
``disable_compute_service_check_for_ffu`` on every service until the data
plane is adopted. The scheduler carries TripleO's filters and placement
settings (``NovaSchedulerEnabledFilters``...). CPU pinning and reserved
memory are the computes' (``NovaComputeCpuDedicatedSet``,
``NovaComputeCpuSharedSet``, ``NovaReservedHostMemory``...):
:func:`compute_config` makes them a file of the cells' ConfigMap the data
plane's Nova service mounts.
"""

from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGE = 'proc_adopting-the-compute-service.adoc'
WORKAROUND = ('workarounds', 'disable_compute_service_check_for_ffu', True,
              'the procedure: mandatory until the data plane is adopted and '
              'upgraded')
SCHEDULER = (
    ('filter_scheduler', 'enabled_filters',
     'nova::scheduler::filter::scheduler_enabled_filters',
     'NovaSchedulerEnabledFilters'),
    ('filter_scheduler', 'available_filters',
     'nova::scheduler::filter::scheduler_available_filters',
     'NovaSchedulerAvailableFilters'),
    ('filter_scheduler', 'host_subset_size',
     'nova::scheduler::filter::scheduler_host_subset_size',
     'NovaSchedulerHostSubsetSize'),
    ('filter_scheduler', 'shuffle_best_same_weighed_hosts',
     'nova::scheduler::filter::shuffle_best_same_weighed_hosts',
     'NovaSchedulerShuffleBestSameWeighedHosts'),
    ('scheduler', 'max_attempts', 'nova::scheduler::max_attempts',
     'NovaSchedulerMaxAttempts'),
    ('scheduler', 'limit_tenants_to_placement_aggregate',
     'nova::scheduler::limit_tenants_to_placement_aggregate',
     'NovaSchedulerLimitTenantsToPlacementAggregate'),
    ('scheduler', 'placement_aggregate_required_for_tenants',
     'nova::scheduler::placement_aggregate_required_for_tenants',
     'NovaSchedulerPlacementAggregateRequiredForTenants'),
    ('scheduler', 'enable_isolated_aggregate_filtering',
     'nova::scheduler::enable_isolated_aggregate_filtering',
     'NovaSchedulerEnableIsolatedAggregateFiltering'),
    ('scheduler', 'query_placement_for_image_type_support',
     'nova::scheduler::query_placement_for_image_type_support',
     'NovaSchedulerQueryImageType'),
)
COMPUTE = (
    ('compute', 'cpu_dedicated_set', 'nova::compute::cpu_dedicated_set',
     'NovaComputeCpuDedicatedSet'),
    ('compute', 'cpu_shared_set', 'nova::compute::cpu_shared_set',
     'NovaComputeCpuSharedSet'),
    ('DEFAULT', 'reserved_host_memory_mb',
     'nova::compute::reserved_host_memory', 'NovaReservedHostMemory'),
    ('DEFAULT', 'reserved_huge_pages', 'nova::compute::reserved_huge_pages',
     'NovaReservedHugePages'),
    ('DEFAULT', 'cpu_allocation_ratio', 'nova::cpu_allocation_ratio',
     'NovaCPUAllocationRatio'),
    ('DEFAULT', 'ram_allocation_ratio', 'nova::ram_allocation_ratio',
     'NovaRAMAllocationRatio'),
    ('DEFAULT', 'disk_allocation_ratio', 'nova::disk_allocation_ratio',
     'NovaDiskAllocationRatio'),
)
#: The file of the cells' ConfigMap (``nova-cells-global-config``): Nova
#: on EDPM reads the files in name order, so it sits beside the
#: procedure's ``03-ceph-nova.conf`` and before its
#: ``99-nova-compute-cells-workarounds.conf``.
COMPUTE_FILE = '04-tripleo-nova-compute.conf'


def _workaround():
    config = ini.Config()
    config.set(*WORKAROUND)
    return config


def _template(config):
    return {'customServiceConfig': config.text()}


def build(role, endpoints, cells):
    """The :class:`~.patch.Patch` of the Compute service for ``cells``."""
    scheduler = _workaround()
    scheduler.role = role
    for section, option, key, parameter in SCHEDULER:
        scheduler.hiera(section, option, key, parameter)
    api = _template(_workaround())
    metadata = dict(_template(_workaround()), enabled=True)
    if 'internal' in endpoints.addresses:
        api['override'] = {'service': endpoints.internal_override()}
        metadata['override'] = {'service': endpoints.service('internal')}
    cell_templates = {'cell0': {
        'hasAPIAccess': True, 'cellDatabaseAccount': 'nova-cell0',
        'cellDatabaseInstance': 'openstack',
        'cellMessageBusInstance': 'rabbitmq',
        'conductorServiceTemplate': _template(_workaround())}}
    for cell in sorted(cells):
        cell_templates[cell] = {
            'hasAPIAccess': True, 'cellDatabaseAccount': 'nova-%s' % cell,
            'cellDatabaseInstance': 'openstack-%s' % cell,
            'cellMessageBusInstance': 'rabbitmq-%s' % cell,
            'metadataServiceTemplate': dict(_template(_workaround()),
                                            enabled=False),
            'conductorServiceTemplate': _template(_workaround())}
    template = {'secret': 'osp-secret', 'apiDatabaseAccount': 'nova-api',
                'apiServiceTemplate': api,
                'metadataServiceTemplate': metadata,
                'schedulerServiceTemplate': _template(scheduler),
                'cellTemplates': cell_templates}
    spec = {'nova': {'enabled': True, 'apiOverride': {'route': {}},
                     'template': template}}
    return patch_mod.Patch(
        'nova', 'nova', spec, PAGE,
        configs={'spec.nova.template.schedulerServiceTemplate.'
                 'customServiceConfig': scheduler},
        after=['oc wait --for condition=Ready --timeout=300s Nova/nova'])


def compute_config(roles):
    """``(text, {role: Config}, differing)``: the computes' settings as one
    file when every compute role agrees, else the roles that differ."""
    configs = {}
    for role in roles:
        config = ini.Config(role)
        for section, option, key, parameter in COMPUTE:
            value = role.config(key)
            if option.endswith('_allocation_ratio') and value in (
                    0, 0.0, '0', '0.0'):
                continue  # THT's "unset": Nova's initial ratio applies
            config.hiera(section, option, key, parameter)
        configs[role.name] = config
    texts = {name: c.text() for name, c in configs.items()}
    if len(set(texts.values())) > 1:
        return None, configs, sorted(texts)
    text = next(iter(texts.values()), '')
    return text or None, configs, []
