"""openstack overcloud credentials

What the work dir knows about a deployment, read without Heat.
"""

import os

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import credentials


class ShowCredentials(base.DeploymentCommand, command.ShowOne):
    """Write the overcloud's rc file and clouds.yaml entry again.

    <work-dir>/<stack>rc (overcloudrc for the default stack) and the
    <stack> cloud of <work-dir>/clouds.yaml, from the outputs the last
    deploy saved; --directory writes a copy of the rc file there too.
    """

    work_dir_options = options.WorkDirOptions(positional_stack=True)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
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
        workdir = self.workdir(parsed_args, existing=True)
        with errors.user_errors('--directory'):
            outputs = workdir.saved_outputs()
            rc, clouds = credentials.write(
                workdir.stack, outputs, workdir.rc_file, workdir.clouds_file,
                no_proxy=parsed_args.no_proxy)
            files = [rc]
            if parsed_args.directory:
                fileutil.make_private_dirs(parsed_args.directory)
                files.append(credentials.write(
                    workdir.stack, outputs,
                    os.path.join(parsed_args.directory,
                                 os.path.basename(rc)),
                    clouds, no_proxy=parsed_args.no_proxy)[0])
        entry = credentials.clouds_entry(outputs)
        columns = ('stack', 'rc_files', 'clouds_yaml', 'cloud', 'auth_url',
                   'region')
        return columns, (workdir.stack, format_columns.ListColumn(files),
                         clouds,
                         workdir.stack, entry['auth']['auth_url'],
                         entry['region_name'])
