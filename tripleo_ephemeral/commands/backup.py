"""openstack tripleo backup create / restore"""

import os

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.deploy import backup

DEFAULT_WORK_DIR = os.path.join('~', 'overcloud-deploy', 'overcloud')


class CreateBackup(command.ShowOne):
    """Write one archive of a deployment's work dir, with checksums"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--work-dir', metavar='<work-dir>', type=options.heat_dir_path,
            default=options.heat_dir_path(DEFAULT_WORK_DIR),
            help=_('Work dir to back up (default: %s)') % DEFAULT_WORK_DIR)
        parser.add_argument(
            '--output', metavar='<file>', type=options.heat_dir_path,
            help=_('Archive to write (default: '
                   './<work-dir name>-backup-<UTC time>.tar.gz)'))
        return parser

    def take_action(self, parsed_args):
        with errors.user_errors('--work-dir'):
            path, manifest = backup.create(parsed_args.work_dir,
                                           parsed_args.output)
        return (('backup', 'work_dir', 'files', 'bytes'),
                (path, parsed_args.work_dir, len(manifest['files']),
                 os.path.getsize(path)))


class RestoreBackup(command.ShowOne):
    """Restore a backup into a new work dir, after verifying it"""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('archive', metavar='<archive>',
                            type=options.heat_dir_path,
                            help=_('Backup written by "tripleo backup '
                                   'create"'))
        parser.add_argument(
            '--work-dir', metavar='<work-dir>', type=options.heat_dir_path,
            required=True,
            help=_('New (or empty) work dir to restore into'))
        return parser

    def take_action(self, parsed_args):
        with errors.user_errors('--work-dir'):
            manifest = backup.restore(parsed_args.archive,
                                      parsed_args.work_dir)
        self.log.info(_('Restored; bring its Heat back with "openstack '
                        'tripleo launch heat --heat-dir %s --restore-db"'),
                      os.path.join(parsed_args.work_dir, 'heat-launcher'))
        return (('work_dir', 'files', 'created'),
                (parsed_args.work_dir, len(manifest['files']),
                 manifest['created']))
