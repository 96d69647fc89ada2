"""Options the commands share, and what they turn into.

Each group is declared here once, next to the function that reads it into
a value, once per command run: ``--stack``/``--work-dir`` (every command
that works on a deployment, :class:`WorkDirOptions`) into a
:class:`~tripleo_ephemeral.workdir.WorkDir`; the
``--heat-*`` launcher and container options into a frozen
:class:`~tripleo_ephemeral.heat_launcher.spec.LauncherSpec`
(:func:`launcher_spec`), which :func:`build_launcher` turns into a
launcher. The Ansible options are
:mod:`.ansible_options`'. Nothing here writes into ``parsed_args``.
"""

import argparse
from collections.abc import Callable
from collections.abc import Sequence
import dataclasses
import os
import re

from osc_lib.cli import parseractions
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import base
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.heat_launcher import spec as launcher_spec_mod
from tripleo_ephemeral.history import versions
from tripleo_ephemeral import workdir as workdir_mod
from tripleo_ephemeral.workdir import ownership


def abs_path(value: str) -> str:
    """argparse type of every path option: ``~`` expanded, absolute; an
    empty value (which would be the current directory) is refused."""
    return os.path.abspath(os.path.expanduser(name(value)))


def name(value: str) -> str:
    """argparse type of an option that names something (a stack, a user,
    a cloud, an image...): not empty nor blank, one line."""
    if not value.strip():
        raise argparse.ArgumentTypeError(
            _('an empty value names nothing: give one'))
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise argparse.ArgumentTypeError(
            _('%r holds a control character (a newline?): give it on one '
              'line') % value)
    return value


