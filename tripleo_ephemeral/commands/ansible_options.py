"""The Ansible options the commands share, declared once.

``--overcloud-ssh-user``, ``--overcloud-ssh-key``, ``--limit``,
``--tags``, ``--skip-tags`` and ``--ansible-forks``, one help text each
(a command adds only what its default is), read once into a frozen
:class:`~tripleo_ephemeral.ansible.run.AnsibleOptions`.
"""

from osc_lib.cli import parseractions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.lifecycle import run as lifecycle

#: The help of each Ansible option; a command adds only its default.
_SSH_USER_HELP = _('User to log in as on the servers (default: %s)')
_SSH_KEY_HELP = _('Private key for the servers (default: %s)')
_LIMIT_HELP = _('Hosts or groups to run on, separated by commas, spaces or '
                'colons, e.g. Compute or "ctrl-0,cmp-0"')


def add_options(parser, group=None, ssh=True, ssh_user_default=None,
                ssh_key_default=None, limit=False, limit_required=False,
                limit_dest='limit', tags=False, forks=False):
    """The Ansible options a command takes, added to ``group`` (else to an
    "Ansible" group of their own): ``--overcloud-ssh-user`` and
    ``--overcloud-ssh-key`` unless not ``ssh`` (``*_default`` says what
    their default is); ``--limit`` (into ``limit_dest``: ``overcloud admin
    authorize`` keeps tripleoclient's), ``--tags``/``--skip-tags`` and
    ``--ansible-forks`` when asked for. :func:`read` reads them.
    """
    if group is None:
        group = parser.add_argument_group(_('Ansible'))
    if ssh:
        group.add_argument(
            '--overcloud-ssh-user', metavar='<user>', default=None,
            help=_SSH_USER_HELP % (ssh_user_default or _(
                'the inventory\'s, i.e. what the last deploy used')))
        group.add_argument(
            '--overcloud-ssh-key', metavar='<key-file>',
            type=options.abs_path,
            help=_SSH_KEY_HELP % (ssh_key_default or
                                  _('the last deploy\'s')))
    if limit:
        group.add_argument(
            '--limit', metavar='<hosts>', dest=limit_dest,
            required=limit_required,
            help=_LIMIT_HELP if limit_required else
            _('%s (default: all)') % _LIMIT_HELP)
    if tags:
        group.add_argument('--tags', metavar='<tags>',
                           help=_('Run only tasks with these tags'))
        group.add_argument('--skip-tags', metavar='<tags>',
                           help=_('Skip tasks with these tags'))
    if forks:
        group.add_argument(
            '--ansible-forks', metavar='<n>', type=int,
            action=parseractions.NonNegativeAction,
            help=_('Parallel Ansible processes'))
    return group


def read(parsed_args, limit_dest='limit', ssh_user=True, **values):
    """The :class:`~tripleo_ephemeral.ansible.run.AnsibleOptions` of
    :func:`add_options`' options (those the command took), with
    ``values`` (timeout, extravars...) over them. Without ``ssh_user``
    the user is left to the inventory (the command passes it in
    ``extravars``)."""
    read = {
        'ssh_key': getattr(parsed_args, 'overcloud_ssh_key', None),
        'limit': lifecycle.parse_limit(getattr(parsed_args, limit_dest,
                                               None)),
        'tags': getattr(parsed_args, 'tags', None),
        'skip_tags': getattr(parsed_args, 'skip_tags', None),
        'forks': getattr(parsed_args, 'ansible_forks', None),
    }
    if ssh_user:
        read['ssh_user'] = getattr(parsed_args, 'overcloud_ssh_user', None)
    read.update(values)
    return ansible_run.AnsibleOptions(**read)
