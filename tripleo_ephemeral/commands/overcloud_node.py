"""openstack overcloud node delete"""

import logging

from osc_lib.cli import format_columns
from osc_lib.cli import parseractions
from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral import progress
from tripleo_ephemeral.commands.tripleoclient import overcloud as tripleoclient

LOG = logging.getLogger(__name__)


class DeleteNode(base.DeploymentCommand, command.ShowOne):
    """Scale overcloud nodes down and take them out of the deployment.

    Runs the scale-down tasks (scale_playbook.yaml) on the hosts; a host
    that cannot be reached is taken out all the same. The hosts are then
    left out of the inventory and of every later deploy. Nothing on them
    is stopped: power them off and reprovision them before reuse.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            'nodes', metavar='<host>', nargs='*',
            help=_('Hostname of a node to delete, as in the inventory '
                   '(one or more)'))
        confirm.add_yes_option(parser)
        group = ansible_options.AnsibleArguments().add(parser)
        group.add_argument(
            '--timeout', metavar='<minutes>', type=int, default=60,
            action=parseractions.NonNegativeAction,
            help=_('Minutes the scale-down tasks may take (default: 60)'))
        tripleoclient.add_options(
            parser, tripleoclient.NODE_DELETE)
        return parser

    def take_action(self, parsed_args):
        from tripleo_ephemeral.lifecycle import node_delete

        self.log.debug('take_action(%s)', parsed_args)
        tripleoclient.check(parsed_args, tripleoclient.NODE_DELETE)
        if not parsed_args.nodes:
            raise osc_exceptions.CommandError(
                _('Name the hosts to delete: openstack overcloud node delete '
                  '<host> [<host> ...]'))
        workdir = self.workdir(parsed_args)
        say = progress.channel(self.app.stderr)
        with errors.user_errors('--work-dir'):
            found = node_delete.check_hosts(
                workdir.inventory(), parsed_args.nodes, workdir.stack)
        for host, role, ip in found:
            say('%s (%s, %s)' % (host, role, ip))
        confirm.confirm(parsed_args, confirm.NODE_DELETE_PROMPT,
                        _('Node delete'))
        ansible = ansible_options.AnsibleArguments().read(
            parsed_args, ssh_user=False,
            timeout=parsed_args.timeout or None,
            extravars=ansible_options.ssh_extravars(
                parsed_args.overcloud_ssh_user, parsed_args.overcloud_ssh_key))
        with errors.user_errors('--work-dir'), \
                interrupts.stop_in_order(_('the node delete')):
            run = node_delete.delete(workdir, found, ansible, say)
        columns = ('stack', 'deleted', 'unreachable', 'ansible_seconds',
                   'deleted_hosts_file', 'config_download')
        return columns, (workdir.stack,
                         format_columns.ListColumn([f[0] for f in found]),
                         format_columns.ListColumn(run.unreachable),
                         round(run.seconds, 1), workdir.deleted_hosts_file,
                         workdir.config_download_dir)