def positive_int(value: str) -> int:
    """argparse type: a whole number above 0."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(
            _('%s is not a whole number above 0') % value)
    return number


def port_number(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _('%s is not a port number (1-65535)') % value)
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            _('%s is not a port number (1-65535)') % value)
    return port


# -- the deployment: --stack and --work-dir ---------------------------------

@dataclasses.dataclass(frozen=True)
class WorkDirOptions:
    """``--stack`` and ``--work-dir`` (alias ``--working-dir``) as one
    command takes them: :meth:`add` declares them, :meth:`read` reads what
    it declared (a misspelt name fails, never reads as None).

    Without ``stack`` the default work dir is the default stack's (or the
    one ``stack_argument``, the command's own argument, names). With
    ``positional_stack`` the stack may also be named as tripleoclient's
    positional argument (it wins over ``--stack``). ``title`` names their
    group (default: Deployment). With ``optional`` neither has a default:
    the command reads what was :meth:`given` and its library finds the
    work dir where ``default_help`` says (``overcloud adoption validate``:
    the export's), opening it as :meth:`read` does
    (:func:`~tripleo_ephemeral.workdir.ownership.checked_work_dir`).
    """

    stack: bool = True
    positional_stack: bool = False
    required: bool = False
    default_stack: str = workdir_mod.DEFAULT_STACK
    title: str | None = None
    work_dir_help: str | None = None
    stack_argument: str | None = None
    stack_help: str | None = None
    optional: bool = False
    default_help: str | None = None

    def add(self, parser: argparse.ArgumentParser
            ) -> argparse._ArgumentGroup:
        """Add the options to ``parser``; return their group, where a
        command adds its own options of the same kind."""
        default_stack = None if self.optional else self.default_stack
        if self.positional_stack:
            parser.add_argument(
                'stack_name', metavar='<stack>', nargs='?',
                help=_('Name of the stack (same as --stack)'))
        group = parser.add_argument_group(self.title or _('Deployment'))
        if self.stack:
            group.add_argument(
                '--stack', metavar='<stack>', default=default_stack,
                type=name,
                help=_('%(what)s (default: %(default)s)') % {
                    'what': self.stack_help or _('Name of the stack'),
                    'default': self.default_help or default_stack})
        what = self.work_dir_help or _('Directory for everything the '
                                       'deployment keeps')
        if not self.required:
            what = _('%(what)s (default: %(default)s)') % {
                'what': what, 'default': self.default_help or
                workdir_mod.default_path(
                    '<stack>' if self.stack else workdir_mod.DEFAULT_STACK)}
        group.add_argument(
            '--work-dir', '--working-dir', metavar='<work-dir>',
            dest='work_dir', type=abs_path, required=self.required,
            help=what)
        return group

    def read(self, parsed_args: argparse.Namespace,
             existing: bool = False) -> workdir_mod.WorkDir:
        """The :class:`~tripleo_ephemeral.workdir.WorkDir` the options
        name; a stack name Heat would refuse is an error, and so is a
        directory that is not the product's to use (another tool's work
        dir, files it would overwrite:
        :func:`~tripleo_ephemeral.workdir.ownership.check`), or a work dir
        that holds no deployment yet when it must (``existing``)."""
        values = vars(parsed_args)
        names = (['stack_name'] if self.positional_stack else []) + (
            ['stack'] if self.stack else
            [self.stack_argument] if self.stack_argument else [])
        stack = next((values[n] for n in names if values[n] is not None),
                     workdir_mod.DEFAULT_STACK)
        try:
            workdir = ownership.checked_work_dir(values['work_dir'], stack)
        except exceptions.TripleoEphemeralError as exc:
            raise osc_exceptions.CommandError(str(exc))
        if existing and not os.path.isdir(workdir.path):
            raise osc_exceptions.CommandError(
                _('No deployment was found for %(stack)s in %(dir)s: deploy '
                  'it first, or check --stack/--work-dir') % {
                      'stack': workdir.stack, 'dir': workdir.path})
        return workdir

    def given(self, parsed_args: argparse.Namespace
              ) -> tuple[str | None, str | None]:
        """``(work_dir, stack)`` as given, None for one left out (the
        ``optional`` options)."""
        values = vars(parsed_args)
        return (values['work_dir'],
                values['stack'] if self.stack else None)


def config_history(workdir: workdir_mod.WorkDir) -> versions.ConfigHistory:
    """The config-download versions of ``workdir``, which must have one."""
    history = versions.ConfigHistory(workdir.config_download_dir)
    try:
        history.check_sound()
    except exceptions.HistoryError as exc:
        raise osc_exceptions.CommandError(str(exc))
    if not history.head():
        raise osc_exceptions.CommandError(
            _('%(dir)s has no config-download versions: deploy the stack '
              '(--stack-only renders without running Ansible)') % {
                  'dir': workdir.config_download_dir})
    return history


# -- Heat ---------------------------------------------------------------------

#: --heat-tuning's values.
HEAT_TUNINGS = ('tuned', 'stock')


def add_heat_launcher_options(parser: argparse.ArgumentParser,
                              default_type: str | None = None,
                              types: Sequence[str] | None = None,
                              type_help: str | None = None
                              ) -> argparse._ArgumentGroup:
    """The ``--heat-*`` options, one group for every command."""
    types = types or heat_launcher.heat_types(ephemeral_only=True)
    group = parser.add_argument_group(_('Heat'))
    group.add_argument(
        '--heat-type',
        choices=types,
        default=default_type,
        help=type_help or _('How to run Heat: %(types)s (default: '
                            '%(default)s)') % {
            'types': ', '.join(types),
            'default': default_type or _('from the last launch, else native')})
    group.add_argument(
        '--heat-api-port', metavar='<port>', type=port_number, default=None,
        help=_('Port the Heat API listens on, on 127.0.0.1 (default: the '
               'last launch\'s, else %d; if that is in use, a free port, '
               'recorded in the heat dir\'s clouds.yaml and heatrc)') %
        base.DEFAULT_API_PORT)
    group.add_argument(
        '--heat-config-override', metavar='<section.option=value>',
        action='append', default=[],
        help=_('Set an option in the rendered heat.conf, e.g. '
               'DEFAULT.executor_thread_pool_size=128 or '
               'ephemeral_heat.leaf_trigger_delay=0.1 (repeatable; the '
               'option must be one the runner or Heat registers, the value '
               'of its type)'))
    group.add_argument(
        '--heat-tuning', choices=HEAT_TUNINGS, default='tuned',
        help=_('tuned: the engine tunings this project chose (default); '
               'stock: Heat as TripleO\'s launcher ran it, every tuning off '
               '(the fixes Heat needs on threads stay on; '
               '--heat-config-override still applies), to tell a problem of '
               'the tunings from one of Heat, or to compare'))
    group.add_argument(
        '--heat-startup-timeout', metavar='<seconds>', type=int,
        action=parseractions.NonNegativeAction,
        default=base.DEFAULT_STARTUP_TIMEOUT,
        help=_('Seconds to wait for Heat to become ready (default: %d)') %
        base.DEFAULT_STARTUP_TIMEOUT)
    group.add_argument(
        '--heat-debug', action='store_true',
        help=_('Log Heat at debug level'))
    return group


def add_container_options(
        parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The options of the container and pod Heat types."""
    group = parser.add_argument_group(_('Heat containers (container, pod)'))
    group.add_argument(
        '--heat-container-image', metavar='<image>', type=name,
        help=_('Image of every Heat container (default: the image '
               '"openstack tripleo heat image build" makes for this code)'))
    for part, what in (('api', _('the heat-api container')),
                       ('engine', _('the heat-engine container')),
                       ('db', _('the MariaDB container of a pod')),
                       ('bus', _('the RabbitMQ container of a pod'))):
        group.add_argument(
            '--heat-container-%s-image' % part, metavar='<image>', type=name,
            help=_('Image of %s (default: --heat-container-image)') % what)
    group.add_argument(
        '--heat-engine-workers', metavar='<count>', type=int, default=None,
        action=parseractions.NonNegativeAction,
        help=_('Engine processes of a pod (default: two per core, 2 to '
               '8)'))
    group.add_argument(
        '--skip-heat-pull', action='store_true',
        help=_('Do not pull remote images; use the local ones'))
    return group


