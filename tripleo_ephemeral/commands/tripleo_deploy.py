"""openstack tripleo deploy"""

import argparse
import logging

from osc_lib.cli import parseractions
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import ansible_options
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import deploy_request
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.commands.tripleoclient import (
    standalone as tripleoclient)
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral import tht

LOG = logging.getLogger(__name__)


#: The Ansible options of tripleo deploy (it runs as root, locally).
ANSIBLE = ansible_options.AnsibleArguments(ssh=False, forks=True)


class DeployStandalone(base.DeploymentCommand, command.ShowOne):
    """Deploy a Standalone overcloud on one host with an ephemeral Heat.

    tripleoclient's "tripleo deploy", over the same deploy as "overcloud
    deploy": the host is this machine (its short hostname) at --local-ip,
    in the role --standalone-role of tripleo-heat-templates'
    roles_data_standalone.yaml, with no isolated networks.
    """

    @property
    def work_dir_options(self):
        from tripleo_ephemeral.deploy import standalone

        return options.WorkDirOptions(
            title=_('Standalone'), default_stack=standalone.DEFAULT_STACK)

    def get_parser(self, prog_name):
        from tripleo_ephemeral.deploy import standalone

        parser = super().get_parser(prog_name)
        group = self.work_dir_group
        group.add_argument('--output-dir', dest='work_dir',
                           type=options.abs_path, help=argparse.SUPPRESS)
        group.add_argument(
            '--standalone', action='store_true',
            help=_('Accepted for compatibility (every deploy of this '
                   'command is standalone)'))
        group.add_argument(
            '--standalone-role', metavar='<role>', type=options.name,
            default=standalone.DEFAULT_ROLE,
            help=_('The role of the host (default: %s)') %
            standalone.DEFAULT_ROLE)
        group.add_argument(
            '--templates', metavar='<templates-dir>', nargs='?',
            type=options.abs_path,
            help=_('tripleo-heat-templates (default: the installed ones, '
                   '%s)') % ', then '.join(tht.candidates()))
        group.add_argument(
            '--local-ip', metavar='<address/prefix>', required=True,
            help=_('The host\'s control plane address and prefix, e.g. '
                   '192.168.24.2/24'))
        group.add_argument(
            '--control-virtual-ip', metavar='<address>',
            help=_('Control plane VIP (default: the local address)'))
        group.add_argument(
            '--public-virtual-ip', metavar='<address>',
            help=_('Public VIP (default: the local address)'))
        group.add_argument(
            '--local-domain', metavar='<domain>', default='localdomain',
            type=options.name,
            help=_('DNS domain of the cloud (default: localdomain)'))
        group.add_argument(
            '-e', '--environment-file', metavar='<file>', action='append',
            dest='environment_files', default=[], type=options.abs_path,
            help=_('Environment file, applied in order (repeatable)'))
        group.add_argument(
            '-r', '--roles-file', metavar='<file>',
            help=_('Roles data: absolute, or relative to --templates '
                   '(default: %s)') % standalone.ROLES_FILE)
        group.add_argument(
            '-n', '--networks-file', metavar='<file>',
            help=_('Networks data (default: none, control plane only)'))
        group.add_argument(
            '-t', '--timeout', metavar='<minutes>', type=int,
            default=standalone.DEFAULT_TIMEOUT_MINS,
            action=parseractions.NonNegativeAction,
            help=_('Stack create timeout in minutes (default: %d)') %
            standalone.DEFAULT_TIMEOUT_MINS)
        group.add_argument(
            '--disable-container-prepare', action='store_true',
            help=_('Send tripleo-common\'s default container image '
                   'parameters only: no ContainerImagePrepare is applied'))
        group.add_argument(
            '--output-only', '--stack-only', dest='stack_only',
            action='store_true',
            help=_('Create the stack and render the Ansible project, but do '
                   'not run it'))
        confirm.add_yes_option(group)
        output.add_long_option(group, _(
            'phase_seconds, engine_tunings and undeployed_changes'))
        ANSIBLE.add(parser, group)
        group.add_argument(
            '--keep-running', action='store_true',
            help=_('Leave Heat running after the deploy, for debugging'))
        options.add_heat_launcher_options(
            parser, type_help=_('How to run Heat: %s (default: native; '
                                'container with --heat-native false)') %
            ', '.join(heat_launcher.heat_types(ephemeral_only=True)))
        options.add_container_options(parser)
        tripleoclient.add_standalone_options(parser)
        return parser

    def take_action(self, parsed_args):
        phases = base.deploy_started()  # startup: until here
        self.log.debug('take_action(%s)', parsed_args)
        request = _request(parsed_args, self.workdir(parsed_args))
        if not request.stack_only:
            confirm.confirm(parsed_args, confirm.STANDALONE_PROMPT % {
                'stack': request.stack,
                'hosts': request.standalone.local_ip}, 'tripleo deploy')
        return deploy_request.show(
            deploy_request.run(request, self.app.stderr, phases=phases),
            parsed_args.long)


def _request(parsed_args, workdir):
    """The :class:`~tripleo_ephemeral.deploy.request.DeployRequest` of
    ``tripleo deploy``'s options: one Standalone host."""
    from tripleo_ephemeral.deploy import request as request_mod
    from tripleo_ephemeral.deploy import standalone

    compat = tripleoclient.read_standalone(parsed_args)
    spec = options.launcher_spec(parsed_args)
    with errors.user_errors('--work-dir'):
        templates = parsed_args.templates or tht.find()
    return request_mod.DeployRequest(
        workdir=workdir,
        templates=templates,
        standalone=standalone.StandaloneHost(
            local_ip=parsed_args.local_ip,
            control_virtual_ip=parsed_args.control_virtual_ip,
            public_virtual_ip=parsed_args.public_virtual_ip,
            role=parsed_args.standalone_role,
            local_domain=parsed_args.local_domain),
        environment_files=(tuple(parsed_args.environment_files) +
                           tuple(compat.environment_files)),
        roles_file=parsed_args.roles_file,
        networks_file=parsed_args.networks_file,
        timeout=parsed_args.timeout,
        disable_container_prepare=parsed_args.disable_container_prepare,
        python_interpreter=compat.python_interpreter,
        stack_only=parsed_args.stack_only,
        keep_running=parsed_args.keep_running,
        launcher=spec.replace(heat_type=spec.heat_type or compat.heat_type or
                              'native'),
        ansible=ANSIBLE.read(
            parsed_args, skip_tags=ansible_options.skip_tags(
                None, compat.inflight_validations)))
