"""The Ansible options the commands share, declared once.

``--overcloud-ssh-user``, ``--overcloud-ssh-key``, ``--limit``,
``--tags``, ``--skip-tags`` and ``--ansible-forks``, one help text each
(a command adds only what its default is), declared by a command as its
:class:`AnsibleArguments` and read once into a frozen
:class:`~tripleo_ephemeral.ansible.run.AnsibleOptions`; and the values of
tripleoclient's syntax they take (a ``--limit`` of hosts separated by
commas, ``--extra-vars``).
"""

import argparse
from collections.abc import Iterable
import dataclasses
import re
from typing import Any
from typing import TYPE_CHECKING

from osc_lib.cli import parseractions
import yaml

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import options
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

if TYPE_CHECKING:  # the library is imported where it is used
    from tripleo_ephemeral.ansible import run as ansible_run

#: The help of each Ansible option; a command adds only its default.
_SSH_USER_HELP = _('User to log in as on the servers (default: %s)')
_SSH_KEY_HELP = _('Private key for the servers (default: %s)')
#: Skipped by the deploy unless --inflight-validations (tripleoclient's).
INFLIGHT_VALIDATION_TAG = 'opendev-validation'
_LIMIT_HELP = _('Hosts or groups to run on, separated by commas, spaces or '
                'colons, e.g. Compute or "ctrl-0,cmp-0"')


@dataclasses.dataclass(frozen=True)
class AnsibleArguments:
    """The Ansible options one command takes: :meth:`add` declares them,
    :meth:`read` reads those it declared (a misspelt name fails, never
    reads as None). ``--overcloud-ssh-user`` and ``--overcloud-ssh-key``
    unless not ``ssh``; ``--limit`` (into ``limit_dest``: ``overcloud
    admin authorize`` keeps tripleoclient's), ``--tags``/``--skip-tags``
    and ``--ansible-forks`` when asked for."""

    ssh: bool = True
    limit: bool = False
    limit_required: bool = False
    limit_dest: str = 'limit'
    tags: bool = False
    forks: bool = False

    def add(self, parser: argparse.ArgumentParser,
            group: argparse._ArgumentGroup | None = None,
            ssh_user_default: str | None = None,
            ssh_key_default: str | None = None) -> argparse._ArgumentGroup:
        """Add the options to ``group`` (else to an "Ansible" group of
        their own; returned); ``*_default`` says what the SSH options'
        default is."""
        if group is None:
            group = parser.add_argument_group(_('Ansible'))
        if self.ssh:
            group.add_argument(
                '--overcloud-ssh-user', metavar='<user>', default=None,
                type=options.name,
                help=_SSH_USER_HELP % (ssh_user_default or _(
                    'the inventory\'s, i.e. what the last deploy used')))
            group.add_argument(
                '--overcloud-ssh-key', metavar='<key-file>',
                type=options.abs_path,
                help=_SSH_KEY_HELP % (ssh_key_default or
                                      _('the last deploy\'s')))
        if self.limit:
            group.add_argument(
                '--limit', metavar='<hosts>', dest=self.limit_dest,
                required=self.limit_required,
                help=_LIMIT_HELP if self.limit_required else
                _('%s (default: all)') % _LIMIT_HELP)
        if self.tags:
            group.add_argument('--tags', metavar='<tags>',
                               help=_('Run only tasks with these tags'))
            group.add_argument('--skip-tags', metavar='<tags>',
                               help=_('Skip tasks with these tags'))
        if self.forks:
            group.add_argument(
                '--ansible-forks', metavar='<n>', type=int,
                action=parseractions.NonNegativeAction,
                help=_('Parallel Ansible processes'))
        return group

    def read(self, parsed_args: argparse.Namespace, ssh_user: bool = True,
             **values: Any) -> 'ansible_run.AnsibleOptions':
        """The :class:`~tripleo_ephemeral.ansible.run.AnsibleOptions` of
        the options, with ``values`` (timeout, extravars...) over them.
        Without ``ssh_user`` the user is left to the inventory (the command
        passes it in ``extravars``)."""
        given = vars(parsed_args)
        read = {}
        if self.ssh:
            read['ssh_key'] = given['overcloud_ssh_key']
            if ssh_user:
                read['ssh_user'] = given['overcloud_ssh_user']
        if self.limit:
            read['limit'] = parse_limit(given[self.limit_dest])
        if self.tags:
            read.update(tags=given['tags'], skip_tags=given['skip_tags'])
        if self.forks:
            read['forks'] = given['ansible_forks']
        read.update(values)
        from tripleo_ephemeral.ansible import run as ansible_run

        return ansible_run.AnsibleOptions(**read)


def parse_limit(value: str) -> str:
    """tripleoclient's limit: commas, spaces and colons all separate hosts;
    the result is Ansible's ``a:b`` form (None or '' unchanged)."""
    if not value:
        return value
    return ':'.join(part.strip() for part in re.split(r'[, :]', value)
                    if part.strip())


def skip_tags(skip: str | None,
              inflight_validations: bool = False) -> str | None:
    """The deploy's skip tags: opendev-validation first unless inflight
    validations are on."""
    if inflight_validations:
        return skip or None
    return ','.join([INFLIGHT_VALIDATION_TAG] + ([skip] if skip else []))


def parse_extra_vars(items: Iterable[str] | None) -> dict[str, Any]:
    """``-e/--extra-vars`` values (``key=value``, YAML or JSON) merged."""
    merged: dict[str, Any] = {}
    for item in items or ():
        try:
            data = yamlfile.loads(item, strict=True)
        except yamlfile.DuplicateKeyError as exc:
            raise exceptions.InputFileError(
                'Extra vars %r give the key %s twice: keep one in '
                '--extra-vars' % (item, exc.key))
        except yaml.YAMLError:
            data = None
        if not isinstance(data, dict):
            if '=' not in item:
                raise exceptions.InputFileError(
                    'Extra vars %r are neither key=value nor a YAML/JSON '
                    'mapping: fix --extra-vars' % item)
            key, value = item.split('=', 1)
            data = {key.strip(): value}
        merged.update(data)
    return merged


def ssh_extravars(ssh_user: str | None = None,
                  ssh_key: str | None = None) -> dict[str, Any]:
    """Extra vars that override the rendered inventory's SSH user and the
    last deploy's key for one run."""
    extra: dict[str, Any] = {}
    if ssh_user:
        extra['ansible_user'] = extra['ansible_ssh_user'] = ssh_user
    if ssh_key:
        extra['ansible_ssh_private_key_file'] = ssh_key
    return extra
