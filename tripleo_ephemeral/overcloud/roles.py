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


#: process-templates.py's tags for roles named by convention that lack them
#: (deprecated there, still applied): (tag, name prefixes).
_IMPLIED_TAGS = (
    ('compute', ('Compute', 'HciCeph', 'DistributedCompute')),
    ('ceph', ('Ceph',)),
    ('ovsdpdk', ('ComputeOvsDpdk',)),
    ('storage', ('ObjectStorage', 'BlockStorage', 'Ceph')),
)


def with_implied_tags(roles):
    """Return ``roles`` with the tags tripleo-heat-templates'
    ``process-templates.py`` adds to roles named by convention (a
    ``Compute*`` role without ``compute``, ...), and ``[(role, tag)]`` of
    what was added."""
    result = []
    added = []
    for role in roles:
        tags = list(role.get('tags') or [])
        for tag, prefixes in _IMPLIED_TAGS:
            if role['name'].startswith(prefixes) and tag not in tags:
                tags.append(tag)
                added.append((role['name'], tag))
        result.append(dict(role, tags=tags))
    return result, added
