"""openstack tripleo ansible install"""

import logging
import time

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral import process
from tripleo_ephemeral.ansible import install

LOG = logging.getLogger(__name__)


class InstallTripleoAnsible(base.LocalCommand, command.ShowOne):
    """Install TripleO's Ansible (tripleo-ansible and the ansible-core that
    runs it) into a venv of its own, for tripleo-heat-templates' playbooks"""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--dest', metavar='<dir>', type=options.abs_path,
            help=_('The venv to install into (default: $%(var)s, else '
                   '<prefix>/share/tripleo-ephemeral/ansible beside this '
                   'install, where deploys look)') % {
                       'var': install.ENV_VAR})
        parser.add_argument(
            '--python', metavar='<python>',
            help=_('The Python the venv is made with: one ansible-core %s '
                   'runs on (%s; default: this one if it is, else the first '
                   'of %s on PATH)') % (
                       install.pins().get('ansible-core'),
                       install.wanted_pythons(),
                       ', '.join('python%d.%d' % v for v in install.PYTHONS)))
        parser.add_argument(
            '--force', action='store_true',
            help=_('Install again even when the pinned versions are there'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        ansible = install.AnsibleInstall(parsed_args.dest)
        started = time.monotonic()
        with errors.user_errors('--dest', failed=_('Installing TripleO\'s '
                                                   'Ansible')), \
                interrupts.stop_in_order(
                    _('the install (pip, and the incomplete %s)') %
                    ansible.path, self.app.stderr):
            installed = ansible.install(process.ProcessRunner(),
                                        force=parsed_args.force,
                                        python=parsed_args.python)
        versions = ansible.versions()
        return (('path', 'installed', 'seconds', 'ansible_playbook',
                 'ansible_core', 'tripleo_ansible', 'versions'),
                (ansible.path, installed,
                 round(time.monotonic() - started, 1),
                 ansible.ansible_playbook, versions.get('ansible-core'),
                 versions.get('tripleo-ansible'),
                 format_columns.DictColumn(versions)))
