"""openstack tripleo backup create"""

import os

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.archives import backup


class CreateBackup(base.DeploymentCommand, command.ShowOne):
    """Write one archive of a deployment's work dir, with checksums"""

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
        work_dir = self.work_dir(parsed_args).path
        with errors.user_errors('--work-dir'):
            path, manifest = backup.create(work_dir, parsed_args.output)
        return (('backup', 'work_dir', 'files', 'bytes'),
                (path, work_dir, len(manifest['files']),
                 os.path.getsize(path)))
