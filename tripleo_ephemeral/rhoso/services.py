"""The EDPM services of adopted nodes, as the procedures list them.

The compute procedure's NodeSet runs :data:`COMPUTE` (``nova-$CELL`` being
the cell's own Nova service), the networker procedure's
:data:`NETWORKER`; a service whose TripleO counterpart the role did not
run is left out (no ``telemetry`` without the Ceilometer compute agent),
``ceph-client`` goes before ``install-certs`` on computes on Ceph, and the
optional ones are appended as the procedures' ``oc patch ... /spec/
services/-`` do (``neutron-sriov``, ``neutron-dhcp``, a networker's
``neutron-metadata``). Downstream RHOSO puts ``redhat`` first.
"""

COMPUTE_KIND = 'compute'
NETWORKER_KIND = 'networker'
#: proc_adopting-compute-services-to-the-data-plane.adoc, lines 411-429.
COMPUTE = ('bootstrap', 'download-cache', 'configure-network',
           'validate-network', 'install-os', 'configure-os',
           'ssh-known-hosts', 'run-os', 'reboot-os', 'install-certs', 'ovn',
           'neutron-metadata', 'libvirt', 'nova', 'telemetry')
#: proc_adopting-networker-services-to-the-data-plane.adoc, lines 79-92.
NETWORKER = ('bootstrap', 'download-cache', 'configure-network',
             'validate-network', 'install-os', 'configure-os',
             'ssh-known-hosts', 'run-os', 'install-certs', 'ovn')
#: EDPM service -> the TripleO service the role must have run for it.
NEEDS = {'ovn': 'ovn_controller', 'neutron-metadata': 'ovn_metadata',
         'libvirt': 'nova_libvirt', 'nova': 'nova_compute',
         'telemetry': 'ceilometer_agent_compute'}
#: Appended, in this order, when the role ran the TripleO service.
APPENDED = {COMPUTE_KIND: (('neutron-sriov', 'neutron_sriov_agent'),
                           ('neutron-dhcp', 'neutron_dhcp')),
            NETWORKER_KIND: (('neutron-metadata', 'ovn_metadata'),
                             ('neutron-dhcp', 'neutron_dhcp'))}
CEPH = 'ceph-client'
REDHAT = 'redhat'


def nova(cell):
    """The cell's Nova service (``nova-cell1``)."""
    return 'nova-%s' % cell


def uses_ceph(role):
    return 'ceph_client' in role.services or \
        role.config('nova::compute::libvirt::images_type') == 'rbd'


def edpm_services(role, kind, cell=None, redhat=False):
    """The NodeSet ``services`` of ``role``'s hosts adopted as ``kind``
    nodes (of ``cell`` for computes)."""
    names = COMPUTE if kind == COMPUTE_KIND else NETWORKER
    result = [REDHAT] if redhat else []
    for name in names:
        if NEEDS.get(name) and NEEDS[name] not in role.services:
            continue
        if name == 'install-certs' and kind == COMPUTE_KIND and \
                uses_ceph(role):
            result.append(CEPH)
        result.append(nova(cell) if name == 'nova' else name)
    result += [name for name, needs in APPENDED[kind]
               if needs in role.services and name not in result]
    return result
