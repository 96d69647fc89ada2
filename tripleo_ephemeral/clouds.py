"""The user's clouds.yaml: add, update or remove the entries of the
Heats this product runs, leave the rest alone.

An entry the product writes names its heat dir
(``tripleo_ephemeral_heat_dir``, a key openstacksdk passes by), so that
it can be removed once that Heat stops (:func:`forget`): an entry never
points at a stopped Heat for long, nor hands the old API secret (part of
its endpoint) to a client's connection error.
"""

import os

import yaml

from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import yamlfile

#: The key of an entry naming the heat dir of the Heat it points at.
HEAT_DIR_KEY = 'tripleo_ephemeral_heat_dir'


def user_clouds_file():
    """Where openstacksdk reads the user's clouds.

    ``OS_CLIENT_CONFIG_FILE`` wins.
    """
    explicit = os.environ.get('OS_CLIENT_CONFIG_FILE')
    if explicit:
        return explicit
    return os.path.join(os.path.expanduser('~'), '.config', 'openstack',
                        'clouds.yaml')


def _read(path):
    try:
        data = yamlfile.loads(yamlfile.read(path)) or {}
    except FileNotFoundError:
        data = {}
    except (UnicodeError, yaml.YAMLError) as exc:
        raise ValueError('%s cannot be read: %s' % (
            path, ' '.join(str(exc).split()))) from None
    if not isinstance(data, dict):
        raise ValueError('%s is not a clouds.yaml mapping' % path)
    return data


def _write(path, data):
    fileutil.make_private_dirs(os.path.dirname(os.path.abspath(path)))
    fileutil.write_atomic(path, yaml.safe_dump(data, default_flow_style=False,
                                               sort_keys=False))


def set_cloud(name, endpoint, path=None, heat_dir=None):
    """Make ``clouds.<name>`` a no-auth cloud pointing at ``endpoint``
    (the Heat of ``heat_dir``)."""
    path = path or user_clouds_file()
    data = _read(path)
    clouds = data.setdefault('clouds', {}) or {}
    data['clouds'] = clouds
    clouds[name] = {'auth_type': 'none', 'auth': {'endpoint': endpoint}}
    if heat_dir:
        clouds[name][HEAT_DIR_KEY] = os.path.abspath(heat_dir)
    _write(path, data)
    return path


def forget(stopped, path=None):
    """Remove the entries the product wrote whose Heat has stopped:
    ``stopped(heat_dir, endpoint)`` says so (``heat_dir`` None for an
    entry of an earlier version, which names none). Returns the names
    removed; a clouds.yaml that cannot be read is left alone."""
    path = path or user_clouds_file()
    try:
        data = _read(path)
    except (OSError, ValueError):
        return []
    clouds = data.get('clouds')
    if not isinstance(clouds, dict):
        return []
    removed = []
    for name, entry in list(clouds.items()):
        if not isinstance(entry, dict) or entry.get('auth_type') != 'none':
            continue
        endpoint = (entry.get('auth') or {}).get('endpoint')
        if stopped(entry.get(HEAT_DIR_KEY), endpoint):
            del clouds[name]
            removed.append(name)
    if removed:
        _write(path, data)
    return removed
