"""Asking before a command changes an overcloud, as tripleoclient did.

``-y/--yes`` skips the question. Without a terminal to ask on, the command
refuses in one line instead of guessing.
"""

import sys

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _

UPDATE_PROMPT = _('You are about to run a UPDATE command. It is strongly '
                  'recommended to perform a backup before the update. Are '
                  'you sure you want to update [y/N]?')
UPGRADE_PROMPT = _('You are about to run a UPGRADE command. It is strongly '
                   'recommended to perform a backup before the upgrade. Are '
                   'you sure you want to upgrade [y/N]?')
NODE_DELETE_PROMPT = _('Are you sure you want to delete these overcloud '
                       'nodes [y/N]? ')
DELETE_PROMPT = _('Are you sure you want to delete this overcloud [y/N]? ')


def add_yes_option(parser):
    parser.add_argument(
        '-y', '--yes', action='store_true',
        help=_('Skip the confirmation question'))


def confirm(parsed_args, prompt, what, stdin=None, stdout=None):
    """Return when the user said yes (or gave -y); else raise the one-line
    CommandError naming ``what`` (e.g. "update prepare"). The question goes
    to stderr: stdout is the command's result."""
    if parsed_args.yes:
        return
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stderr
    if not stdin.isatty():
        raise osc_exceptions.CommandError(
            _('%s not confirmed: stdin is not a terminal; pass -y to '
              'confirm') % what)
    stdout.write(prompt if prompt.endswith(' ') else prompt + ' ')
    stdout.flush()
    try:
        answer = stdin.readline()
    except KeyboardInterrupt:
        answer = ''
    if not answer.strip().lower().startswith('y'):
        raise osc_exceptions.CommandError(
            _('%s not confirmed, exiting; pass -y (--yes) to skip the '
              'question') % what)
