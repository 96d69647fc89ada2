"""openstack overcloud adoption validate"""

import os

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import rhoso_options
from tripleo_ephemeral.rhoso import plan
from tripleo_ephemeral.rhoso import problems
from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral import workdir


class ValidateAdoption(base.LocalCommand, command.Lister):
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
        group = parser.add_argument_group(_('Work dir'))
        group.add_argument('--stack', metavar='<stack>',
                           help=_('Stack of the work dir to check against '
                                  '(default: the export\'s)'))
        group.add_argument(
            '--work-dir', metavar='<work-dir>', type=options.abs_path,
            help=_('Work dir to check against (default: the export\'s)'))
        group.add_argument(
            '--no-work-dir', action='store_true',
            help=_('Check the documents alone'))
        rhoso_options.add_nic_options(parser)
        return parser

    def run(self, parsed_args):
        status = super().run(parsed_args)
        return 1 if self._failed else status

    def take_action(self, parsed_args):
        from tripleo_ephemeral.rhoso.controlplane import exporting
        from tripleo_ephemeral.rhoso import source
        from tripleo_ephemeral.rhoso import validate

        self.log.debug('take_action(%s)', parsed_args)
        with errors.user_errors('--work-dir'):
            documents, found = validate.load_dir(parsed_args.directory)
            manifest = validate.manifest(parsed_args.directory)
            version = (parsed_args.rhoso_version or
                       manifest.get('rhoso_version') or
                       schema.default_version())
            deployment = None
            path = parsed_args.work_dir or manifest.get('work_dir')
            if path and not parsed_args.no_work_dir and \
                    not parsed_args.work_dir and not os.path.isdir(path):
                raise osc_exceptions.CommandError(_(
                    'The work dir %s the export came from is not here: give '
                    '--work-dir, or --no-work-dir to check the documents '
                    'alone') % path)
            if path and not parsed_args.no_work_dir:
                deployment = source.read(workdir.WorkDir(
                    path, parsed_args.stack or manifest.get('stack') or
                    workdir.DEFAULT_STACK))
            network_map = manifest.get('network_map') or {}
            result = validate.check(
                exporting.dataplane_only(documents), version, deployment,
                lambda lower: network_map.get(
                    lower, plan.DEFAULT_NETWORK_MAP.get(lower, lower)),
                parsed_args.nic_template_dir or manifest.get(
                    'nic_template_dir'),
                {role: options.abs_path(p) for role, p in (
                    parsed_args.nic_templates or manifest.get(
                        'nic_templates') or {}).items()},
                skipped=set(manifest.get('skipped_roles') or ()))
            cp_problems, cp_states, cp_found = exporting.validate_dir(
                parsed_args.directory, version, deployment, manifest,
                documents)
        found += result.problems + cp_problems
        self._failed = bool(found)
        proven = [p for p in result.proofs if p.result is None]
        nic = (_('; NIC template: same network_config on %(proven)d of '
                 '%(nodes)d nodes') % {'proven': len(proven),
                                       'nodes': len(result.proofs)}
               if deployment else _(' (the documents alone)'))
        control = (_('; control plane: %d states checked') % cp_states
                   if cp_found else '')
        self.app.stderr.write(_(
            '%(docs)d documents of %(dir)s against RHOSO %(version)s'
            '%(wd)s: %(problems)s%(nic)s%(control)s\n') % {
                'docs': result.documents, 'dir': parsed_args.directory,
                'version': version,
                'wd': (_(' and the work dir %s') % deployment.wd.path
                       if deployment else ''),
                'problems': (_('%d problems') % len(found) if found
                             else _('valid')),
                'nic': nic, 'control': control})
        for proof in result.proofs:
            if proof.result and proof.result.startswith('not proven'):
                self.app.stderr.write('%s: %s\n' % (proof.host,
                                                    proof.result))
        return problems.COLUMNS, problems.rows(found)
