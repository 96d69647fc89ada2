"""``openstack overcloud export``: what another stack needs of this one.

The file is tripleoclient's export: an environment whose
``parameter_defaults`` hold the stack's passwords (those matching
``ceph.*`` left out unless asked), its endpoint map, hosts entries, global
config and all-nodes data, the cloud name and ``AddVipsToEtcHosts: false``.
Passed with ``-e`` to a second stack (DCN sites, cells) it makes that stack
talk to this one.

Values in, data out; the command writes it.
"""

import logging
import re

LOG = logging.getLogger(__name__)

#: Passwords left out unless --no-password-excludes (tripleoclient's list).
PASSWORD_EXCLUDE_PATTERNS = ('ceph.*',)
#: stack output -> exported parameter.
OUTPUT_PARAMETERS = (
    ('EndpointMap', 'EndpointMapOverride'),
    ('HostsEntry', 'ExtraHostFileEntries'),
    ('GlobalConfig', 'GlobalConfigExtraMapData'),
)
ALL_NODES_PARAMETER = 'AllNodesExtraMapData'
#: The all-nodes keys a cell export keeps (tripleoclient's filter).
CELL_ALL_NODES_KEYS = (
    'oslo_messaging_notify_short_bootstrap_node_name',
    'oslo_messaging_notify_node_names',
    'oslo_messaging_rpc_node_names',
    'memcached_node_ips',
    'ovn_dbs_vip',
    'ovn_dbs_node_ips',
    'redis_vip',
)


def excluded_password(name):
    return any(re.match(p, name, re.I) for p in PASSWORD_EXCLUDE_PATTERNS)


def export_passwords(passwords, names, excludes=True):
    """``names`` from ``passwords`` (the passwords file's values), the
    excluded ones dropped when ``excludes``; RpcPassword and NotifyPassword
    default to RabbitPassword as tripleo-common's did."""
    exported = {name: passwords[name] for name in names
                if passwords.get(name) not in (None, '')}
    for name in ('RpcPassword', 'NotifyPassword'):
        if name not in exported and passwords.get('RabbitPassword'):
            exported[name] = passwords['RabbitPassword']
    if excludes:
        exported = {k: v for k, v in exported.items()
                    if not excluded_password(k)}
    return exported


def _hosts_entries(value):
    """ExtraHostFileEntries is a list of lines; THT's HostsEntry output is
    one, the bundled templates' a text."""
    if isinstance(value, str):
        return [line for line in value.splitlines() if line.strip()]
    return value


def export_stack(stack, outputs, all_nodes_data=None, cell=False):
    """The stack's part of the export; ``cell`` keeps only the all-nodes
    keys a cell needs. Sources that are missing or empty are skipped with
    a warning, as tripleoclient did."""
    data = {}
    for output, parameter in OUTPUT_PARAMETERS:
        value = (outputs or {}).get(output)
        if output == 'HostsEntry':
            value = _hosts_entries(value)
        if value:
            data[parameter] = value
        else:
            LOG.warning('No data returned to export %s from.', parameter)
    if all_nodes_data:
        if cell:
            all_nodes_data = {k: v for k, v in all_nodes_data.items()
                              if k in CELL_ALL_NODES_KEYS}
        data[ALL_NODES_PARAMETER] = all_nodes_data
    else:
        LOG.warning('No data returned to export %s from.',
                    ALL_NODES_PARAMETER)
    data['AuthCloudName'] = (outputs or {}).get('AuthCloudName') or stack
    return data


def export_data(stack, outputs, passwords, password_names,
                all_nodes_data=None, excludes=True, cell=False):
    """The whole export file: ``{'parameter_defaults': {...}}``."""
    parameters = export_passwords(passwords, password_names, excludes)
    parameters.update(export_stack(stack, outputs, all_nodes_data, cell))
    parameters['AddVipsToEtcHosts'] = False
    return {'parameter_defaults': parameters}
