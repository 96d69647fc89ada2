"""The user's clouds.yaml: add or update one entry, leave the rest alone."""

import os

import yaml

from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import yamlfile


def user_clouds_file():
    """Where openstacksdk reads the user's clouds.

    ``OS_CLIENT_CONFIG_FILE`` wins.
    """
    explicit = os.environ.get('OS_CLIENT_CONFIG_FILE')
    if explicit:
        return explicit
    return os.path.join(os.path.expanduser('~'), '.config', 'openstack',
                        'clouds.yaml')


def set_cloud(name, endpoint, path=None):
    """Make ``clouds.<name>`` a no-auth cloud pointing at ``endpoint``."""
    path = path or user_clouds_file()
    try:
        data = yamlfile.loads(yamlfile.read(path)) or {}
    except FileNotFoundError:
        data = {}
    except (UnicodeError, yaml.YAMLError) as exc:
        raise ValueError('%s cannot be read: %s' % (
            path, ' '.join(str(exc).split()))) from None
    if not isinstance(data, dict):
        raise ValueError('%s is not a clouds.yaml mapping' % path)
    clouds = data.setdefault('clouds', {}) or {}
    data['clouds'] = clouds
    clouds[name] = {'auth_type': 'none', 'auth': {'endpoint': endpoint}}
    fileutil.make_private_dirs(os.path.dirname(os.path.abspath(path)))
    fileutil.write_atomic(path, yaml.safe_dump(data, default_flow_style=False,
                                               sort_keys=False))
    return path
