"""openstack tripleo templates install"""

import logging

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral import process
from tripleo_ephemeral import tht

LOG = logging.getLogger(__name__)


class InstallTemplates(base.LocalCommand, command.ShowOne):
    """Install tripleo-heat-templates from PyPI for --templates to find"""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--version', metavar='<version>', default=tht.VERSION,
            dest='tht_version',
            help=_('tripleo-heat-templates release (default: %s)') %
            tht.VERSION)
        parser.add_argument(
            '--dest', metavar='<dir>', type=options.abs_path,
            help=_('Where to put them (default: %s, where "overcloud '
                   'deploy --templates" looks after %s)') % (
                       tht.prefix_dir(), tht.SYSTEM_DIR))
        parser.add_argument(
            '--force', action='store_true',
            help=_('Install again even when that release is there'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        with errors.user_errors('--dest'):
            path, installed = tht.install(
                process.ProcessRunner(), version=parsed_args.tht_version,
                dest=parsed_args.dest, force=parsed_args.force)
        return (('templates', 'version', 'installed'),
                (path, tht.installed_version(path), installed))
