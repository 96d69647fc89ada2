"""openstackclient plugin: registers the tripleo_ephemeral command group."""

import functools
from importlib import metadata
import logging

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import os_cloud

LOG = logging.getLogger(__name__)

DEFAULT_API_VERSION = '1'
API_NAME = 'tripleo_ephemeral'
API_VERSION_OPTION = 'os_tripleo_ephemeral_api_version'
API_VERSIONS = {'1': 'tripleo_ephemeral.plugin'}

#: This plugin's distribution and command group, and tripleoclient's.
DISTRIBUTION = 'tripleo-ephemeral'
COMMAND_GROUP = 'openstack.tripleo_ephemeral.v1'
TRIPLEOCLIENT = 'python-tripleoclient'
TRIPLEOCLIENT_GROUP = 'openstack.tripleoclient.v2'


def make_client(instance):
    """No remote API of its own: commands build the clients they need."""
    return None


def build_option_parser(parser):
    parser.add_argument(
        '--os-tripleo-ephemeral-api-version',
        metavar='<tripleo-ephemeral-api-version>',
        dest=API_VERSION_OPTION,
        default=DEFAULT_API_VERSION,
        help='tripleo-ephemeral API version, default=%s' % DEFAULT_API_VERSION)
    warn_beside_tripleoclient()
    # A sourced rc file's OS_CLOUD must not stop commands needing no cloud.
    return os_cloud.install(parser, COMMAND_GROUP)


def _command_names(distribution, group):
    try:
        found = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return set()
    return {ep.name.replace('_', ' ') for ep in found.entry_points
            if ep.group == group}


def shared_commands():
    """The command names python-tripleoclient, when it is installed in this
    Python environment, registers too: openstackclient keeps one command
    per name, whichever plugin it loads last."""
    theirs = _command_names(TRIPLEOCLIENT, TRIPLEOCLIENT_GROUP)
    if not theirs:  # the common case: one quick lookup
        return []
    return sorted(theirs & _command_names(DISTRIBUTION, COMMAND_GROUP))


@functools.lru_cache(maxsize=None)
def warn_beside_tripleoclient():
    """Warn once per process when tripleoclient's commands are installed
    beside this plugin's; return the names both register."""
    shared = shared_commands()
    if shared:
        LOG.warning(_(
            'python-tripleoclient is installed in the same Python environment '
            'as tripleo-ephemeral: %(count)d commands (%(names)s) are '
            'registered by both, and only the plugin loaded last answers '
            'them. Install tripleo-ephemeral in a venv of its own (python3 '
            '-m venv ~/tripleo-ephemeral-venv, then '
            '~/tripleo-ephemeral-venv/bin/pip install <its source>), remove '
            'it from this environment, and run '
            '~/tripleo-ephemeral-venv/bin/openstack'),
            {'count': len(shared), 'names': ', '.join(shared)})
    return tuple(shared)
