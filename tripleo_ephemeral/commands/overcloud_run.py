"""openstack overcloud update|upgrade run, external-update|upgrade run

They run what the prepare rendered, without Heat.
"""

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.commands.tripleoclient import declaration
from tripleo_ephemeral.commands.tripleoclient import overcloud as tripleoclient
from tripleo_ephemeral import progress

#: What a run shows of its :class:`~tripleo_ephemeral.lifecycle.run.
#: RunResult`, in order.
COLUMNS = ('status', 'stack', 'playbooks', 'limit', 'ansible_seconds',
           'unreachable', 'config_download')


class _Run(base.DeploymentCommand, command.ShowOne):
    kind = None
    prompt = None
    limit_required = True
    external = False
    #: tripleoclient's options it accepts and ignores
    ignored = tripleoclient.RUN

    @property
    def ansible_arguments(self):
        """The Ansible options of the command."""
        return ansible_options.AnsibleArguments(
            limit=True, limit_required=self.limit_required, tags=True,
            forks=True)

    def get_parser(self, prog_name):
        from tripleo_ephemeral.lifecycle import run as lifecycle

        parser = super().get_parser(prog_name)
        group = self.ansible_arguments.add(parser)
        if not self.external:
            group.add_argument(
                '--playbook', metavar='<playbook>', nargs='*',
                help=_('Playbooks to run instead, in order (names in '
                       'config-download/<stack>/, or paths); "all" means '
                       'the default: %s') % ', '.join(
                           lifecycle.PLAYBOOKS[self.kind]))
        else:
            group.add_argument(
                '-e', '--extra-vars', metavar='<key=value>',
                action='append', default=[],
                help=_('Extra variables, key=value or a YAML/JSON mapping '
                       '(repeatable)'))
        confirm.add_yes_option(parser)
        tripleoclient.add_options(parser, self.ignored)
        return parser

    def take_action(self, parsed_args):
        from tripleo_ephemeral.lifecycle import run as lifecycle

        self.log.debug('take_action(%s)', parsed_args)
        declaration.warn_ignored(parsed_args, self.ignored)
        confirm.confirm(parsed_args, self.prompt, '%s run' % self.kind)
        with errors.user_errors('--work-dir'), \
                interrupts.stop_in_order(_('the %s run') % self.kind):
            extravars = ansible_options.ssh_extravars(
                parsed_args.overcloud_ssh_user,
                parsed_args.overcloud_ssh_key)
            if self.external:
                extravars.update(ansible_options.parse_extra_vars(
                    parsed_args.extra_vars))
            ansible = self.ansible_arguments.read(
                parsed_args, ssh_user=False, extravars=extravars)
            result = lifecycle.run(
                self.workdir(parsed_args), self.kind, ansible,
                progress.channel(self.app.stderr),
                playbooks=None if self.external else parsed_args.playbook)
        return output.item_row(result, COLUMNS, {
            'playbooks': format_columns.ListColumn,
            'unreachable': format_columns.ListColumn})


class RunUpdate(_Run):
    """Run the minor update playbook the update prepare rendered.

    update_steps_playbook.yaml on the --limit hosts, a role at a time (a
    host at a time within a role unless update_serial says otherwise).
    No Heat; the deployment status is left as the last deploy set it.
    """

    kind = 'update'
    prompt = confirm.UPDATE_PROMPT


class RunUpgrade(_Run):
    """Run the major upgrade playbooks the upgrade prepare rendered.

    upgrade_steps_playbook.yaml, then deploy_steps_playbook.yaml, then
    post_upgrade_steps_playbook.yaml on the --limit hosts, stopping at the
    first failure. No tags are skipped unless --skip-tags says so.
    """

    kind = 'upgrade'
    prompt = confirm.UPGRADE_PROMPT


class RunExternalUpdate(_Run):
    """Run the external update playbook (tasks on this machine)."""

    kind = 'external-update'
    prompt = confirm.UPDATE_PROMPT
    limit_required = False
    external = True
    ignored = tripleoclient.EXTERNAL_UPDATE_RUN


class RunExternalUpgrade(_Run):
    """Run the external upgrade playbook (tasks on this machine)."""

    kind = 'external-upgrade'
    prompt = confirm.UPGRADE_PROMPT
    limit_required = False
    external = True
