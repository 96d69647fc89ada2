"""openstack overcloud update|upgrade prepare

The prepare commands take ``overcloud deploy``'s options and run its
request with the lifecycle environment put first and ``--stack-only``
forced (:meth:`~tripleo_ephemeral.deploy.request.DeployRequest.to_prepare`).
"""

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import deploy_request
from tripleo_ephemeral.commands import errors


class _Prepare(base.DeploymentCommand, command.ShowOne):
    kind = None
    work_dir_options = deploy_request.WORK_DIR

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        deploy_request.add_options(parser, self.work_dir_group)
        return parser

    def take_action(self, parsed_args):
        phases = base.deploy_started()  # startup: until here
        # A prepare changes no server: it asks nothing (-y is accepted).
        if parsed_args.config_download_only:
            raise osc_exceptions.CommandError(
                _('%s prepare creates a stack: drop --config-download-only')
                % self.kind)
        request = deploy_request.read(parsed_args,
                                      self.workdir(parsed_args))
        with errors.user_errors('--templates'):
            prepare = request.to_prepare(self.kind)
        result = deploy_request.run(prepare, self.app.stderr, phases=phases)
        if result.status == 'DEPLOY_SUCCESS':  # not --dry-run/--setup-only
            self.app.stderr.write('%s init on stack %s complete.\n' % (
                self.kind.capitalize(), request.stack))
        return deploy_request.show(result, parsed_args.long)


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
