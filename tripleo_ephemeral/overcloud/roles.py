"""Loading and validating roles data and networks data."""

import logging
import re

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

_ROLE_NAME = re.compile(r'^[A-Za-z][A-Za-z0-9]*$')

# key -> (accepted types, human readable type)
_ROLE_KEYS = {
    'name': ((str,), 'a string'),
    'description': ((str,), 'a string'),
    'CountDefault': ((int,), 'an integer'),
    'ServicesDefault': ((list,), 'a list'),
    'HostnameFormatDefault': ((str,), 'a string'),
    'disable_constraints': ((bool,), 'a boolean'),
    'tags': ((list,), 'a list'),
    'networks': ((list, dict), 'a list or a mapping'),
}


def load_roles(path):
    """Return the validated list of roles (dicts) from the file ``path``."""
    data = yamlfile.load(path, 'Roles data file', exceptions.RolesDataError)
    return validate_roles(data, path)


def validate_roles(data, path='<roles data>'):
    """Validate parsed roles data; return it as a list of role dicts."""
    if not isinstance(data, list) or not data:
        raise exceptions.RolesDataError(
            'Roles data file %s must be a non-empty list of roles' % path)
    seen = set()
    for index, role in enumerate(data):
        if not isinstance(role, dict):
            raise exceptions.RolesDataError(
                'Roles data file %s: entry %d must be a mapping with a name'
                % (path, index))
        name = role.get('name')
        if not isinstance(name, str) or not _ROLE_NAME.match(name):
            raise exceptions.RolesDataError(
                'Roles data file %s: entry %d needs a "name" made of letters '
                'and digits, got %r' % (path, index, name))
        if name in seen:
            raise exceptions.RolesDataError(
                'Roles data file %s: role %s is defined twice; keep one'
                % (path, name))
        seen.add(name)
        for key, (types, human) in _ROLE_KEYS.items():
            value = role.get(key)
            if value is None:
                continue
            # bool is an int: reject it where an integer is expected.
            if not isinstance(value, types) or (
                    bool not in types and isinstance(value, bool)):
                raise exceptions.RolesDataError(
                    'Roles data file %s: role %s key %s must be %s'
                    % (path, name, key, human))
        if role.get('CountDefault', 0) < 0:
            raise exceptions.RolesDataError(
                'Roles data file %s: role %s CountDefault must not be '
                'negative' % (path, name))
        for service in role.get('ServicesDefault') or []:
            if not isinstance(service, str):
                raise exceptions.RolesDataError(
                    'Roles data file %s: role %s ServicesDefault must list '
                    'resource type names such as OS::TripleO::Services::Ntp'
                    % (path, name))
    return data


def role_names(roles):
    """Return the names of ``roles`` in order."""
    return [role['name'] for role in roles]


def load_networks(path):
    """Return the validated list of networks from the file ``path``.

    Every network gets ``name_lower`` (defaulting to the lower-cased name)
    and ``enabled`` (defaulting to true), as tripleo-heat-templates expect.
    """
    data = yamlfile.load(path, 'Networks data file', exceptions.RolesDataError)
    return validate_networks(data, path)


def validate_networks(data, path='<networks data>'):
    """Validate parsed networks data; return it with defaults filled in."""
    if data is None:
        data = []
    if not isinstance(data, list):
        raise exceptions.RolesDataError(
            'Networks data file %s must be a list of networks' % path)
    seen = set()
    networks = []
    for index, network in enumerate(data):
        if not isinstance(network, dict) or not isinstance(
                network.get('name'), str):
            raise exceptions.RolesDataError(
                'Networks data file %s: entry %d needs a "name"'
                % (path, index))
        name = network['name']
        if name in seen:
            raise exceptions.RolesDataError(
                'Networks data file %s: network %s is defined twice; keep '
                'one' % (path, name))
        seen.add(name)
        network = dict(network)
        network.setdefault('name_lower', name.lower())
        network.setdefault('enabled', True)
        networks.append(network)
    return networks


def check_role_networks(roles, networks, path='<roles data>'):
    """Fail if a role uses a network that is neither ctlplane nor defined.

    A role's ``networks`` is a list of names or, as in THT's roles, a
    mapping of names to their ``subnet``; a name matches a network's
    ``name`` (``InternalApi``) or ``name_lower`` (``internal_api``). Without
    networks data (THT's default: control plane only) nothing is checked:
    the roles may then name networks the deploy does not create.
    """
    if not networks:
        return
    known = {'ctlplane'}
    for network in networks:
        known.add(network['name'])
        known.add(network['name_lower'])
    for role in roles:
        for net in role.get('networks') or []:
            if isinstance(net, str) and net not in known:
                raise exceptions.RolesDataError(
                    'Roles data file %s: role %s uses network %s, which the '
                    'networks data does not define (networks: %s): add it '
                    'to the networks data or remove it from the role'
                    % (path, role['name'], net, ', '.join(sorted(
                        n['name'] for n in networks))))
