"""openstack overcloud credentials | export | status

What the work dir knows about a deployment, read without Heat.
"""

import argparse
import logging
import os

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.deploy import lifecycle
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral.overcloud import all_nodes
from tripleo_ephemeral.overcloud import credentials
from tripleo_ephemeral.overcloud import export
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)


def work_dir(parsed_args):
    """The work dir the options name, which must hold a deployment."""
    wd = options.work_dir(parsed_args)
    if not os.path.isdir(wd.path):
        raise osc_exceptions.CommandError(
            _('No deployment was found for %(stack)s in %(dir)s: deploy it '
              'first, or check --stack/--work-dir') % {
                  'stack': wd.stack, 'dir': wd.path})
    return wd


class ShowCredentials(command.ShowOne):
    """Write the overcloud's rc file and clouds.yaml entry again.

    <work-dir>/<stack>rc (overcloudrc for the default stack) and the
    <stack> cloud of <work-dir>/clouds.yaml, from the outputs the last
    deploy saved; --directory writes a copy of the rc file there too.
    """

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        options.add_work_dir_options(parser, positional_stack=True)
        parser.add_argument(
            '--directory', metavar='<dir>', type=options.abs_path,
            nargs='?', const='.',
            help=_('Also write <stack>rc into this directory (without a '
                   'value, as tripleoclient: the current one)'))
        parser.add_argument(
            '--no-proxy', metavar='<hosts>', default='',
            help=_('Comma-separated hosts to add to no_proxy'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        wd = work_dir(parsed_args)
        with errors.user_errors('--directory'):
            outputs = lifecycle.saved_outputs(wd)
            rc, clouds = credentials.write(
                wd.stack, outputs, wd.rc_file, wd.clouds_file,
                no_proxy=parsed_args.no_proxy)
            files = [rc]
            if parsed_args.directory:
                os.makedirs(parsed_args.directory, exist_ok=True)
                files.append(credentials.write(
                    wd.stack, outputs,
                    os.path.join(parsed_args.directory,
                                 os.path.basename(rc)),
                    clouds, no_proxy=parsed_args.no_proxy)[0])
        entry = credentials.clouds_entry(outputs)
        columns = ('stack', 'rc_files', 'clouds_yaml', 'cloud', 'auth_url',
                   'region')
        return columns, (wd.stack, files, clouds, wd.stack,
                         entry['auth']['auth_url'], entry['region_name'])


class ExportOvercloud(command.Command):
    """Export what another stack needs of this one (DCN sites, cells).

    Writes <work-dir>/<stack>-export.yaml: the passwords (not those
    matching ceph.* unless --no-password-excludes), the endpoint map,
    hosts entries, global config and all-nodes data of the stack; pass it
    with -e to the deploy of the other stack.
    """

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        options.add_work_dir_options(parser)
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
        wd = work_dir(parsed_args)
        path = parsed_args.output_file or wd.export_file()
        if os.path.exists(path) and not parsed_args.force_overwrite:
            raise osc_exceptions.CommandError(
                _("File '%s' already exists, not exporting; pass "
                  "--force-overwrite to replace it") % path)
        config_dir = (os.path.join(parsed_args.config_download_dir, wd.stack)
                      if parsed_args.config_download_dir
                      else wd.config_download_dir)
        with errors.user_errors('--output-file'):
            data = export.export_data(
                wd.stack, lifecycle.saved_outputs(wd),
                passwords.load(wd.passwords_file), passwords.PASSWORD_NAMES,
                all_nodes_data=all_nodes.load(config_dir),
                excludes=not parsed_args.no_password_excludes)
            yamlfile.write(path, data, mode=0o600)
        self.app.stdout.write('Stack information exported to %s.\n' % path)


class ShowStatus(command.Lister):
    """Show how the last deploy of a stack ended (its status file), and
    whether config-download holds changes no Ansible run applied yet."""

    auth_required = False

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        options.add_work_dir_options(parser)
        parser.add_argument(
            '--plan', dest='stack', metavar='<stack>',
            default=argparse.SUPPRESS,
            help=_('Same as --stack (tripleoclient\'s name)'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        wd = work_dir(parsed_args)
        status = wd.status()
        if not status:
            raise osc_exceptions.CommandError(
                _('No deployment was found for %(stack)s: %(file)s is '
                  'missing; deploy it first') % {'stack': wd.stack,
                                                 'file': wd.status_file})
        columns, values = history.status_values(wd)
        return (('Stack Name', 'Deployment Status') + columns,
                [(wd.stack, status) + values])
