"""openstackclient plugin: registers the tripleo_ephemeral command group."""

import logging

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
    return parser
