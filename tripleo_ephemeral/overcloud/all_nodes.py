"""The all-nodes data of an overcloud (``group_vars/overcloud.json``).

tripleo-ansible's ``tripleo_all_nodes_data`` action writes that file while
THT's deploy playbooks run; ``openstack overcloud export`` exports it as
``AllNodesExtraMapData``. When it is not there (the bundled templates'
playbooks, a ``--stack-only`` deploy) :func:`load` computes the same keys
from the rendered inventory and ``global_vars.yaml``; config-download
itself stays as tripleo-common rendered it.
"""

import json
import os

import yaml

from tripleo_ephemeral.overcloud import yamlfile

FILE = os.path.join('group_vars', 'overcloud.json')
INVENTORY_FILE = 'tripleo-ansible-inventory.yaml'
GLOBAL_VARS_FILE = 'global_vars.yaml'
DEFAULT_NETWORK = 'ctlplane'


def enabled_services(global_vars):
    """Sorted, unique service names: THT gives a list, the bundled
    templates role -> services."""
    services = global_vars.get('enabled_services') or []
    if isinstance(services, dict):
        services = [s for names in services.values() for s in names or []]
    return sorted(set(services))


def group_hosts(inventory, group):
    """Hosts of ``group`` in inventory order: its own, then its children's.
    Returns ``[(name, host vars)]``."""
    found = []
    seen = set()

    def walk(name):
        entry = inventory.get(name) or {}
        for host, host_vars in (entry.get('hosts') or {}).items():
            if host not in seen:
                seen.add(host)
                found.append((host, host_vars or {}))
        for child in entry.get('children') or {}:
            walk(child)
    walk(group)
    return found


def _service(service, inventory, net_map):
    network = net_map.get(service + '_network', DEFAULT_NETWORK)
    hosts = group_hosts(inventory, service) or group_hosts(
        inventory, service.lower())
    ips = [h.get(network + '_ip') for _, h in hosts]
    data = {
        service + '_enabled': True,
        service + '_node_ips': ips,
        service + '_node_names': [h.get(network + '_hostname')
                                  for _, h in hosts],
        service + '_short_node_names': [name for name, _ in hosts],
    }
    if hosts:
        data[service + '_short_bootstrap_node_name'] = sorted(
            name for name, _ in hosts)[0]
        data[service + '_bootstrap_node_ip'] = ips[0]
    return data


def all_nodes(inventory, global_vars):
    """The all-nodes data of the hosts in ``inventory`` (the rendered
    inventory, as a dict) with ``global_vars`` (RoleConfig's)."""
    net_map = global_vars.get('service_net_map') or {}
    services = enabled_services(global_vars)
    data = {'enabled_services': services}
    for service in services:
        data.update(_service(service, inventory, net_map))
    data.update(net_map)
    vips = global_vars.get('net_vip_map') or {}
    for service, key in (('redis', 'redis_vip'), ('ovn_dbs', 'ovn_dbs_vip')):
        if service in services and vips.get(service):
            data[key] = vips[service]
    data['deploy_identifier'] = global_vars.get('deploy_identifier')
    data['container_cli'] = global_vars.get('container_cli', 'podman')
    primary = group_hosts(inventory, global_vars.get('primary_role_name'))
    data['controller_node_ips'] = ','.join(
        str(h.get('ctlplane_ip') or '') for _, h in primary)
    data['controller_node_names'] = ','.join(name for name, _ in primary)
    return data


def load(config_dir):
    """The all-nodes data of the config-download directory ``config_dir``:
    its ``group_vars/overcloud.json``, else computed; None when neither
    can be read."""
    try:
        with open(os.path.join(config_dir, FILE)) as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    try:
        inventory, global_vars = (yamlfile.loads(yamlfile.read(
            os.path.join(config_dir, name), yamlfile.OWN),
            limits=yamlfile.OWN) or {}
            for name in (INVENTORY_FILE, GLOBAL_VARS_FILE))
    except (OSError, UnicodeError, yaml.YAMLError):
        return None
    return all_nodes(inventory, global_vars)
