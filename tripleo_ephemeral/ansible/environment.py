"""How ``ansible-playbook`` runs a config-download: one source for all runs.

:class:`PlaybookEnvironment` holds the environment of python-tripleoclient
20.0.0's ``run_ansible_playbook`` as its ``config_download`` called it
(become, the remote user, tripleo-ansible's roles and plugins, its
callbacks, fact gathering and caching, forks, timeouts), pointing at the
TripleO's Ansible this product installed. The deploy writes it into
config-download as ``ansible-playbook-command.sh`` (beside ``ansible.cfg``)
and the product's own runs pass the very same variables to ansible-runner,
so a run by hand and a run by the product behave the same. Two deliberate
differences from tripleoclient: the fact cache and the log stay in the work
dir, and SSH host keys are trusted on first use and then checked
(``ansible.cfg``: ``StrictHostKeyChecking=accept-new`` with the work dir's
known hosts) instead of never checked.

Playbooks that need no tripleo-ansible (the bundled sample) run with the
product's own ansible-core and the part of that environment that is not
tripleo-ansible's. Where modules, plugins, roles and collections are looked
for, in both: :mod:`.search_paths` (the product's first, then the
operator's, then Ansible's defaults).
"""

import glob
import json
import multiprocessing
import os
import shlex
import sys

from tripleo_ephemeral.overcloud import inventory as inventory_mod
from tripleo_ephemeral.ansible import install as install_mod
from tripleo_ephemeral.ansible import search_paths as search_mod
from tripleo_ephemeral.ansible import ssh_masters

SCRIPT = 'ansible-playbook-command.sh'
#: Names another playbook for the script to run instead of the deploy's.
PLAYBOOK_VAR = 'TRIPLEO_PLAYBOOK'
CFG = 'ansible.cfg'
#: tripleoclient's constants.ANSIBLE_CWL plus its stdout callback.
CALLBACKS = 'tripleo_dense,tripleo_profile_tasks,tripleo_states'
STDOUT_CALLBACK = 'tripleo_dense'
#: What marks playbooks written for tripleo-ansible: its strategies.
_MARK = 'strategy: tripleo_'


def config_download_uses_tripleo_ansible(config_dir):
    """Whether the playbooks of ``config_dir`` are tripleo-ansible's
    (tripleo-heat-templates'): one of them uses a ``tripleo_*`` strategy."""
    for path in glob.glob(os.path.join(config_dir, '*.yaml')):
        if _marked(path):
            return True
    return False


def templates_use_tripleo_ansible(templates_dir):
    """The same, asked of the templates before a deploy renders them:
    THT writes its playbooks from ``common/deploy-steps.j2``."""
    return _marked(os.path.join(templates_dir, 'common', 'deploy-steps.j2'))


def _marked(path):
    try:
        with open(path, errors='replace') as f:
            return _MARK in f.read()
    except OSError:
        return False


def default_forks():
    """tripleoclient's default: four per CPU, at most 100."""
    return min(multiprocessing.cpu_count() * 4, 100)


