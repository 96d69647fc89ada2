"""openstack tripleo backup restore"""

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.archives import backup


class RestoreBackup(base.DeploymentCommand, command.ShowOne):
    """Restore a backup into a new work dir, after verifying it"""

    work_dir_options = options.WorkDirOptions(
        stack=False, required=True,
        work_dir_help=_('New (or empty) work dir to restore into'))

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('archive', metavar='<archive>',
                            type=options.abs_path,
                            help=_('Backup written by "tripleo backup '
                                   'create"'))
        return parser

    def take_action(self, parsed_args):
        with errors.user_errors('--work-dir'):
            manifest = backup.restore(parsed_args.archive,
                                      parsed_args.work_dir)
        self.log.info(_('Restored; bring its Heat back with "openstack '
                        'tripleo launch heat --work-dir %s --restore-db"'),
                      parsed_args.work_dir)
        return (('work_dir', 'files', 'created'),
                (parsed_args.work_dir, len(manifest['files']),
                 manifest['created']))