def launcher_spec(
        parsed_args: argparse.Namespace) -> launcher_spec_mod.LauncherSpec:
    """The :class:`~tripleo_ephemeral.heat_launcher.spec.LauncherSpec` of
    add_heat_launcher_options' and add_container_options' options."""
    return launcher_spec_mod.LauncherSpec(
        heat_type=parsed_args.heat_type,
        api_port=parsed_args.heat_api_port,
        overrides=tuple(parsed_args.heat_config_override),
        tuning=parsed_args.heat_tuning,
        startup_timeout=parsed_args.heat_startup_timeout,
        debug=parsed_args.heat_debug,
        images=podman.ContainerImages(
            default=parsed_args.heat_container_image,
            api=parsed_args.heat_container_api_image,
            engine=parsed_args.heat_container_engine_image,
            db=parsed_args.heat_container_db_image,
            bus=parsed_args.heat_container_bus_image),
        pull=not parsed_args.skip_heat_pull,
        engine_workers=parsed_args.heat_engine_workers)


#: What a heat dir's path cannot hold (a pattern, what it is, why). Spaces
#: and quotes are written so that each file Heat reads gives them back;
#: these are read as something else by what Heat runs.
_HEAT_DIR_CHARACTERS = (
    (re.compile(r'\?'), _('the URL of its SQLite database cannot hold (its '
                          'query starts there)')),
    (re.compile(r'[#%]'), _('Paste reads in the path of the API\'s '
                            'api-paste.ini (as a URL, where "#" ends it, and '
                            'in its "%(here)s" interpolation)')),
    (re.compile(r'\$'), _('oslo.config substitutes in the runner\'s '
                          '--config-file (it reads $name as an option)')),
)


def check_heat_dir(heat_dir: str) -> None:
    """CommandError when the path ``heat_dir`` holds what Heat cannot
    take (:data:`_HEAT_DIR_CHARACTERS`), before anything is written."""
    for pattern, why in _HEAT_DIR_CHARACTERS:
        found = pattern.search(heat_dir)
        if found:
            raise osc_exceptions.CommandError(
                _('The heat dir %(dir)s holds a "%(char)s", which %(why)s: '
                  'choose a --work-dir (or --heat-dir) without one') % {
                      'dir': heat_dir, 'char': found.group(), 'why': why})


def build_launcher(spec: launcher_spec_mod.LauncherSpec, heat_dir: str,
                   say: Callable[[str], None] | None = None
                   ) -> base.HeatLauncher:
    """The launcher ``spec`` (a
    :class:`~tripleo_ephemeral.heat_launcher.spec.LauncherSpec`) describes,
    for ``heat_dir`` (:func:`tripleo_ephemeral.heat_launcher.spec.build`);
    a heat dir Heat would misread (:func:`check_heat_dir`) or an override
    Heat would not take is the one-line CommandError."""
    check_heat_dir(heat_dir)
    try:
        return launcher_spec_mod.build(spec, heat_dir, say=say)
    except exceptions.InputError as exc:
        raise osc_exceptions.CommandError(str(exc))
