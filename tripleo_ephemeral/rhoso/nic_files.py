"""Where a role's TripleO NIC template is.

``tripleo_network_config_template`` (``<Role>NetworkConfigTemplate``) is
either a path of the operator's, or relative to tripleo-ansible's
``tripleo_network_config`` role (``templates/single_nic_vlans/...``),
which TripleO's Ansible installs (``openstack tripleo ansible install``);
``--nic-template-dir`` names another copy of that role.
"""

import os

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.ansible import install

ROLE = os.path.join('roles', 'tripleo_network_config')
GROUP_VAR = 'tripleo_network_config_template'


def default_dir():
    """The tripleo_network_config role of TripleO's Ansible."""
    return os.path.join(install.AnsibleInstall().share_dir, ROLE)


def path(role, template_dir=None):
    """The file of ``role``'s NIC template; RhosoExportError when it is
    not on this machine."""
    value = role.group_vars.get(GROUP_VAR)
    if not value:
        raise exceptions.RhosoExportError(
            'group_vars/%s has no %s: render config-download again'
            % (role.name, GROUP_VAR))
    if os.path.isabs(value):
        if os.path.isfile(value):
            return value
        where = 'its directory'
    else:
        base = template_dir or default_dir()
        found = os.path.join(base, value)
        if os.path.isfile(found):
            return found
        where = base
    raise exceptions.RhosoExportError(
        'The NIC template %s of role %s (%sNetworkConfigTemplate) is not in '
        '%s: install TripleO\'s Ansible ("openstack tripleo ansible '
        'install"), or give --nic-template-dir (a copy of tripleo-ansible\'s '
        'tripleo_network_config role) or --nic-template %s=<file>'
        % (value, role.name, role.name, where, role.name))


def read(file_path):
    try:
        with open(file_path, encoding='utf-8') as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise exceptions.RhosoExportError(
            'NIC template %s cannot be read: %s' % (file_path, exc))
