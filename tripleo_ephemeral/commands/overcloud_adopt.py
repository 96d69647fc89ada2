"""openstack overcloud adopt"""

import logging

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import interrupts
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import podman as podman_cli
from tripleo_ephemeral import process
from tripleo_ephemeral import progress

LOG = logging.getLogger(__name__)

#: The flags that fix library errors (the library names the input).
_FIXES = {exceptions.DeploymentExistsError:
          _('pass --overwrite to replace it')}
#: What it shows of the :class:`~tripleo_ephemeral.adoption.adopt.Adopted`.
COLUMNS = ('stack', 'stack_id', 'stack_status', 'source', 'work_dir',
           'passwords', 'parameters', 'servers', 'outputs', 'deployments',
           'hidden_recovered', 'outputs_check', 'config_download', 'dump',
           'seconds', 'next_deploy')


class AdoptOvercloud(base.DeploymentCommand, command.ShowOne):
    """Adopt a stack of an installed Heat, or of a dump of its database.

    Writes the work dir ephemeral deploys continue from: the passwords, the
    stack's merged environment (usable with -e), its servers, roles and
    networks data, outputs, config-download and a Heat database dump.
    Nothing on the source is changed. The result ends with the deploy
    command to run next.
    """

    work_dir_options = options.WorkDirOptions(title=_('Stack'))

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        group = self.work_dir_group
        group.add_argument(
            '--heat-db-dump', metavar='<file>', type=options.abs_path,
            help=_('Adopt from this dump of the heat database instead of an '
                   'installed Heat: a mysqldump (of heat alone or of all '
                   'databases, as "openstack undercloud backup --db-only" '
                   'writes; plain, gzip, bzip2 or in a tar), a SQLite file, '
                   'or a heat-db-dump.sql.gz of this project'))
        group.add_argument(
            '--heat-db-auth-encryption-key', metavar='<file>',
            type=options.abs_path,
            help=_('File holding the auth_encryption_key of the Heat that '
                   'wrote the dump, so the secrets it encrypted stay '
                   'readable (default: an auth_encryption_key file beside '
                   'the dump, else a new key)'))
        group.add_argument(
            '--overwrite', action='store_true',
            help=_('Replace a deployment the work dir already holds'))
        types = heat_launcher.heat_types()
        options.add_heat_launcher_options(
            parser, types=types, type_help=_(
                '"installed" adopts the stack of the Heat OS_CLOUD, '
                'clouds.yaml or the OS_* variables name (re-created once on '
                'native Heat for the dump); with --heat-db-dump, how to run '
                'the Heat that reads it: %s (default: native)') % ', '.join(
                    heat_launcher.heat_types(ephemeral_only=True)))
        options.add_container_options(parser)
        return parser

    def take_action(self, parsed_args):
        from tripleo_ephemeral.tripleoclient_adoption import adopt
        from tripleo_ephemeral.heat_launcher import scratch_mariadb

        self.log.debug('take_action(%s)', parsed_args)
        installed = parsed_args.heat_type == 'installed'
        if installed == bool(parsed_args.heat_db_dump):
            raise osc_exceptions.CommandError(_(
                'Name exactly one source: --heat-type installed (the Heat '
                'of OS_CLOUD) or --heat-db-dump <file>'))
        workdir = self.workdir(parsed_args)
        spec = options.launcher_spec(parsed_args)
        say = progress.channel(self.app.stderr)
        adoption = adopt.Adoption(parsed_args.stack, workdir.path,
                                  overwrite=parsed_args.overwrite,
                                  out=self.app.stderr)
        with errors.user_errors('--work-dir', fixes=_FIXES), \
                interrupts.stop_in_order(_('the adoption'), say):
            if installed:
                # The stack is re-created once on native Heat, for the dump.
                adopted = adoption.from_installed(
                    heat_launcher.get_launcher('installed', workdir.heat_dir),
                    options.build_launcher(spec.replace(heat_type='native'),
                                           workdir.heat_dir, say=say))
            else:
                runner = process.ProcessRunner()
                reader = scratch_mariadb.ScratchMariadb(
                    podman_cli.Podman(runner), spec.images, workdir.path,
                    pull=spec.pull)
                adopted = adoption.from_dump(
                    parsed_args.heat_db_dump,
                    options.build_launcher(spec, workdir.heat_dir, say=say),
                    runner, mysql_reader=reader,
                    key_file=parsed_args.heat_db_auth_encryption_key)
        return output.item_row(adopted, COLUMNS)
