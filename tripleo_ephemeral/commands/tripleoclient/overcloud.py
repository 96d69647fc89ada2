"""tripleoclient 20.0.0's options that this project has no option of its
own for, per command, and the values they turn into.

Each option is declared once (:mod:`.declaration`): with
tripleoclient's meaning where it has one here, a documented no-op where
the ephemeral design makes it one, or refused with one line saying why and
what to do instead. ``tools/compat/tripleoclient_parsers.py`` (and its
test) walks tripleoclient's own parsers and fails on any option no command
here takes. The commands read the options into values with ``read_*``;
nothing is written back into the parsed arguments.
"""

import argparse
from collections.abc import Iterable
import dataclasses
from typing import Any

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands.tripleoclient.declaration import CompatOption
from tripleo_ephemeral.commands.tripleoclient.declaration import NOOP
from tripleo_ephemeral.commands.tripleoclient.declaration import REFUSED
from tripleo_ephemeral.commands.tripleoclient.declaration import VALUE
from tripleo_ephemeral.commands.tripleoclient import declaration
from tripleo_ephemeral.commands import options

TITLE = _('tripleoclient options')
_PROVISION = _('bare-metal provisioning is not done here: provision the '
               'nodes first (e.g. "openstack overcloud node provision" on an '
               'undercloud) and give them with --deployed-servers <servers '
               'file>')

# -- overcloud deploy (and update/upgrade prepare) --------------------------

NTP_SERVER = CompatOption(
    '--ntp-server', kind=VALUE, metavar='<servers>',
    why=_('NTP servers of the overcloud, comma-separated: sets NtpServer '
          '(an environment that sets it wins)'))
LIBVIRT_TYPE = CompatOption(
    '--libvirt-type', kind=VALUE, choices=['kvm', 'qemu'],
    why=_('Libvirt domain type: sets NovaComputeLibvirtType (an environment '
          'that sets it wins)'))
NO_PASSWORDS = CompatOption(
    '--disable-password-generation', kind=VALUE,
    why=_('Generate no passwords: the work dir\'s passwords file, if any, '
          'is used unchanged and your environments give the rest; a '
          'password the templates need that nobody gives stops the deploy '
          'before Heat'))
DRY_RUN = CompatOption(
    '--dry-run', kind=VALUE,
    why=_('Read and check every input (and that Heat could start), then '
          'stop before Heat; the work dir is left as it was'))
SETUP_ONLY = CompatOption(
    '--setup-only', kind=VALUE,
    why=_('Check every input and write what the deploy generates into the '
          'work dir (passwords, deployed-server environment, parameters), '
          'then stop before Heat (tripleoclient\'s SSH setup of the hosts is '
          '"openstack overcloud admin authorize" here)'))
OUTPUT_DIR = CompatOption(
    '--output-dir', kind=VALUE, metavar='<dir>', type=options.abs_path,
    why=_('Also copy the rendered Ansible project to <dir>/<stack> (the work '
          'dir keeps its own, which later commands read)'))
CONFIG_DIR = CompatOption(
    '--config-dir', kind=VALUE, metavar='<dir>', type=options.abs_path,
    why=_('As --output-dir (tripleoclient pushed the configuration there)'))
SSH_NETWORK = CompatOption(
    '--overcloud-ssh-network', kind=VALUE, metavar='<network>',
    why=_('ctlplane only (the default): Ansible reaches each host at the '
          'ctlplane_ip of the servers file'))
ERRORS_NONFATAL = CompatOption(
    '--validation-errors-nonfatal', kind=VALUE,
    why=_('Print the pre-deploy checks that fail and go on (as '
          '--disable-validations)'))
WARNINGS_FATAL = CompatOption(
    '--validation-warnings-fatal', kind=VALUE,
    why=_('Fail on a warning of the input checks, a parameter no template '
          'declares (as --strict)'))

