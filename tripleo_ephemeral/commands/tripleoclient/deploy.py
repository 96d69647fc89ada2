"""tripleoclient's ``overcloud deploy`` options that operators' scripts use.

Added to ``overcloud deploy`` (and so to ``update prepare`` and ``upgrade
prepare``, which reuse its parser), with tripleoclient 20.0.0's meaning;
where this project differs the help says so.
"""

import argparse
import os
from typing import Any

from osc_lib.cli import parseractions
from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral.commands import options
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile


def add_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    group = parser.add_argument_group(_('tripleoclient compatibility'))
    group.add_argument(
        '--answers-file', metavar='<file>', type=options.abs_path,
        help=_('YAML with "templates", "environments" (applied before the '
               '-e files), "roles" and "networks"; the options given on the '
               'command line win'))
    group.add_argument(
        '-y', '--yes', action='store_true',
        help=_('Skip the confirmation question a deploy that runs Ansible '
               'asks before it starts (a --stack-only deploy and the '
               'prepares ask nothing)'))
    group.add_argument(
        '--override-ansible-cfg', metavar='<file>', type=options.abs_path,
        help=_('An ansible.cfg whose sections and options are merged over '
               'the generated one (tripleoclient used it instead of it)'))
    group.add_argument(
        '--config-download-timeout', metavar='<minutes>', type=int,
        action=parseractions.NonNegativeAction,
        help=_('Minutes the Ansible run may take (default: no limit)'))
    group.add_argument(
        '--skip-deploy-identifier', action='store_true',
        help=_('Leave DeployIdentifier empty, so that steps keyed on it '
               'do not run again'))
    group.add_argument(
        '--deployment-python-interpreter', metavar='<path>',
        help=_('Python interpreter on the servers (ansible_python_'
               'interpreter of the inventory)'))
    group.add_argument(
        '--inflight-validations', action='store_true',
        help=_('Run the tasks tagged opendev-validation (skipped by '
               'default)'))
    group.add_argument(
        '--no-proxy', metavar='<hosts>',
        default=os.environ.get('no_proxy', ''),
        help=_('Comma-separated hosts the overcloud rc file adds to '
               'no_proxy (default: $no_proxy)'))
    return group


def apply_answers(parsed_args: argparse.Namespace) -> dict[str, Any]:
    """The inputs ``--answers-file`` gives, merged with the command line's
    (which win): a dict of ``templates``, ``environment_files`` (the
    answers' environments first), ``roles_file`` and ``networks_file``.
    ``parsed_args`` is only read.
    """
    merged = {'templates': parsed_args.templates,
              'environment_files': list(parsed_args.environment_files),
              'roles_file': parsed_args.roles_file,
              'networks_file': parsed_args.networks_file}
    path = parsed_args.answers_file
    if not path:
        return merged
    try:
        answers = yamlfile.load(path, 'Answers file')
    except exceptions.InputFileError as exc:
        raise osc_exceptions.CommandError(
            _('%s; check --answers-file') % exc)
    if not isinstance(answers, dict):
        raise osc_exceptions.CommandError(
            _('Answers file %s must be a mapping with templates, '
              'environments, roles, networks: fix --answers-file') % path)

    def _path(value: object) -> str:
        # Relative to the current directory, as tripleoclient's.
        return options.abs_path(str(value))

    if answers.get('templates') and merged['templates'] is None:
        merged['templates'] = _path(answers['templates'])
    environments = answers.get('environments') or []
    if not isinstance(environments, list):
        raise osc_exceptions.CommandError(
            _('"environments" of the answers file %s must be a list: fix '
              '--answers-file') % path)
    merged['environment_files'] = [_path(e) for e in environments] + \
        merged['environment_files']
    if answers.get('roles') and not merged['roles_file']:
        merged['roles_file'] = _path(answers['roles'])
    if answers.get('networks') and not merged['networks_file']:
        merged['networks_file'] = _path(answers['networks'])
    return merged
