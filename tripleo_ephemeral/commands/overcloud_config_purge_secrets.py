"""openstack overcloud config history purge-secrets"""

from osc_lib.cli import format_columns
from osc_lib.command import command

from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import errors
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral import locking

COLUMNS = ('config_download', 'versions', 'files_masked', 'notes_masked',
           'secret_texts_found', 'secret_texts_left', 'objects_before',
           'objects_after', 'head_before', 'head_after', 'damaged_copies')


class PurgeConfigSecrets(base.DeploymentCommand, command.ShowOne):
    """Remove every secret from the config-download history.

    For a history written before secrets were kept out of git: every
    version is written again with its passwords, keys and hidden
    parameter values replaced by placeholders, in its files, messages
    and parameter notes, the tags and the applied version following;
    the old objects and reflogs are dropped, then every object left is
    searched for the secrets (secret_texts_left: 0). The files of
    config-download are not touched. Versions get new ids.
    """

    work_dir_options = options.WorkDirOptions(positional_stack=True)

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        workdir = self.workdir(parsed_args, existing=True)
        with errors.user_errors('--work-dir'):
            options.config_history(workdir)
            with locking.DirLock(workdir.path):
                done = history.purge_secrets(workdir)
        if done.damaged_copies:
            self.app.stderr.write(
                'Histories set aside as damaged keep their secrets: %s; '
                'delete them when done with them\n' % ', '.join(
                    done.damaged_copies))
        return output.item_row(done, COLUMNS, {
            'damaged_copies': format_columns.ListColumn})
