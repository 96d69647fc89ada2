"""The work dir: the whole memory of a deployment, and every path in it.

Between commands nothing runs; what a deployment keeps is here. This module
is the only one that spells the layout (the install archives' names are in
:mod:`tripleo_ephemeral.workdir.archives`); everything else asks a
:class:`WorkDir` for its paths::

    ~/overcloud-deploy/<stack>/            the default work dir
      heat-launcher/                       the heat dir: Heat's config,
                                           database dumps and logs
      tripleo-heat-templates/              the rendered copy of the templates
      outputs/<stack>-outputs.yaml         the stack outputs, and
      outputs/<stack>-deployments.yaml     its software deployments
      outputs/<stack>-environment.yaml     what the inventory reads of
                                           its merged environment
      config-download/<stack>/             the Ansible project
      os-collect-config/<Role>-<i>.conf    agent configs (deployed server
                                           agent config)
      <stack>-passwords.yaml               generated passwords (0600)
      <stack>-deployed-servers.yaml        generated deployed-server env
                                           (ports, VIPs, networks)
      <stack>-ip-allocations.yaml          the addresses hosts and VIPs got
                                           (kept for every later deploy)
      <stack>-tht-parameters.yaml          generated <Role>Services, images
      <stack>-deploy-parameters.yaml       DeployIdentifier and friends
      <stack>-deploy-inputs.yaml           what the last deploy used
      <stack>-deployment_status.yaml       DEPLOYING, DEPLOY_SUCCESS, ...
      <stack>-last-success.yaml            what the checks compare against
      <stack>-stack-size.yaml              the last create's resource count
      <stack>-install-<UTC time>.tar.gz    archives of the work dir after
                                           each deploy (-failed.tar.gz
                                           when it failed)
      <stack>rc, clouds.yaml               the overcloud's credentials
      <stack>-export.yaml                  "openstack overcloud export"
      <stack>-deleted-hosts.yaml           hosts "overcloud node delete" took
                                           out
      <stack>-render-settings.yaml         SSH users and Python of the last
                                           config-download render
      ssh_private_key[.pub]                the tripleo-admin key ("overcloud
                                           admin authorize")
      rhoso-export/                        "openstack overcloud adoption
                                           export" (the default --output-dir)

    An adopted deployment (``overcloud adopt``) also has:

      <stack>-adopted-environment.yaml     the stack's merged environment,
                                           usable as -e
      <stack>-adopted-servers.yaml         its hosts, a --deployed-servers
                                           file
      tripleo-<stack>-roles-data.yaml      the roles and networks data it
      tripleo-<stack>-network-data.yaml    was rendered with
      <stack>-adoption.yaml                the adoption record
      adopted/                             the stored environment, files and
                                           template as Heat had them
"""

import logging
import os
import re

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.workdir import archives as install_archives

LOG = logging.getLogger(__name__)

DEFAULT_STACK = 'overcloud'
#: Where work dirs go by default, one per stack (as tripleoclient's).
DEFAULT_PARENT = os.path.join('~', 'overcloud-deploy')

#: Heat's own rule for a new stack's name (heat/engine/stack.py); it also
#: keeps the name, which names the work dir and its files, free of path
#: separators.
STACK_NAME = re.compile(r'[a-zA-Z][a-zA-Z0-9_.-]{0,254}')

HEAT_DIR = 'heat-launcher'
TEMPLATES_DIR = 'tripleo-heat-templates'
OUTPUTS_DIR = 'outputs'
CONFIG_DOWNLOAD_DIR = install_archives.CONFIG_DOWNLOAD_DIR
AGENT_CONFIG_DIR = 'os-collect-config'
ADOPTED_DIR = 'adopted'

#: Environments the deploy writes itself (``<stack>-<suffix>``); they come
#: back on every deploy.
PASSWORDS = 'passwords.yaml'
DEPLOYED_SERVERS = 'deployed-servers.yaml'
THT_PARAMETERS = 'tht-parameters.yaml'
DEPLOY_PARAMETERS = 'deploy-parameters.yaml'
GENERATED_ENVIRONMENTS = (PASSWORDS, DEPLOYED_SERVERS, THT_PARAMETERS,
                          DEPLOY_PARAMETERS)

DEPLOYING = 'DEPLOYING'
DEPLOY_SUCCESS = 'DEPLOY_SUCCESS'
DEPLOY_FAILED = 'DEPLOY_FAILED'


def default_path(stack=DEFAULT_STACK):
    """``~/overcloud-deploy/<stack>``, not expanded (for help texts too)."""
    return os.path.join(DEFAULT_PARENT, stack)


def is_generated_environment(path):
    """True for the environments a deploy writes into its work dir."""
    base = os.path.basename(path)
    return any(base.endswith('-' + name) for name in GENERATED_ENVIRONMENTS)


def check_stack_name(stack):
    """Raise InputError unless ``stack`` is a name Heat takes for a stack."""
    if not isinstance(stack, str) or not STACK_NAME.fullmatch(stack):
        raise exceptions.InputError(
            '--stack %r is not a valid stack name: Heat takes a letter, then '
            'up to 254 letters, digits, "_", "-" or "." (no spaces, no path '
            'separators): choose another --stack' % (stack,))


