"""openstack overcloud status"""

import argparse

from osc_lib.command import command
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import base
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import output
from tripleo_ephemeral.history import hooks as history
from tripleo_ephemeral import locking
from tripleo_ephemeral import workdir as workdir_mod


#: The columns a table summarises without --long, and to how wide; with
#: those it shows, it reads in 100 columns.
SUMMARISED = {'Applied Version': 20, 'Undeployed Changes': 40}
#: The columns only --long (or -f json/yaml...) shows.
LONG_ONLY = ('Config Version', 'Undeployed Since', 'Hand Edits')


class ShowStatus(base.DeploymentCommand, command.Lister):
    """Show how the last deploy of a stack ended (its status file;
    DEPLOY_INTERRUPTED when the command that was deploying was killed), and
    whether config-download holds changes no Ansible run applied yet."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--plan', dest='stack', metavar='<stack>', type=options.name,
            default=argparse.SUPPRESS,
            help=_('Same as --stack (tripleoclient\'s name)'))
        output.add_long_option(parser, _('Undeployed Changes'))
        return parser

    def take_action(self, parsed_args):
        self.log.debug('take_action(%s)', parsed_args)
        workdir = self.workdir(parsed_args, existing=True)
        status = workdir.status()
        if not status:
            raise osc_exceptions.CommandError(
                _('No deployment was found for %(stack)s: %(file)s is '
                  'missing; deploy it first') % {'stack': workdir.stack,
                                                 'file': workdir.status_file})
        if status == workdir_mod.DEPLOYING and \
                locking.holder(workdir.path) == {}:
            # Its command holds the work dir while it runs: it was killed.
            status = workdir_mod.DEPLOY_INTERRUPTED
        columns, values = history.status_values(workdir)
        long = output.whole(parsed_args)
        row = dict(zip(columns, values))
        for column, width in SUMMARISED.items():
            row[column] = output.summarised(row[column], long, width)
        shown = columns if long else tuple(
            c for c in columns if c not in LONG_ONLY)
        return (('Stack Name', 'Deployment Status') + shown,
                [(workdir.stack, status) + tuple(row[c] for c in shown)])
