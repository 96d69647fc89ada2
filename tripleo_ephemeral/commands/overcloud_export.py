"""openstack overcloud export"""

import os

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.overcloud import all_nodes
from tripleo_ephemeral.overcloud import export
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import yamlfile


class ExportOvercloud(base.DeploymentCommand, command.Command):
    """Export what another stack needs of this one (DCN sites, cells).

    Writes <work-dir>/<stack>-export.yaml: the passwords (not those
    matching ceph.* unless --no-password-excludes), the endpoint map,
    hosts entries, global config and all-nodes data of the stack; pass it
    with -e to the deploy of the other stack.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '-o', '--output-file', metavar='<file>', type=options.abs_path,
            help=_('Where to write (default: <work-dir>/<stack>-export.yaml)'))
        parser.add_argument(
            '-f', '--force-overwrite', action='store_true',
            help=_('Overwrite the file if it exists'))
        parser.add_argument(
            '--config-download-dir', metavar='<dir>', type=options.abs_path,
            help=_('The config-download directory holding <stack>/ '
                   '(default: <work-dir>/config-download)'))
        parser.add_argument(
            '--no-password-excludes', action='store_true',
            help=_('Export every password, the Ceph ones too'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        workdir = self.workdir(parsed_args, existing=True)
        path = parsed_args.output_file or workdir.export_file()
        if os.path.exists(path) and not parsed_args.force_overwrite:
            raise osc_exceptions.CommandError(
                _("File '%s' already exists, not exporting; pass "
                  "--force-overwrite to replace it") % path)
        config_dir = (os.path.join(parsed_args.config_download_dir,
                                   workdir.stack)
                      if parsed_args.config_download_dir
                      else workdir.config_download_dir)
        with errors.user_errors('--output-file'):
            data = export.export_data(
                workdir.stack, workdir.saved_outputs(),
                passwords.load(workdir.passwords_file),
                passwords.PASSWORD_NAMES,
                all_nodes_data=all_nodes.load(config_dir),
                excludes=not parsed_args.no_password_excludes)
            yamlfile.write(path, data, mode=0o600)
        self.app.stdout.write('Stack information exported to %s.\n' % path)
