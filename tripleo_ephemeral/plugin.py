"""openstackclient plugin: registers the tripleo_ephemeral command group."""

import logging

from tripleo_ephemeral import os_cloud

LOG = logging.getLogger(__name__)

DEFAULT_API_VERSION = '1'
API_NAME = 'tripleo_ephemeral'
API_VERSION_OPTION = 'os_tripleo_ephemeral_api_version'
API_VERSIONS = {'1': 'tripleo_ephemeral.plugin'}


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
    # A sourced rc file's OS_CLOUD must not stop commands needing no cloud.
    return os_cloud.install(parser, os_cloud.command_group(
        API_NAME, DEFAULT_API_VERSION))
