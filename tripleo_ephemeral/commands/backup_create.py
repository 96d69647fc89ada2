"""openstack tripleo backup create"""

import os

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.archives import backup


class CreateBackup(base.DeploymentCommand, command.ShowOne):
    """Write one archive of what a deployment keeps in its work dir, with
    checksums (the operator's own files there are left out, and named)"""

    work_dir_options = options.WorkDirOptions(
        work_dir_help=_('Work dir to back up'))

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--output', metavar='<file>', type=options.abs_path,
            help=_('Archive to write (default: '
                   './<work-dir name>-backup-<UTC time>.tar.gz)'))
        return parser

    def take_action(self, parsed_args):
        workdir = self.workdir(parsed_args)
        with errors.user_errors('--work-dir'):
            path, manifest = backup.create(workdir.path, parsed_args.output,
                                           stack=workdir.stack)
        return (('backup', 'work_dir', 'files', 'bytes', 'left_out'),
                (path, workdir.path, len(manifest['files']),
                 os.path.getsize(path),
                 format_columns.ListColumn(manifest['left_out'])))
