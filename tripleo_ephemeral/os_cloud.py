"""An ``OS_CLOUD`` the product's commands do not need does not stop them.

osc-lib resolves the cloud before it knows the command:
``OpenStackShell.initialize_app`` calls ``OSC_Config.get_one(cloud=
options.cloud, validate=False)``, and openstacksdk's loader
(``_get_base_cloud_config``) raises "Cloud X was not found." for a name no
clouds.yaml holds, whatever the command's ``auth_required``;
``prepare_to_run_command`` does it again. So a sourced rc file naming a
cloud this machine does not have (tripleoclient's ``overcloudrc`` and
``stackrc`` set ``OS_CLOUD=overcloud``/``undercloud``, whose clouds.yaml is
in ``/etc/openstack`` on the undercloud only) stopped every command of the
product, even those that talk to no cloud.

The plugin's ``build_option_parser`` hands :func:`install` the shell's
parser. After the global options are parsed, when the command is one of
the product's that needs no cloud (``auth_required = False``) and the cloud
came from ``OS_CLOUD`` but is unknown to openstacksdk, the shell is told
"no cloud" (``--os-cloud ''``, which openstacksdk takes as none to look
up). Any other command, a known cloud, or an ``--os-cloud`` typed on the
command line keep osc's own behaviour and error. The product's code that
does use a cloud (``--heat-type installed``) reads ``OS_CLOUD`` itself and
says what is wrong in its own one line.
"""

import logging
import os

LOG = logging.getLogger(__name__)


def needs_no_cloud(group, words):
    """Whether ``words`` (the command line after the global options) run a
    command of ``group`` whose ``auth_required`` is False."""
    from cliff import commandmanager

    words = list(words)
    if words[:1] == ['help']:  # "openstack help overcloud deploy"
        words = words[1:]
    try:
        factory, _name, _args = commandmanager.CommandManager(
            group).find_command(words)
    except ValueError:
        return False
    return getattr(factory, 'auth_required', True) is False


def known(cloud):
    """Whether openstacksdk finds the cloud ``cloud`` (its clouds.yaml
    files, or the OS_* variables' cloud)."""
    from openstack.config import loader
    from openstack import exceptions

    try:
        return cloud in loader.OpenStackConfig().get_cloud_names()
    except (exceptions.ConfigException, OSError, ValueError):
        return False  # a broken clouds.yaml: osc says so where it matters


def install(parser, group):
    """Make the shell's ``parser`` drop an unknown ``OS_CLOUD`` for the
    commands of ``group`` that need no cloud (the module says why)."""
    parse = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        options, remainder = parse(args, namespace)
        cloud = getattr(options, 'cloud', None)
        if cloud and cloud == os.environ.get('OS_CLOUD') and \
                needs_no_cloud(group, remainder) and not known(cloud):
            LOG.debug('OS_CLOUD=%s is not a cloud openstacksdk knows; '
                      'ignored, as %s needs none', cloud,
                      ' '.join(remainder[:3]))
            options.cloud = ''
        return options, remainder

    parser.parse_known_args = parse_known_args
    return parser
