"""openstack overcloud adoption export"""

import logging
import os

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.commands import rhoso_options
from tripleo_ephemeral import exceptions

LOG = logging.getLogger(__name__)


#: The values a table summarises without --long.
SUMMARISED = ('nodesets', 'skipped_roles', 'steps', 'secrets')


def _control_plane(built):
    cp = built.controlplane
    if cp is None:
        return '-'
    return _('%(steps)d steps (%(patches)d patches): valid for RHOSO '
             '%(versions)s') % {
        'steps': len(cp.steps),
        'patches': sum(len(s.patches) for s in cp.steps),
        'versions': ', '.join(
            v for v, r in sorted(built.controlplane_results.items())
            if not r[0]) or '-'}


class ExportAdoption(base.DeploymentCommand, command.ShowOne):
    """Write what RHOSO's adoption needs of this overcloud's data plane.

    From the work dir alone (no Heat, nothing contacted), as the upstream
    procedure's steps, one directory each (NN-<step>/, applied in order
    with "oc apply -f NN-<step>/"): the NetConfig (merged into
    --netconfig), the Secrets, the cells' services, an
    OpenStackDataPlaneNodeSet per cell and for the networkers, the
    pre-adoption validation, the cleanup of the computes and the
    adoption, the fast-forward upgrade, the networkers' own steps; the
    shell variables and report.md (each step's commands, waits and checks,
    and where every value came from). Every document is validated against
    the CRD schemas and webhook rules of --rhoso-version before anything
    is written; the work dir is locked meanwhile.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--output-dir', metavar='<dir>', type=options.abs_path,
            help=_('Where to write (default: <work-dir>/rhoso-export)'))
        parser.add_argument(
            '--overwrite', action='store_true',
            help=_('Replace the earlier export in --output-dir (only one '
                   'whose files are all as that export wrote them)'))
        rhoso_options.add_export_options(parser)
        rhoso_options.add_controlplane_options(parser)
        output.add_long_option(parser, _(
            'the nodesets, skipped_roles, steps and secrets'))
        return parser

    def take_action(self, parsed_args):
        from tripleo_ephemeral import locking
        from tripleo_ephemeral.rhoso import destination
        from tripleo_ephemeral.rhoso import export
        from tripleo_ephemeral.rhoso import export_files
        from tripleo_ephemeral.rhoso import problems
        from tripleo_ephemeral.rhoso import writing

        self.log.debug('take_action(%s)', parsed_args)
        workdir = self.workdir(parsed_args, existing=True)
        choices = rhoso_options.choices(parsed_args)
        inputs = rhoso_options.controlplane_inputs(parsed_args)
        dest = parsed_args.output_dir or workdir.rhoso_export_dir
        with errors.user_errors('--output-dir'), locking.DirLock(workdir.path):
            destination.check(dest, workdir, parsed_args.overwrite)
            try:
                built = export.build(workdir, choices, inputs)
            except exceptions.RhosoInvalidError as exc:
                for problem in exc.problems[1:]:
                    LOG.warning('%s', problems.line(problem))
                raise
            writing.write(dest, export_files.files(built),
                          export_files.private_dirs(built))
        proofs = sum(len(t.proof) for t in built.templates.values())
        columns = ('output_dir', 'stack', 'rhoso_version', 'nodesets',
                   'skipped_roles', 'steps', 'netconfig', 'documents',
                   'secrets', 'nic_templates', 'validation', 'control_plane',
                   'report')
        values = (
            dest, workdir.stack, choices.version,
            format_columns.DictListColumn(
                {g.name: [h.name for h in g.hosts] for g in built.groups}),
            format_columns.DictColumn(built.skipped),
            format_columns.ListColumn([s.directory
                                       for s in built.kit.steps()]),
            (_('merged into %s') % built.merged_into if built.merged_into
             else _('new: %s (no --netconfig)') %
             built.netconfig['metadata']['name']),
            len(built.kit.documents()),
            format_columns.ListColumn([s.name for s in built.secrets]),
            _('same network_config as TripleO on %d of %d nodes') % (
                proofs, proofs),
            _('%(n)d documents valid for RHOSO %(v)s') % {
                'n': built.result.documents, 'v': choices.version},
            _control_plane(built),
            os.path.join(dest, export_files.REPORT))
        long = output.whole(parsed_args)
        return columns, tuple(
            output.summarised(v, long) if c in SUMMARISED else v
            for c, v in zip(columns, values))
