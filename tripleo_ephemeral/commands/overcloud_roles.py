"""openstack overcloud roles generate"""

import logging
import os

from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral import tht

LOG = logging.getLogger(__name__)


class GenerateRoles(base.LocalCommand, command.Command):
    """Combine role files of tripleo-heat-templates into a roles data file"""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--roles-path', metavar='<roles-dir>', type=options.abs_path,
            help=_('Directory of the role files (default: roles/ of the '
                   'installed tripleo-heat-templates, %s)') %
            ' or '.join(tht.candidates()))
        parser.add_argument(
            '-o', '--output-file', metavar='<file>', type=options.abs_path,
            help=_('Write the roles data here (default: standard output)'))
        parser.add_argument(
            '--skip-validate', action='store_false', dest='validate',
            help=_('Do not check the combined roles'))
        parser.add_argument(
            'roles', nargs='+', metavar='<role>[:<new-name>]',
            help=_('Roles in order, e.g. Controller Compute '
                   'Compute:ComputeA (a copy of Compute named ComputeA); '
                   'the primary role is the one tagged primary, else the '
                   'first'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        with errors.user_errors('--output-file'):
            roles_path = parsed_args.roles_path or os.path.join(
                tht.find(), 'roles')
            text = roles.generate(os.path.realpath(roles_path),
                                  parsed_args.roles,
                                  validate=parsed_args.validate)
            if parsed_args.output_file:
                yamlfile.write_text(parsed_args.output_file, text,
                                    mode=0o644)
            else:
                self.app.stdout.write(text)
