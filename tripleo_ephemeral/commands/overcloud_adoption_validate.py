"""openstack overcloud adoption validate"""

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import rhoso_options
from tripleo_ephemeral.rhoso import schema

#: One row per problem (:class:`~tripleo_ephemeral.rhoso.problems.Problem`).
COLUMNS = ('Document', 'Path', 'Problem', 'Fix', 'Rule')


class ValidateAdoption(base.DeploymentCommand, command.Lister):
    """Check an adoption export against RHOSO's CRD schemas and webhooks.

    Every document oc apply would read (the YAML and JSON files at the top
    of the directory and in its NN-<step>/ directories; regular files
    only, each within the YAML reader's limits) against the schema of its
    kind in --rhoso-version (strict: unknown fields refused, defaults
    applied), the webhook and IPAM rules, the procedure's order, and, when
    the work dir it came from is there, that deployment (hostnames,
    addresses, tuned profile, the NIC template rendered on both sides in
    a sandbox). Lists the problems, one a row with the fix, and exits 1
    when there are any.
    """

    work_dir_options = options.WorkDirOptions(
        optional=True, title=_('Work dir'),
        stack_help=_('Stack of the work dir to check against'),
        work_dir_help=_('Work dir to check against'),
        default_help=_('the export\'s'))
    _failed = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            'directory', metavar='<dir>', type=options.abs_path,
            help=_('The --output-dir of "overcloud adoption export" (or any '
                   'directory of YAML documents)'))
        rhoso_options.add_version_option(
            parser, default_help=_('the export\'s, else %s')
            % schema.default_version())
        self.work_dir_group.add_argument(
            '--no-work-dir', action='store_true',
            help=_('Check the documents alone'))
        rhoso_options.add_nic_options(parser)
        return parser

    def run(self, parsed_args):
        status = super().run(parsed_args)
        return 1 if self._failed else status

    def take_action(self, parsed_args):
        from tripleo_ephemeral.rhoso import export_check

        self.log.debug('take_action(%s)', parsed_args)
        path, stack = self.work_dir_options.given(parsed_args)
        request = export_check.ValidateRequest(
            directory=parsed_args.directory,
            rhoso_version=parsed_args.rhoso_version,
            work_dir=path, stack=stack,
            against_work_dir=not parsed_args.no_work_dir,
            nic_template_dir=parsed_args.nic_template_dir,
            nic_templates={role: options.abs_path(p) for role, p in
                           parsed_args.nic_templates.items()})
        with errors.user_errors('--work-dir'):
            result = export_check.check(request)
        self._failed = bool(result.problems)
        self.app.stderr.write(_summary(request, result))
        for proof in result.proofs:
            if proof.result and proof.result.startswith('not proven'):
                self.app.stderr.write('%s: %s\n' % (proof.host,
                                                    proof.result))
        return COLUMNS, [(p.document, p.path, p.message, p.fix, p.rule)
                         for p in result.problems]


def _summary(request, result):
    """The line the command ends with on stderr."""
    proven = [p for p in result.proofs if p.result is None]
    nic = (_('; NIC template: same network_config on %(proven)d of '
             '%(nodes)d nodes') % {'proven': len(proven),
                                   'nodes': len(result.proofs)}
           if result.work_dir else _(' (the documents alone)'))
    control = (_('; control plane: %d states checked')
               % result.control_plane_states
               if result.control_plane_states is not None else '')
    return _('%(docs)d documents of %(dir)s against RHOSO %(version)s'
             '%(wd)s: %(problems)s%(nic)s%(control)s\n') % {
                 'docs': result.documents, 'dir': request.directory,
                 'version': result.version,
                 'wd': (_(' and the work dir %s') % result.work_dir
                        if result.work_dir else ''),
                 'problems': (_('%d problems') % len(result.problems)
                              if result.problems else _('valid')),
                 'nic': nic, 'control': control}
