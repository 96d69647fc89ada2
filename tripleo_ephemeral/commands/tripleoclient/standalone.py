"""tripleoclient 20.0.0's options of ``tripleo deploy`` and ``tripleo launch
heat`` that this project has no option of its own for, and their values.

Declared as :mod:`.overcloud` declares the overcloud ones.
"""

import argparse
import dataclasses

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands.tripleoclient.declaration import CompatOption
from tripleo_ephemeral.commands.tripleoclient.declaration import NOOP
from tripleo_ephemeral.commands.tripleoclient.declaration import REFUSED
from tripleo_ephemeral.commands.tripleoclient.declaration import VALUE
from tripleo_ephemeral.commands.tripleoclient import declaration
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands.tripleoclient import overcloud
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

_HEAT_USER = CompatOption(
    '--heat-user', kind=NOOP, metavar='<user>',
    why=_('Heat runs as the user who runs the command'))

# -- tripleo deploy -----------------------------------------------------------

PYTHON = CompatOption(
    '--deployment-python-interpreter', kind=VALUE, metavar='<path>',
    why=_('Python interpreter on the host (ansible_python_interpreter of the '
          'inventory)'))
INFLIGHT = CompatOption(
    '--inflight-validations', kind=VALUE,
    why=_('Run the tasks tagged opendev-validation (skipped by default)'))
HEAT_NATIVE = CompatOption(
    '--heat-native', kind=VALUE, nargs='?', const='true',
    metavar='<true|false>',
    why=_('Without --heat-type: true (the default) runs Heat natively '
          '(--heat-type native), false in a container (--heat-type '
          'container)'))
HIERADATA = CompatOption(
    '--hieradata-override', kind=VALUE, nargs='?', metavar='<file>',
    type=options.abs_path,
    why=_('An environment file (parameter_defaults, resource_registry) '
          'applied after the -e files; legacy hieradata is refused: put it '
          'under <Role>ExtraConfig in an environment file'))

STANDALONE = (
    PYTHON, INFLIGHT, HEAT_NATIVE, HIERADATA, _HEAT_USER,
    CompatOption('-p', '--plan-environment-file', kind=NOOP, metavar='<file>',
                 dest='plan_environment_file',
                 why=_('as in tripleoclient 20, which did not support it; '
                       'give its parameter_defaults with -e')),
    CompatOption('--deployment-user', kind=NOOP, metavar='<user>',
                 why=_('everything runs as, and belongs to, the user who '
                       'runs the command')),
    CompatOption('--cleanup', kind=NOOP,
                 why=_('the work dir keeps everything: it is the '
                       'deployment\'s memory')),
    CompatOption('--transport', kind=NOOP, metavar='<local|ssh>',
                 why=_('the rendered inventory decides how Ansible reaches '
                       'the host')),
    CompatOption('--reproduce-command', kind=NOOP,
                 why=_('each Ansible run\'s artifacts are kept in the work '
                       'dir\'s config-download')),
    CompatOption('--force-stack-update', kind=NOOP,
                 why=_('every deploy creates the stack afresh')),
    CompatOption('--force-stack-create', kind=NOOP,
                 why=_('every deploy creates the stack afresh')),
    CompatOption('--upgrade', kind=REFUSED,
                 why=_('upgrade with "openstack overcloud upgrade prepare" '
                       'and "openstack overcloud upgrade run" with --stack '
                       'and --work-dir of this deployment')),
    CompatOption('--preflight-validations', kind=REFUSED,
                 why=_('tripleo-validations is not part of this project: '
                       'run its pre-flight playbooks against the host '
                       'yourself')),
)


@dataclasses.dataclass(frozen=True)
class StandaloneValues:
    """What the tripleoclient options of ``tripleo deploy`` turn into."""

    python_interpreter: str | None = None
    inflight_validations: bool = False
    #: None: --heat-type (or its default) decides
    heat_type: str | None = None
    #: environment files applied after the -e files
    environment_files: tuple[str, ...] = ()


def add_standalone_options(
        parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    return overcloud.add_options(parser, STANDALONE)


def read_standalone(parsed_args: argparse.Namespace) -> StandaloneValues:
    declaration.check_refused(parsed_args, STANDALONE)
    hieradata = declaration.value(parsed_args, HIERADATA)
    if hieradata:
        _check_environment(hieradata)
    return StandaloneValues(
        python_interpreter=declaration.value(parsed_args, PYTHON),
        inflight_validations=INFLIGHT.given(parsed_args),
        heat_type=_native_or_container(
            declaration.value(parsed_args, HEAT_NATIVE)),
        environment_files=(hieradata,) if hieradata else ())


def _native_or_container(value: str | None) -> str | None:
    if value is None:
        return None
    if value.lower() not in ('true', 'false'):
        raise osc_exceptions.CommandError(
            _('--heat-native %s: give true or false') % value)
    return 'native' if value.lower() == 'true' else 'container'


def _check_environment(path: str) -> None:
    try:
        data = yamlfile.load(path, 'Hieradata override')
    except exceptions.InputFileError as exc:
        raise osc_exceptions.CommandError(
            _('%s; check --hieradata-override') % exc)
    if not isinstance(data, dict) or not (
            set(data) & {'parameter_defaults', 'resource_registry',
                         'parameters'}):
        raise osc_exceptions.CommandError(
            _('--hieradata-override %s is legacy hieradata, not an '
              'environment: put it under <Role>ExtraConfig in the '
              'parameter_defaults of an environment file and pass that with '
              '-e') % path)


# -- tripleo launch heat ------------------------------------------------------

LAUNCH_NATIVE = CompatOption(
    '--heat-native', kind=VALUE,
    why=_('As --heat-type native (when --heat-type is not given)'))

LAUNCH_HEAT = (
    LAUNCH_NATIVE, _HEAT_USER,
    CompatOption('--rm-heat', kind=NOOP,
                 why=_('a launch finds a Heat still running for its heat '
                       'dir and says so: stop that one with --kill first')),
)


def add_launch_options(
        parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    return overcloud.add_options(parser, LAUNCH_HEAT)


def launch_heat_type(parsed_args: argparse.Namespace) -> str | None:
    """The Heat type the tripleoclient options ask for, or None."""
    return 'native' if LAUNCH_NATIVE.given(parsed_args) else None
