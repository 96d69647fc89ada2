"""The work dir: the whole memory of a deployment, and every path in it.

Between commands nothing runs; what a deployment keeps is here. This module
is the only one that spells the layout (the install archives' names are in
:mod:`tripleo_ephemeral.archives.install_archives`); everything else asks a
:class:`WorkDir` for its paths. ``doc/source/reference/workdir.rst`` says
what each file holds: ``~/overcloud-deploy/<stack>/`` (the default) has the
claim that makes it this product's work dir (:mod:`.claim`), the heat dir
(``heat-launcher/``), the rendered templates, the saved outputs,
config-download, the generated environments, the records a deploy keeps
(``<stack>-*.yaml``), the install archives and the credentials; an adopted
deployment also its adopted environment, servers and record.
"""

import logging
import os
import re

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_db import dumps
from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral.overcloud import outputs as stack_outputs
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.workdir import claim as claim_file

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
CONFIG_DOWNLOAD_DIR = 'config-download'
AGENT_CONFIG_DIR = 'os-collect-config'
ADOPTED_DIR = 'adopted'
#: Names an install archive: ``<stack>-install-<UTC time>.tar.gz``
#: (:mod:`tripleo_ephemeral.archives.install_archives` writes them).
INSTALL_ARCHIVE_INFIX = '-install-'

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
#: What ``overcloud status`` says of a DEPLOYING that no command holds:
#: the command was killed (never written in the status file).
DEPLOY_INTERRUPTED = 'DEPLOY_INTERRUPTED'


def default_path(stack=DEFAULT_STACK):
    """``~/overcloud-deploy/<stack>``, not expanded (for help texts too)."""
    return os.path.join(DEFAULT_PARENT, stack)


def is_generated_environment(path):
    """True for the environments a deploy writes into its work dir."""
    base = os.path.basename(path)
    return any(base.endswith('-' + name) for name in GENERATED_ENVIRONMENTS)


def _shown(data):
    text = (data.strerror or type(data).__name__) if isinstance(
        data, OSError) else str(data).splitlines()[0] if isinstance(
            data, yaml.YAMLError) else repr(data)
    return text if len(text) <= 60 else text[:57] + '...'


def check_stack_name(stack):
    """Raise InputError unless ``stack`` is a name Heat takes for a stack."""
    if not isinstance(stack, str) or not STACK_NAME.fullmatch(stack):
        raise exceptions.InputError(
            '--stack %r is not a valid stack name: Heat takes a letter, then '
            'up to 254 letters, digits, "_", "-" or "." (no spaces, no path '
            'separators): choose another --stack' % (stack,))


class WorkDir:
    """The work dir of one stack; ``path`` defaults to
    ``~/overcloud-deploy/<stack>``."""

    def __init__(self, path=None, stack=DEFAULT_STACK):
        self.stack = stack
        self.path = os.path.abspath(os.path.expanduser(
            path or default_path(stack)))

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
    def inventory_file(self):
        """config-download's Ansible inventory."""
        return os.path.join(self.config_download_dir,
                            inventory_mod.INVENTORY_FILE)

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

    def is_install_archive(self, name):
        """Whether ``name`` is one of this stack's install archives."""
        return name.startswith(self.stack + INSTALL_ARCHIVE_INFIX) and \
            name.endswith('.tar.gz')

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

    def create(self, claim=True):
        """Make the directory (0700) and, unless not ``claim``, claim it
        for the stack (:mod:`.claim`)."""
        fileutil.ensure_private_dir(self.path)
        if claim:
            self.claim()
        return self

    def claim(self):
        """Record that this directory is the stack's work dir."""
        claim_file.add(self.path, self.stack)

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
        """The deployment status (None: no status file); a status file
        that says none is an error naming it."""
        try:
            data = yamlfile.loads(yamlfile.read(self.status_file),
                                  json_first=False)
        except FileNotFoundError:
            return None
        except (OSError, UnicodeError, yaml.YAMLError) as exc:
            data = exc
        status = data.get('deployment_status') if isinstance(
            data, dict) else None
        if not isinstance(status, str):
            raise exceptions.WorkDirError(
                '%s holds no deployment status (%s): it should be '
                '"deployment_status: DEPLOY_SUCCESS" or another status; fix '
                'or remove it' % (self.status_file, _shown(data)))
        return status

    def load(self, path):
        """The YAML at ``path`` (one of the work dir's), or None if absent
        or unreadable: what the work dir remembers is a hint, never a
        reason to fail."""
        try:
            return yamlfile.loads(yamlfile.read(path, yamlfile.OWN),
                                  limits=yamlfile.OWN)
        except FileNotFoundError:
            return None
        except (OSError, UnicodeError, yaml.YAMLError) as exc:
            LOG.warning('Ignoring %s, which cannot be read: %s', path, exc)
            return None

    # -- what the last deploy saved, read back ------------------------------

    def saved_outputs(self):
        """The stack outputs the last deploy saved (for the blacklist, the
        rc...); StackOutputsError when there are none."""
        return self.saved_outputs_and_deployments()[0]

    def saved_outputs_and_deployments(self):
        """``(outputs, software deployments)`` the last deploy saved:
        what config-download renders from."""
        return stack_outputs.load(self.outputs_file, self.deployments_file)

    def inventory(self):
        """The rendered Ansible inventory, as a dict; DeployError when the
        stack was never rendered."""
        path = self.inventory_file
        if not os.path.isfile(path):
            raise exceptions.DeployError(
                'No inventory %s: deploy stack %s first, or check '
                '--stack/--work-dir' % (path, self.stack))
        return yamlfile.load(path, 'Inventory', exceptions.StackOutputsError,
                             strict=False) or {}

    def save(self, path, data):
        """Write ``data`` as YAML to ``path`` atomically (0600)."""
        fileutil.write_atomic(path, yaml.safe_dump(
            data, default_flow_style=False))
        return path