DEPLOY = (
    NTP_SERVER, LIBVIRT_TYPE, NO_PASSWORDS, DRY_RUN, SETUP_ONLY, OUTPUT_DIR,
    CONFIG_DIR, SSH_NETWORK, ERRORS_NONFATAL, WARNINGS_FATAL,
    CompatOption('--deployed-server', kind=NOOP,
                 why=_('every server is already deployed (the servers '
                       'file), as tripleoclient\'s default')),
    CompatOption('--config-download', kind=NOOP,
                 why=_('config-download always renders, as tripleoclient\'s '
                       'default')),
    CompatOption('--no-cleanup', kind=NOOP,
                 why=_('nothing is cleaned up: the rendered templates and '
                       'generated files stay in the work dir')),
    CompatOption('--rm-heat', kind=NOOP,
                 why=_('every deploy launches a fresh Heat and removes it '
                       'after')),
    CompatOption('--overcloud-ssh-enable-timeout', kind=NOOP, type=int,
                 metavar='<seconds>',
                 why=_('as in tripleoclient 20, which no longer used it')),
    CompatOption('--overcloud-ssh-port-timeout', kind=NOOP, type=int,
                 metavar='<seconds>',
                 why=_('the deploy waits for no SSH port; Ansible\'s own '
                       'connection timeout applies')),
    CompatOption('--disable-protected-resource-types', kind=NOOP,
                 why=_('no resource type is protected from your '
                       'environments here')),
    CompatOption('--allow-deprecated-network-data', kind=NOOP,
                 why=_('networks data must be v2 with or without it')),
    CompatOption('--config-type', kind=NOOP, metavar='<type>',
                 why=_('every type of config is rendered')),
    CompatOption('--no-preserve-config', kind=NOOP,
                 why=_('the Ansible project is rendered afresh every time')),
    CompatOption('--skip-postconfig', kind=NOOP,
                 why=_('the client runs no post-deployment configuration; '
                       'config-download configures the overcloud')),
    CompatOption('--force-postconfig', kind=NOOP,
                 why=_('the client runs no post-deployment configuration; '
                       'config-download configures the overcloud')),
    CompatOption('--provision-nodes', kind=REFUSED,
                 why=_('Heat provisions no servers: provision them first '
                       'and give them with --deployed-servers')),
    CompatOption('-b', '--baremetal-deployment', kind=REFUSED, nargs='?',
                 const=True, metavar='<baremetal_deployment.yaml>',
                 dest='baremetal_deployment', why=_PROVISION),
    CompatOption('--network-config', kind=REFUSED, why=_PROVISION),
    CompatOption('--update-plan-only', kind=REFUSED,
                 why=_('there is no plan: every deploy creates the stack '
                       'from the templates; check the inputs with --dry-run')),
    CompatOption('--run-validations', kind=REFUSED,
                 why=_('tripleo-validations is not part of this project: run '
                       'its playbooks against <work-dir>/config-download/'
                       '<stack>/tripleo-ansible-inventory.yaml')),
)


@dataclasses.dataclass(frozen=True)
class DeployValues:
    """What the tripleoclient options of a deploy turn into."""

    #: parameter_defaults the deploy generates (the user's environments win)
    parameters: tuple[tuple[str, Any], ...] = ()
    generate_passwords: bool = True
    #: None, or where to stop before Heat: 'dry-run' or 'setup-only'
    stop: str | None = None
    #: directories the rendered Ansible project is copied into
    config_copies: tuple[str, ...] = ()
    checks_fatal: bool = True
    warnings_fatal: bool = False


