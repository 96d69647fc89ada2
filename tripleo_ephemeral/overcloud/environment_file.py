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
#: Registry keys whose value may be a list (heat.engine.environment).
_LIST_KEYS = ('hooks', 'restricted_actions')


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
    _check_registry(env.get('resource_registry') or {}, path)
    for sink in env.get('event_sinks') or ():
        if not isinstance(sink, dict):
            raise exceptions.EnvironmentFileError(
                'Environment file %s: event_sinks has %s; each sink is a '
                'mapping (type, target): fix it' % (path, _type_name(sink)))


def _check_registry(registry, path, where='resource_registry'):
    """What Heat's registry loader takes (``ResourceRegistry._load_registry``
    in heat/engine/environment.py): a name maps to a type or template (or
    null: remove it), a mapping (``resources``, a resource's registry), or
    for ``hooks``/``restricted_actions`` a list; anything else fails in the
    engine with an AttributeError ("Internal Error")."""
    for name, target in registry.items():
        if target is None or isinstance(target, str):
            continue
        if isinstance(target, dict):
            _check_registry(target, path, '%s %s' % (where, name))
        elif not (name in _LIST_KEYS and isinstance(target, list)):
            raise exceptions.EnvironmentFileError(
                'Environment file %s: %s maps %s to %s; it must name a type '
                'or a template file, or be a mapping: fix it' % (
                    path, where, name, _type_name(target)))


def check(path):
    """Read ``path`` strictly (:func:`yamlfile.load`) and check it; return
    the parsed environment."""
    env = yamlfile.load(path, 'Environment file',
                        exceptions.EnvironmentFileError)
    check_data(env, path)
    return env
