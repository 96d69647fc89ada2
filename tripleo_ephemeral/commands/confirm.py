"""Asking before a command changes the servers.

Every command that changes the servers asks first (a deploy that runs
Ansible, the update and upgrade runs, ``node delete``, ``admin
authorize``, ``tripleo deploy`` of this machine; ``overcloud delete``,
which removes the deployment), and no other one does (a prepare, a
``--stack-only`` deploy: they accept ``-y`` and ask nothing). ``-y/--yes``
skips the question. Without a terminal to ask on, the command refuses in
one line instead of guessing.
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
DEPLOY_PROMPT = _('You are about to run Ansible on the servers of stack '
                  '%(stack)s (%(hosts)s). Are you sure you want to deploy '
                  '[y/N]?')
AUTHORIZE_PROMPT = _('You are about to create the tripleo-admin user on the '
                     'servers of stack %(stack)s (%(hosts)s). Are you sure '
                     '[y/N]?')
STANDALONE_PROMPT = _('You are about to deploy %(stack)s onto this machine '
                      '(%(hosts)s). Are you sure you want to deploy [y/N]?')


def hosts(limit):
    """How a prompt names the hosts of a ``--limit``."""
    return _('--limit %s') % limit if limit else _('every host')


def add_yes_option(parser, asks=True):
    """``-y/--yes``; ``asks``: whether the command may ask at all (else
    the option is tripleoclient's, accepted)."""
    parser.add_argument(
        '-y', '--yes', action='store_true',
        help=_('Skip the confirmation question asked before the servers '
               'are changed') if asks else
        _('Accepted for compatibility: nothing is asked'))


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
