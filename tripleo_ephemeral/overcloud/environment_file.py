"""The shape of a Heat environment file, checked as Heat's engine checks it.

heatclient sends an environment file's text as it is; Heat's engine parses
it again when it merges the environments
(``heat.common.environment_format``). A section Heat does not know, or one
left empty (``parameter_defaults:`` followed only by a commented-out
``# NtpServer: x``: YAML reads it as null), raises a ValueError there that
the API reports as "Internal Error" only.
:func:`check` finds those, and the wrong types of the sections, before Heat
is started: one line naming the file, the section and the fix.
"""

import difflib

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

#: Heat's environment sections (heat/common/environment_format.py) and the
#: type each must have.
SECTIONS = {
    'parameters': dict,
    'parameter_defaults': dict,
    'resource_registry': dict,
    'parameter_merge_strategies': dict,
    'encrypted_param_names': list,
    'event_sinks': list,
}
_TYPE_NAMES = {dict: 'a mapping (name: value)', list: 'a list'}


def _type_name(value):
    if isinstance(value, dict):
        return 'a mapping'
    if isinstance(value, list):
        return 'a list'
    return 'the %s %r' % (type(value).__name__, value)


def check_data(env, path):
    """Raise EnvironmentFileError unless ``env`` (parsed ``path``) is an
    environment Heat's engine accepts."""
    if env is None:
        return  # an empty file: Heat reads it as no environment
    if not isinstance(env, dict):
        raise exceptions.EnvironmentFileError(
            'Environment file %s is %s, not a mapping of sections such as '
            'parameter_defaults and resource_registry: fix the file' % (
                path, _type_name(env)))
    for section, value in env.items():
        wanted = SECTIONS.get(section)
        if wanted is None and section == 'heat_template_version':
            raise exceptions.EnvironmentFileError(
                'Environment file %s is a template (it has '
                'heat_template_version), not an environment: map it in an '
                'environment\'s resource_registry instead of passing it '
                'with -e' % path)
        if wanted is None:
            near = difflib.get_close_matches(str(section), SECTIONS, n=1)
            raise exceptions.EnvironmentFileError(
                'Environment file %s has the section %s, which Heat does not '
                'know (%s): %s' % (
                    path, section, ', '.join(sorted(SECTIONS)),
                    'did you mean %s?' % near[0] if near else
                    'indent it under parameter_defaults, or remove it'))
        if value is None:
            raise exceptions.EnvironmentFileError(
                'Environment file %s: section %s is empty (only comments '
                'under it?), which Heat refuses: give it an entry, or '
                'remove the "%s:" line' % (path, section, section))
        if not isinstance(value, wanted):
            raise exceptions.EnvironmentFileError(
                'Environment file %s: section %s is %s; it must be %s: fix '
                'its indentation or syntax' % (
                    path, section, _type_name(value), _TYPE_NAMES[wanted]))
        if wanted is dict:
            for key in value:
                if not isinstance(key, str):
                    raise exceptions.EnvironmentFileError(
                        'Environment file %s: section %s has the key %r, '
                        'which is not a name: quote it' % (
                            path, section, key))


def check(path):
    """Read ``path`` strictly (:func:`yamlfile.load`) and check it; return
    the parsed environment."""
    env = yamlfile.load(path, 'Environment file',
                        exceptions.EnvironmentFileError)
    check_data(env, path)
    return env
