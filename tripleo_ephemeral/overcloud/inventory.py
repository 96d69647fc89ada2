"""The static Ansible inventory of an overcloud, built from stack outputs.

Groups: one per role (hosts with ``ansible_host``, ``<net>_ip`` and
``<net>_hostname`` variables), one named after the stack with the roles as
children, ``allovercloud``, one per service (children: the roles running
it), ``Undercloud`` (this machine) and ``excluded_overcloud``: what
tripleo-common 18.0.0's ``TripleoInventory`` wrote without Neutron, with its
variables (``serial``, ``container_cli``, the Undercloud's).
"""

import logging
import sys

LOG = logging.getLogger(__name__)

HOST_NETWORK = 'ctlplane'
DEFAULT_SSH_USER = 'tripleo-admin'
INVENTORY_FILE = 'tripleo-ansible-inventory.yaml'
#: Where tripleo-ansible's playbook copied the inventory in the project.
INVENTORY_COPY = ('inventory', 'tripleo')
#: The stack environment's parameters the inventory reads.
STACK_ENVIRONMENT_PARAMETERS = ('AdminPassword', 'ContainerCli')
#: The Undercloud services tripleo-common listed (a constant there too).
UNDERCLOUD_SERVICES = ['tripleo_ironic_conductor']
#: Hosts of a role configured at once (tripleo-common's default).
SERIAL = 1


def short_name(fqdn, network=HOST_NETWORK):
    """Return the short, lower-case host name of a ``<net>`` FQDN."""
    return fqdn.split('.%s.' % network)[0].lower()


def roles_by_service(enabled_services):
    """Return ``service -> sorted roles`` from ``role -> services``."""
    result = {}
    for role, services in (enabled_services or {}).items():
        for service in services or []:
            result.setdefault(service, set()).add(role)
    return {service: sorted(roles) for service, roles in result.items()}


def build(outputs, stack_name, ssh_user=DEFAULT_SSH_USER,
          host_ssh_users=None, ansible_python_interpreter=None,
          host_network=HOST_NETWORK, stack_environment=None,
          excluded_hosts=()):
    """Return the inventory (static YAML format) for the stack outputs.

    ``host_ssh_users`` maps hostnames to an SSH user that overrides
    ``ssh_user`` for that host. ``stack_environment`` holds the
    :data:`STACK_ENVIRONMENT_PARAMETERS` of the stack's environment.
    ``excluded_hosts`` (short names) are left out (hosts taken out by
    ``overcloud node delete``).
    """
    stack_environment = stack_environment or {}
    excluded = {h.lower() for h in excluded_hosts or ()}
    host_ssh_users = {k.lower(): v for k, v in (host_ssh_users or {}).items()}
    ip_map = outputs.get('RoleNetIpMap') or {}
    hostname_map = outputs.get('RoleNetHostnameMap') or {}
    id_data = outputs.get('ServerIdData') or {}
    server_ids = id_data.get('server_ids') or {}
    inventory = {}
    roles_with_hosts = []
    networks = set()

    for role, net_hostnames in hostname_map.items():
        names = (net_hostnames or {}).get(host_network) or []
        net_ips = ip_map.get(role) or {}
        ips = net_ips.get(host_network) or []
        role_networks = sorted(net_ips)
        hosts = {}
        for index, fqdn in enumerate(names):
            host = {'ansible_host': ips[index] if index < len(ips) else None}
            role_ids = server_ids.get(role) or []
            if index < len(role_ids):
                host['deploy_server_id'] = role_ids[index]
            for net, values in net_ips.items():
                if index < len(values or []):
                    host['%s_ip' % net] = values[index]
            for net, values in net_hostnames.items():
                if index < len(values or []):
                    host['%s_hostname' % net] = values[index]
            name = short_name(fqdn, host_network)
            if name in excluded:
                continue
            if name in host_ssh_users:
                host['ansible_ssh_user'] = host_ssh_users[name]
            hosts[name] = host
        if not hosts:
            continue
        networks.update(role_networks)
        role_vars = {
            'ansible_ssh_user': ssh_user,
            'bootstrap_server_id': id_data.get('bootstrap_server_id'),
            'tripleo_role_name': role,
            'tripleo_role_networks': role_networks,
            'serial': SERIAL,
        }
        if ansible_python_interpreter:
            role_vars['ansible_python_interpreter'] = (
                ansible_python_interpreter)
        inventory[role] = {'hosts': hosts, 'vars': role_vars}
        roles_with_hosts.append(role)

    if roles_with_hosts:
        overcloud_vars = {}
        for net, vip in (outputs.get('VipMap') or {}).items():
            if vip and (net in networks or net == 'redis'):
                overcloud_vars['%s_vip' % net] = vip
        overcloud_vars['container_cli'] = stack_environment.get(
            'ContainerCli')
        inventory[stack_name] = {
            'children': {role: {} for role in sorted(roles_with_hosts)},
            'vars': overcloud_vars,
        }
        inventory['allovercloud'] = {'children': {stack_name: {}}}

    for service, roles in sorted(roles_by_service(
            outputs.get('EnabledServices')).items()):
        children = [role for role in roles if role in roles_with_hosts]
        group = service.lower()
        if not children or group in inventory:
            continue
        group_vars = {'ansible_ssh_user': ssh_user}
        if ansible_python_interpreter:
            group_vars['ansible_python_interpreter'] = (
                ansible_python_interpreter)
        inventory[group] = {'children': {role: {} for role in children},
                            'vars': group_vars}

    inventory['Undercloud'] = {
        'hosts': {'undercloud': {}},
        'vars': undercloud_vars(outputs, stack_name, stack_environment,
                                ansible_python_interpreter),
    }
    excluded = [h for h in outputs.get('BlacklistedHostnames') or [] if h]
    inventory['excluded_overcloud'] = {'hosts': {h: {} for h in excluded}}
    return inventory


def undercloud_vars(outputs, stack_name, stack_environment,
                    ansible_python_interpreter=None):
    """The variables of the Undercloud group (this machine)."""
    result = {
        'ansible_connection': 'local',
        'ansible_host': 'localhost',
        'ansible_python_interpreter': (ansible_python_interpreter or
                                       sys.executable),
        # Ansible's remote tmp per user (ansible/ansible#41808).
        'ansible_remote_tmp': '/tmp/ansible-${USER}',
        # A failure on this machine (external tasks) stops the run.
        'any_error_fatal': True,
        'max_fail_percentage': 0,
        'undercloud_service_list': list(UNDERCLOUD_SERVICES),
        'plan': stack_name,
    }
    if stack_environment.get('AdminPassword'):
        result['overcloud_admin_password'] = stack_environment[
            'AdminPassword']
    if outputs.get('KeystoneURL'):
        result['overcloud_keystone_url'] = outputs['KeystoneURL']
    horizon = ((outputs.get('EndpointMap') or {}).get('HorizonPublic') or
               {}).get('uri')
    if horizon:
        result['overcloud_horizon_url'] = horizon
    return result
