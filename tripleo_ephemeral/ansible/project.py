"""What a config-download directory holds for running it by hand.

Every deploy writes ``ansible.cfg`` and ``ansible-playbook-command.sh``
there (:func:`write_files`); every run, the product's and the script's,
uses :func:`environment`: TripleO's Ansible when the playbooks are
tripleo-ansible's, else the product's own ansible-core.
"""

import os

from tripleo_ephemeral.ansible import ansible_cfg
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.ansible import environment as env_mod

DEFAULT_PLAYBOOK = 'deploy_steps_playbook.yaml'


def environment(config_dir, options, require=True):
    """The :class:`PlaybookEnvironment` of ``config_dir``'s runs: TripleO's
    Ansible when its playbooks need it (TripleoAnsibleError when it is not
    installed; without ``require``, pointing where it will be), else the
    product's ansible-core."""
    config_dir = os.path.abspath(config_dir)
    return env_mod.PlaybookEnvironment.for_config_download(
        config_dir, options, plan=os.path.basename(config_dir),
        require=require)


def with_saved_key(config_dir, options):
    """``options``, or without an SSH key of their own, with the key the
    last deploy's ansible.cfg in ``config_dir`` names (if it still
    exists)."""
    if not options.ssh_key:
        saved = ansible_cfg.saved_ssh_key(config_dir)
        if saved and os.path.exists(saved):
            return options.replace(ssh_key=saved)
    return options


def write_files(config_dir, options, require=True):
    """Write ``ansible.cfg`` and ``ansible-playbook-command.sh`` (for the
    deploy playbook) into ``config_dir`` from ``options``; without an SSH
    key, the last deploy's is kept. Returns the environment."""
    config_dir = os.path.abspath(config_dir)
    options = with_saved_key(config_dir, options)
    env = environment(config_dir, options, require=require)
    fileutil.write_atomic(os.path.join(config_dir, ansible_cfg.ANSIBLE_CFG),
                          ansible_cfg.text(
                              config_dir, options,
                              tripleo=env.ansible is not None,
                              search=env.search_paths(for_files=True)))
    script = os.path.join(config_dir, env_mod.SCRIPT)
    fileutil.write_atomic(script, env.script(os.path.join(
        config_dir, options.playbook or DEFAULT_PLAYBOOK)))
    os.chmod(script, 0o750)
    return env