class WorkDir:
    """The work dir of one stack; ``path`` defaults to
    ``~/overcloud-deploy/<stack>``. Its install archives are
    ``archives`` (:class:`tripleo_ephemeral.workdir.archives.Archives`)."""

    def __init__(self, path=None, stack=DEFAULT_STACK):
        self.stack = stack
        self.path = os.path.abspath(os.path.expanduser(
            path or default_path(stack)))
        self.archives = install_archives.Archives(self)

    def join(self, *names):
        return os.path.join(self.path, *names)

    def _stack_file(self, name):
        return self.join('%s-%s' % (self.stack, name))

    # -- directories -------------------------------------------------------

    @property
    def heat_dir(self):
        """The heat dir of the launchers (their own layout inside)."""
        return self.join(HEAT_DIR)

    @property
    def heat_dump(self):
        """The newest database dump of the heat dir."""
        return os.path.join(self.heat_dir, dumps.DUMP_NAME)

    @property
    def templates_dir(self):
        return self.join(TEMPLATES_DIR)

    @property
    def outputs_dir(self):
        return self.join(OUTPUTS_DIR)

    @property
    def outputs_file(self):
        return os.path.join(self.outputs_dir, '%s-outputs.yaml' % self.stack)

    @property
    def deployments_file(self):
        return os.path.join(self.outputs_dir,
                            '%s-deployments.yaml' % self.stack)

    @property
    def stack_environment_file(self):
        return os.path.join(self.outputs_dir,
                            '%s-environment.yaml' % self.stack)

    @property
    def hidden_parameters_file(self):
        """The names of the hidden parameters the stack's environment
        set (their values are secrets)."""
        return os.path.join(self.outputs_dir,
                            '%s-hidden-parameters.yaml' % self.stack)

    @property
    def config_download_dir(self):
        return self.join(CONFIG_DOWNLOAD_DIR, self.stack)

    @property
    def agent_config_dir(self):
        return self.join(AGENT_CONFIG_DIR)

    def agent_config_file(self, role, index):
        return os.path.join(self.agent_config_dir, '%s-%d.conf' % (role,
                                                                   index))

    @property
    def agent_known_hosts(self):
        return os.path.join(self.agent_config_dir, 'ssh_known_hosts')

    # -- per-stack files ----------------------------------------------------

    @property
    def passwords_file(self):
        return self._stack_file(PASSWORDS)

    @property
    def deployed_servers_file(self):
        return self._stack_file(DEPLOYED_SERVERS)

    @property
    def ip_allocations_file(self):
        return self._stack_file('ip-allocations.yaml')

    @property
    def tht_parameters_file(self):
        return self._stack_file(THT_PARAMETERS)

    @property
    def deploy_parameters_file(self):
        return self._stack_file(DEPLOY_PARAMETERS)

    @property
    def deploy_inputs_file(self):
        return self._stack_file('deploy-inputs.yaml')

    @property
    def status_file(self):
        return self._stack_file('deployment_status.yaml')

    @property
    def last_success_file(self):
        return self._stack_file('last-success.yaml')

    @property
    def stack_size_file(self):
        return self._stack_file('stack-size.yaml')

    @property
    def rc_file(self):
        """``<stack>rc`` (tripleoclient's name: ``overcloudrc``)."""
        return self.join('%src' % self.stack)

    @property
    def clouds_file(self):
        return self.join('clouds.yaml')

    def export_file(self, cell=False):
        return self._stack_file('cell-export.yaml' if cell else
                                'export.yaml')

    @property
    def render_settings_file(self):
        return self._stack_file('render-settings.yaml')

    @property
    def deleted_hosts_file(self):
        return self._stack_file('deleted-hosts.yaml')

    @property
    def ssh_admin_key(self):
        """The tripleo-admin private key; ``.pub`` next to it."""
        return self.join('ssh_private_key')

    @property
    def rhoso_export_dir(self):
        """Where ``overcloud adoption export`` writes by default."""
        return self.join('rhoso-export')

    # -- what an adoption writes (overcloud adopt) --------------------------

    @property
    def adopted_environment_file(self):
        return self._stack_file('adopted-environment.yaml')

    @property
    def adopted_servers_file(self):
        return self._stack_file('adopted-servers.yaml')

    @property
    def adoption_file(self):
        return self._stack_file('adoption.yaml')

    @property
    def roles_data_file(self):
        """tripleoclient's name, which its deploy reads without -r."""
        return self.join('tripleo-%s-roles-data.yaml' % self.stack)

    @property
    def network_data_file(self):
        return self.join('tripleo-%s-network-data.yaml' % self.stack)

    @property
    def adopted_dir(self):
        """The stored environment, files and template, as Heat had them."""
        return self.join(ADOPTED_DIR)

    # -- state -------------------------------------------------------------

    def create(self):
        fileutil.ensure_private_dir(self.path)
        return self

    def set_status(self, status):
        fileutil.write_atomic(self.status_file, yaml.safe_dump(
            {'deployment_status': status}, default_flow_style=False))
        LOG.debug('Deployment status of %s: %s', self.stack, status)

    def restore_status(self, previous):
        """Put back the status a deploy found (``None``: there was none)."""
        if previous is None:
            fileutil.remove(self.status_file)
        else:
            self.set_status(previous)

    def status(self):
        return (self.load(self.status_file) or {}).get('deployment_status')

    def load(self, path):
        """The YAML at ``path`` (one of the work dir's), or None if absent
        or unreadable: what the work dir remembers is a hint, never a
        reason to fail."""
        try:
            with open(path) as f:
                return yaml.safe_load(f)
        except FileNotFoundError:
            return None
        except (OSError, yaml.YAMLError) as exc:
            LOG.warning('Ignoring %s, which cannot be read: %s', path, exc)
            return None

    def save(self, path, data):
        """Write ``data`` as YAML to ``path`` atomically (0600)."""
        fileutil.write_atomic(path, yaml.safe_dump(
            data, default_flow_style=False))
        return path
