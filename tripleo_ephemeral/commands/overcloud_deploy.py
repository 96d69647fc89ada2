"""openstack overcloud deploy"""

import logging

from osc_lib.command import command

from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import deploy_request

LOG = logging.getLogger(__name__)


class DeployOvercloud(base.DeploymentCommand, command.ShowOne):
    """Deploy an overcloud with an ephemeral Heat, then run config-download.

    Heat is launched, the stack is created fresh from the templates and
    environments, its outputs are rendered into an Ansible project, the
    Heat database is dumped and Heat is stopped. Everything that must
    survive lives in the work dir. Progress goes to stderr; the result
    (status, stack, counts, seconds, paths) is the command's output, so
    "-f json" gives it to a program.
    """

    work_dir_options = deploy_request.WORK_DIR

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        deploy_request.add_options(parser, self.work_dir_group)
        return parser

    def take_action(self, parsed_args):
        phases = base.deploy_started()  # startup: until here
        self.log.debug('take_action(%s)', parsed_args)
        request = deploy_request.read(parsed_args,
                                      self.workdir(parsed_args))
        if not request.stack_only and not request.stop:
            confirm.confirm(parsed_args, confirm.DEPLOY_PROMPT % {
                'stack': request.stack,
                'hosts': confirm.hosts(request.ansible.limit)}, 'deploy')
        return deploy_request.show(
            deploy_request.run(request, self.app.stderr, phases=phases),
            parsed_args.long)