class PlaybookEnvironment:
    """The environment ``ansible-playbook`` runs the playbooks of
    ``config_dir`` in, with ``options`` (:class:`~.run.AnsibleOptions`).
    ``ansible`` is the
    :class:`~.install.AnsibleInstall` to use, or None for the product's
    own ansible-core."""

    def __init__(self, config_dir, options, ansible=None, plan='overcloud'):
        self.config_dir = os.path.abspath(config_dir)
        self.options = options
        self.ansible = ansible
        self.plan = plan

    @classmethod
    def for_config_download(cls, config_dir, options, plan='overcloud',
                            ansible_path=None, require=True):
        """With TripleO's Ansible when the playbooks need it (with
        ``require``, TripleoAnsibleError when it is not installed), else
        with the product's own ansible-core."""
        ansible = None
        if config_download_uses_tripleo_ansible(config_dir):
            ansible = install_mod.AnsibleInstall(ansible_path)
            if require:
                ansible.require()
        return cls(config_dir, options, ansible, plan)

    @property
    def bin_dir(self):
        """Where ``ansible-playbook`` is (also first on the runs' PATH)."""
        if self.ansible is not None:
            return self.ansible.bin_dir
        return os.path.dirname(sys.executable)

    @property
    def python(self):
        """The Python that Ansible runs on (the playbook check's)."""
        if self.ansible is not None:
            return self.ansible.python
        return sys.executable

    @property
    def cfg_path(self):
        return os.path.join(self.config_dir, CFG)

    @property
    def fact_cache(self):
        return os.path.join(self.config_dir, '.ansible', 'fact_cache')

    def search_paths(self, for_files=False):
        """The :class:`~.search_paths.SearchPaths` of the runs. A run
        reads the operator's directories from config-download's
        ``ansible.cfg`` (where the deploy kept ``--override-ansible-cfg``'s)
        and the operator's own ansible.cfg; ``for_files``, when the deploy
        writes them anew, from ``--override-ansible-cfg`` instead of the
        ``ansible.cfg`` being replaced."""
        own = self.options.override_cfg if for_files else self.cfg_path
        return search_mod.SearchPaths(self.ansible, [
            own, search_mod.operator_cfg(os.environ, self.cfg_path)])

    def variables(self, search=True):
        """The environment variables (an ordered dict of strings); without
        ``search``, those of :meth:`search_paths` left out."""
        options = self.options
        env = {
            'ANSIBLE_CONFIG': self.cfg_path,
            'ANSIBLE_FORKS': str(options.forks or default_forks()),
            'ANSIBLE_TIMEOUT': '30',
            'ANSIBLE_GATHER_TIMEOUT': '45',
            'ANSIBLE_SSH_RETRIES': '3',
            'ANSIBLE_PIPELINING': 'True',
            'ANSIBLE_DISPLAY_FAILED_STDERR': 'True',
            'ANSIBLE_RETRY_FILES_ENABLED': 'False',
            'ANSIBLE_TRANSPORT': 'smart',
            'TRIPLEO_PLAN_NAME': self.plan,
        }
        if options.ssh_user:
            env['ANSIBLE_REMOTE_USER'] = options.ssh_user
        if search:
            env.update(self.search_paths().variables())
        if self.ansible is None:
            return env
        env.update({
            'ANSIBLE_BECOME': 'True',
            'ANSIBLE_REMOTE_USER': (options.ssh_user or
                                    inventory_mod.DEFAULT_SSH_USER),
            'ANSIBLE_STDOUT_CALLBACK': STDOUT_CALLBACK,
            'ANSIBLE_CALLBACKS_ENABLED': CALLBACKS,
            'ANSIBLE_SCP_IF_SSH': 'True',
            'ANSIBLE_GATHERING': 'smart',
            'ANSIBLE_GATHER_SUBSET': '!all,min',
            'ANSIBLE_INJECT_FACT_VARS': 'False',
            'ANSIBLE_VARS_PLUGIN_STAGE': 'all',
            'ANSIBLE_CACHE_PLUGIN': 'jsonfile',
            'ANSIBLE_CACHE_PLUGIN_CONNECTION': self.fact_cache,
            'ANSIBLE_CACHE_PLUGIN_TIMEOUT': '7200',
        })
        return env

    def playbook_args(self, playbook):
        """``ansible-playbook``'s arguments for ``playbook`` (a path) with
        the options' limit, tags and extra variables."""
        options = self.options
        args = ['-i', os.path.join(self.config_dir,
                                   inventory_mod.INVENTORY_FILE)]
        for flag, value in (('--limit', options.limit),
                            ('--tags', options.tags),
                            ('--skip-tags', options.skip_tags)):
            if value:
                args += [flag, value]
        if options.extravars:
            args += ['-e', json.dumps(options.extravars, sort_keys=True)]
        return args + [playbook]

    def script(self, playbook):
        """The text of ``ansible-playbook-command.sh`` for ``playbook``."""
        lines = [
            '#!/usr/bin/env bash',
            '# Written by openstack overcloud deploy; rewritten on every '
            'deploy.',
            '# Runs %s (or $%s: another playbook of this directory)'
            % (os.path.basename(playbook), PLAYBOOK_VAR),
            '# with the environment the product\'s own runs use; arguments '
            'are passed on',
            '# to ansible-playbook (--syntax-check, --limit, --tags...).',
            'set -e',
        ]
        for name, value in self.variables(search=False).items():
            lines.append('export %s=%s' % (name, shlex.quote(value)))
        lines += [
            '# ssh\'s connections live in a short directory of this run, '
            'as the product\'s',
            '# do (a socket path has 108 bytes; ~/.ansible/cp can be '
            'longer): the next',
            '# openstack overcloud command closes what is left in it.',
            'export ANSIBLE_SSH_CONTROL_PATH_DIR="${ANSIBLE_SSH_CONTROL_PATH_'
            'DIR:-$(mktemp -d "${TMPDIR:-/tmp}/%s$$-XXXXXXXX")}"'
            % ssh_masters.PREFIX,
        ]
        lines += [
            '# Where modules, plugins, roles and collections are found: '
            'the product\'s',
            '# first, then yours (these variables as set when this runs, '
            'then the',
            '# ansible.cfg directories the deploy found), then Ansible\'s '
            'defaults; the',
            '# product\'s own fallback modules last. ansible.cfg says the '
            'same.',
        ] + self.search_paths(for_files=True).script_lines()
        args = [shlex.quote(a) for a in [os.path.join(
            self.bin_dir, 'ansible-playbook')] + self.playbook_args(playbook)]
        # The default is quoted for an unquoted ${...:-word} (in double
        # quotes a quote is a character: a path with a space broke).
        lines.append('playbook=${%s:-%s}' % (PLAYBOOK_VAR, args[-1]))
        args[-1] = '"$playbook"'
        lines.append('exec %s "$@"' % ' '.join(args))
        return '\n'.join(lines) + '\n'
