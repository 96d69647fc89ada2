"""openstack overcloud update|upgrade prepare|run, external-update|upgrade run

The prepare commands are ``overcloud deploy`` (its parser, its options)
with the lifecycle environment put first and ``--stack-only`` forced. The
run commands run what the prepare rendered, without Heat.
"""

import logging

from osc_lib.cli import parseractions
from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import deploy_compat
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import overcloud_deploy
from tripleo_ephemeral.commands import progress
from tripleo_ephemeral.deploy import ansible_run
from tripleo_ephemeral.deploy import lifecycle
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral import tht

LOG = logging.getLogger(__name__)

_PROMPTS = {'update': confirm.UPDATE_PROMPT, 'upgrade': confirm.UPGRADE_PROMPT}


class _Prepare(overcloud_deploy.DeployOvercloud):
    kind = None

    def take_action(self, parsed_args):
        confirm.confirm(parsed_args, _PROMPTS[self.kind],
                        '%s prepare' % self.kind)
        if parsed_args.config_download_only:
            raise osc_exceptions.CommandError(
                _('%s prepare creates a stack: drop --config-download-only')
                % self.kind)
        deploy_compat.apply_answers(parsed_args, None)
        with errors.user_errors('--templates'):
            templates = parsed_args.templates
            if templates is overcloud_deploy.INSTALLED:
                templates = parsed_args.templates = tht.find()
            environment = lifecycle.prepare_environment(
                templates or template_processing.bundled_templates_dir(),
                self.kind)
        parsed_args.environment_files.insert(0, environment)
        parsed_args.stack_only = True
        result = super().take_action(parsed_args)
        if dict(zip(*result)).get('status') == 'DEPLOY_SUCCESS':  # not a
            # --dry-run or --setup-only, which stop before the stack
            self.app.stderr.write('%s init on stack %s complete.\n' % (
                self.kind.capitalize(), parsed_args.stack))
        return result


class PrepareUpdate(_Prepare):
    """Create the stack with the minor update environment (no host touched).

    "overcloud deploy --stack-only" with
    environments/lifecycle/update-prepare.yaml put first: it renders the
    update playbooks "overcloud update run" runs. Takes every option of
    "overcloud deploy".
    """

    kind = 'update'


class PrepareUpgrade(_Prepare):
    """Create the stack with the major upgrade environment (no host touched).

    "overcloud deploy --stack-only" with
    environments/lifecycle/upgrade-prepare.yaml put first: it renders the
    upgrade playbooks "overcloud upgrade run" runs. Unlike tripleoclient it
    does not create tripleo-admin on the hosts: "overcloud admin authorize"
    does.
    """

    kind = 'upgrade'


class _Run(command.ShowOne):
    kind = None
    prompt = None
    limit_required = True
    external = False

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        options.add_work_dir_options(parser)
        group = parser.add_argument_group(_('Ansible'))
        group.add_argument(
            '--limit', metavar='<hosts>', required=self.limit_required,
            help=_('Hosts or groups to run on, separated by commas, spaces '
                   'or colons, e.g. Compute or "ctrl-0,cmp-0"%s') % (
                       '' if self.limit_required else
                       _(' (default: all)')))
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
        group.add_argument('--tags', metavar='<tags>',
                           help=_('Run only tasks with these tags'))
        group.add_argument('--skip-tags', metavar='<tags>',
                           help=_('Skip tasks with these tags'))
        group.add_argument(
            '--ansible-forks', metavar='<n>', type=int,
            action=parseractions.NonNegativeAction,
            help=_('Parallel Ansible processes'))
        group.add_argument(
            '--overcloud-ssh-user', metavar='<user>',
            help=_('User to log in as (default: the inventory\'s, i.e. '
                   'what the last deploy used)'))
        group.add_argument(
            '--overcloud-ssh-key', metavar='<key-file>',
            type=options.abs_path,
            help=_('Private key (default: the last deploy\'s)'))
        confirm.add_yes_option(parser)
        deprecated = parser.add_argument_group(
            _('Deprecated (accepted and ignored, as in tripleoclient)'))
        deprecated.add_argument('--ssh-user', help=_('Ignored; use '
                                                     '--overcloud-ssh-user'))
        deprecated.add_argument('--static-inventory',
                                help=_('Ignored: the rendered inventory is '
                                       'used'))
        if self.kind == 'external-update':
            deprecated.add_argument('--refresh', action='store_true',
                                    help=_('Ignored'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        for name in ('ssh_user', 'static_inventory', 'refresh'):
            if getattr(parsed_args, name, None):
                LOG.warning(_('--%s is deprecated and ignored'),
                            name.replace('_', '-'))
        confirm.confirm(parsed_args, self.prompt, '%s run' % self.kind)
        with errors.user_errors('--work-dir'), \
                interrupts.stop_in_order(_('the %s run') % self.kind):
            extravars = lifecycle.ssh_extravars(
                parsed_args.overcloud_ssh_user,
                parsed_args.overcloud_ssh_key)
            extravars.update(lifecycle.parse_extra_vars(
                getattr(parsed_args, 'extra_vars', None)))
            ansible = ansible_run.AnsibleOptions(
                ssh_key=parsed_args.overcloud_ssh_key,
                limit=lifecycle.parse_limit(parsed_args.limit),
                tags=parsed_args.tags, skip_tags=parsed_args.skip_tags,
                forks=parsed_args.ansible_forks, extravars=extravars)
            result = lifecycle.run(
                options.work_dir(parsed_args), self.kind, ansible,
                progress.writer(self.app.stderr),
                playbooks=getattr(parsed_args, 'playbook', None))
        return result.row()


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


class RunExternalUpgrade(_Run):
    """Run the external upgrade playbook (tasks on this machine)."""

    kind = 'external-upgrade'
    prompt = confirm.UPGRADE_PROMPT
    limit_required = False
    external = True
