"""openstack overcloud admin authorize"""

import logging

from osc_lib.cli import parseractions
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands.tripleoclient import overcloud as tripleoclient
from tripleo_ephemeral import progress

LOG = logging.getLogger(__name__)

#: The Ansible options; --limit keeps tripleoclient's dest.
ANSIBLE = ansible_options.AnsibleArguments(limit=True,
                                           limit_dest='limit_hosts')


class AuthorizeAdmin(base.DeploymentCommand, command.ShowOne):
    """Create tripleo-admin with the work dir's SSH key on every host.

    Logs in as the user the deploy used (or --overcloud-ssh-user) and
    creates the tripleo-admin user with passwordless sudo and
    <work-dir>/ssh_private_key (generated once) as its key, then checks
    that tripleo-admin can log in and sudo.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        group = ANSIBLE.add(
            parser, ssh_user_default=_('the one the deploy used; it creates '
                                       'tripleo-admin'))
        group.add_argument(
            '--overcloud-ssh-port-timeout', metavar='<seconds>', type=int,
            default=60, action=parseractions.NonNegativeAction,
            help=_('Seconds to wait for each host to let the user in '
                   '(default: 60; tripleoclient waited 600)'))
        tripleoclient.add_options(parser, tripleoclient.ADMIN)
        confirm.add_yes_option(parser)
        return parser

    def take_action(self, parsed_args):
        from tripleo_ephemeral.lifecycle import ssh_admin

        self.log.debug('take_action(%s)', parsed_args)
        tripleoclient.check_ssh_network(parsed_args)
        workdir = self.workdir(parsed_args)
        ansible = ANSIBLE.read(parsed_args, ssh_user=False)
        confirm.confirm(parsed_args, confirm.AUTHORIZE_PROMPT % {
            'stack': workdir.stack, 'hosts': confirm.hosts(ansible.limit)},
            'admin authorize')
        with errors.user_errors('--work-dir'), \
                interrupts.stop_in_order(_('admin authorize')):
            run, key = ssh_admin.authorize(
                workdir, workdir.inventory(), ansible,
                progress.channel(self.app.stderr),
                ssh_user=parsed_args.overcloud_ssh_user,
                wait_timeout=parsed_args.overcloud_ssh_port_timeout)
        self.app.stderr.write(_('Enabling ssh admin - COMPLETE.\n'))
        columns = ('stack', 'user', 'ssh_key', 'limit', 'ansible_seconds')
        return columns, (workdir.stack, ssh_admin.ADMIN_USER, key,
                         ansible.limit or 'all', round(run.seconds, 1))
