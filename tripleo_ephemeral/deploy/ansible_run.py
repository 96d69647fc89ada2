"""Run the rendered config-download playbooks with ansible-runner."""

import logging

from tripleo_ephemeral import exceptions

LOG = logging.getLogger(__name__)


class AnsibleOptions:
    """What ``overcloud deploy`` passes through to Ansible."""

    def __init__(self, ssh_user=None, ssh_key=None, limit=None, tags=None,
                 skip_tags=None, forks=None, playbook=None):
        self.ssh_user = ssh_user
        self.ssh_key = ssh_key
        self.limit = limit
        self.tags = tags
        self.skip_tags = skip_tags
        self.forks = forks
        self.playbook = playbook


class AnsibleError(exceptions.TripleoEphemeralError):
    """A play failed or Ansible could not run."""


def run_config_download(config_dir, options, out):
    """Run the deploy playbook of ``config_dir``; return seconds taken."""
    raise AnsibleError(
        'Running config-download is not available yet; use --stack-only '
        'and run the playbooks in %s' % config_dir)