def add_deploy_options(
        parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    return declaration.add_options(parser, TITLE, DEPLOY)


def read_deploy(parsed_args: argparse.Namespace,
                config_download_only: bool = False) -> DeployValues:
    """The :class:`DeployValues` of a deploy's parsed arguments; a refused
    option or combination is a CommandError."""
    declaration.check_refused(parsed_args, DEPLOY)
    check_ssh_network(parsed_args)
    stops = [o for o in (DRY_RUN, SETUP_ONLY) if o.given(parsed_args)]
    if len(stops) > 1 or (stops and config_download_only):
        raise osc_exceptions.CommandError(
            _('%s stop at different points: give one of them') % ', '.join(
                [o.strings[0] for o in stops] + (
                    ['--config-download-only'] if config_download_only
                    else [])))
    parameters = tuple(
        (name, declaration.value(parsed_args, option))
        for name, option in (('NtpServer', NTP_SERVER),
                             ('NovaComputeLibvirtType', LIBVIRT_TYPE))
        if option.given(parsed_args))
    return DeployValues(
        parameters=parameters,
        generate_passwords=not NO_PASSWORDS.given(parsed_args),
        stop=stops[0].strings[0][2:] if stops else None,
        config_copies=tuple(declaration.value(parsed_args, o)
                            for o in (OUTPUT_DIR, CONFIG_DIR)
                            if o.given(parsed_args)),
        checks_fatal=not ERRORS_NONFATAL.given(parsed_args),
        warnings_fatal=WARNINGS_FATAL.given(parsed_args))


def check_ssh_network(parsed_args: argparse.Namespace) -> None:
    """``--overcloud-ssh-network`` may only say ctlplane."""
    network = declaration.value(parsed_args, SSH_NETWORK, 'ctlplane')
    if network != 'ctlplane':
        raise osc_exceptions.CommandError(
            _('--overcloud-ssh-network %s: Ansible reaches the hosts on '
              'ctlplane here; give each host\'s address on %s as its '
              'ctlplane_ip in the servers file') % (network, network))


# -- overcloud admin authorize ----------------------------------------------

STATIC_INVENTORY = CompatOption(
    '--static-inventory', kind=NOOP, metavar='<inventory>',
    why=_('the rendered inventory of the work dir is used'))

ADMIN = (
    SSH_NETWORK,
    CompatOption('--overcloud-ssh-enable-timeout', kind=NOOP, type=int,
                 metavar='<seconds>',
                 why=_('as in tripleoclient 20, which no longer used it')),
    STATIC_INVENTORY,
)


# -- overcloud update|upgrade|external-update|external-upgrade run ----------

#: What tripleoclient deprecated in its run commands: accepted, a warning
#: when given (:func:`.declaration.warn_ignored`).
RUN = (
    CompatOption('--ssh-user', kind=NOOP, metavar='<user>',
                 why=_('use --overcloud-ssh-user')),
    STATIC_INVENTORY,
)
EXTERNAL_UPDATE_RUN = RUN + (
    CompatOption('--refresh', kind=NOOP,
                 why=_('"openstack overcloud update prepare" renders the '
                       'playbooks again')),
)


# -- overcloud node delete, overcloud delete --------------------------------

NODE_DELETE = (
    CompatOption('-b', '--baremetal-deployment', kind=REFUSED,
                 metavar='<baremetal_deployment.yaml>',
                 dest='baremetal_deployment',
                 why=_('name the hosts to delete instead: "openstack '
                       'overcloud node delete <host>..."; unprovision them '
                       'with the tool that provisioned them')),
    CompatOption('--overcloud-ssh-port-timeout', kind=NOOP, type=int,
                 metavar='<seconds>',
                 why=_('Ansible\'s own connection timeout applies')),
)

DELETE = (
    CompatOption('-b', '--baremetal-deployment', kind=REFUSED,
                 metavar='<baremetal_deployment.yaml>',
                 dest='baremetal_deployment',
                 why=_('this project provisions no nodes: unprovision them '
                       'with the tool that provisioned them (e.g. "openstack '
                       'overcloud node unprovision" on an undercloud)')),
    CompatOption('--networks-file', kind=REFUSED, metavar='<file>',
                 why=_('this project provisions no networks: unprovision '
                       'them with the tool that provisioned them')),
)


def add_options(parser: argparse.ArgumentParser,
                declared: Iterable[CompatOption]) -> argparse._ArgumentGroup:
    return declaration.add_options(parser, TITLE, declared)


def check(parsed_args: argparse.Namespace,
          declared: Iterable[CompatOption]) -> None:
    """Refuse what ``declared`` refuses (commands with no values)."""
    declaration.check_refused(parsed_args, declared)
