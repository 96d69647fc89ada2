"""One OpenStackDataPlaneNodeSet per group of hosts (:mod:`.plan`).

Per node: ``hostName`` is TripleO's canonical FQDN (Nova's ``host`` and
OVN's chassis name), ``ansibleHost`` the ctlplane address, and every
network of the role with the node's current address as ``fixedIP``, in
the order TripleO's NIC template loops over them (so EDPM's
``nodeset_networks`` is that order). The node template has the user
TripleO's Ansible logged in as, the key Secret, and the carried Ansible
variables (:mod:`.ansible_vars`) with the NIC template (:mod:`.nic`).
"""

from tripleo_ephemeral.rhoso import plan

API_VERSION = 'dataplane.openstack.org/v1beta1'
KIND = 'OpenStackDataPlaneNodeSet'
#: The adoption procedure's services, in order; ``nova`` is the cell's own.
COMPUTE_SERVICES = ('bootstrap', 'download-cache', 'configure-network',
                    'validate-network', 'install-os', 'configure-os',
                    'ssh-known-hosts', 'run-os', 'reboot-os',
                    'install-certs', 'ovn', 'neutron-metadata', 'libvirt',
                    'nova', 'telemetry')
NETWORKER_SERVICES = ('bootstrap', 'download-cache', 'configure-network',
                      'validate-network', 'install-os', 'configure-os',
                      'ssh-known-hosts', 'run-os', 'install-certs', 'ovn',
                      'neutron-metadata')
#: EDPM service -> the TripleO service a role must run for it.
NEEDS = {'ovn': 'ovn_controller', 'neutron-metadata': 'ovn_metadata',
         'libvirt': 'nova_libvirt', 'nova': 'nova_compute',
         'telemetry': 'ceilometer_agent_compute'}
#: Optional EDPM services -> the TripleO service that asks for them.
OPTIONAL = (('neutron-sriov', 'neutron_sriov_agent'),
            ('neutron-dhcp', 'neutron_dhcp'))
DEFAULT_ROUTE = {'ControlPlane': 'ctlplane'}


def nova_service(cell):
    return 'nova-%s' % cell


def services(group):
    names = COMPUTE_SERVICES if group.kind == plan.COMPUTE else \
        NETWORKER_SERVICES
    result = []
    for name in names:
        if NEEDS.get(name) and NEEDS[name] not in group.role.services:
            continue
        result.append(nova_service(group.cell) if name == 'nova' else name)
    result += [name for name, needs in OPTIONAL
               if needs in group.role.services]
    return result


def default_route_networks(deployment, role, choices):
    names = role.group_vars.get('default_route_networks') or ['ControlPlane']
    result = set()
    for name in names:
        if name in DEFAULT_ROUTE:
            result.add(DEFAULT_ROUTE[name])
            continue
        network = deployment.network_by_name(name)
        if network:
            result.add(choices.rhoso_network(network['name_lower']))
    return result


def node_networks(deployment, host, networks, choices):
    """The node's networks: ctlplane, then the role's in TripleO's order,
    each with its subnet and the node's address."""
    by_lower = {n.lower: n for n in networks}
    role = deployment.roles[host.role]
    defaults = default_route_networks(deployment, role, choices)
    lowers = ['ctlplane'] + [
        (deployment.network_by_name(name) or {}).get('name_lower')
        for name in role.networks]
    result = []
    for lower in lowers:
        network = by_lower.get(lower)
        ip = host.ctlplane_ip if lower == 'ctlplane' else host.ip(lower)
        if network is None or not ip:
            continue
        entry = {'name': network.name,
                 'subnetName': network.subnet_of(ip).name,
                 'fixedIP': str(ip)}
        if network.name in defaults:
            entry['defaultRoute'] = True
        result.append(entry)
    return result


def document(deployment, group, networks, choices):
    """The NodeSet of ``group`` without the NIC template (added by the
    export once converted)."""
    role = group.role
    ssh_user = role.ssh_user
    nodes = {}
    for host in role.hosts:
        node = {'hostName': host.canonical_hostname,
                'ansible': {'ansibleHost': str(host.ctlplane_ip)},
                'networks': node_networks(deployment, host, networks,
                                          choices)}
        user = host.vars.get('ansible_ssh_user')
        if user and user != ssh_user:
            node['ansible']['ansibleUser'] = user
        nodes[host.name] = node
    ansible = {'ansibleUser': ssh_user, 'ansibleVars': {}}
    return {
        'apiVersion': API_VERSION, 'kind': KIND,
        'metadata': {'name': group.name},
        'spec': {
            'tlsEnabled': bool(deployment.global_vars.get(
                'enable_internal_tls')),
            'preProvisioned': True,
            'networkAttachments': ['ctlplane'],
            'services': services(group),
            'nodeTemplate': {
                'ansibleSSHPrivateKeySecret': choices.ssh_key_secret,
                'ansible': ansible,
            },
            'nodes': nodes,
        },
    }
