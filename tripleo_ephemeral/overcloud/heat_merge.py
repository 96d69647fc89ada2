"""Parameter values as Heat merges a stack's environment files.

Heat's engine merges the ``environment_files`` of a request in their order
(``heat/common/environment_util.py``, ``merge_environments``): each file's
``parameters`` and ``parameter_defaults`` over those of the files before
it, so the last file that gives a value wins, unless a
``parameter_merge_strategies`` section of the file that first names the
parameter says ``merge`` or ``deep_merge`` (a string is then appended, a
mapping updated, a list extended). A template parameter then takes its
value from ``parameters`` before ``parameter_defaults``.

The API masks hidden parameters (``AdminPassword``: ``******``) in the
environment it returns; :func:`resolve` gives their values from the files
the stack was sent, as Heat merged them. Pure: data in, data out.
"""

from tripleo_ephemeral.overcloud import yamlfile

#: What Heat's API shows for a hidden parameter's value.
MASK = '******'
PARAMETERS = 'parameters'
PARAMETER_DEFAULTS = 'parameter_defaults'
#: Heat's strategies: how a later file's value meets an earlier one's.
_OVERWRITE, _MERGE, _DEEP_MERGE = 'overwrite', 'merge', 'deep_merge'


def _environment(content):
    if isinstance(content, dict):
        return content
    if isinstance(content, bytes):
        content = content.decode('utf-8')
    if not isinstance(content, str):
        return {}
    data = yamlfile.loads(content)
    return data if isinstance(data, dict) else {}


def _merge_value(old, new):
    if isinstance(old, str) and isinstance(new, str):
        return old + new
    if isinstance(old, dict) and isinstance(new, dict):
        return dict(old, **new)
    if isinstance(old, list) and isinstance(new, list):
        return old + new
    return new


def merged(environment_files, files, parameters=None):
    """``{section: {name: value}}`` (``parameters``,
    ``parameter_defaults``) of the request's ``environment_files`` (names
    in ``files``, which maps them to their text or parsed mapping), over
    the request's own ``parameters``."""
    result = {PARAMETERS: dict(parameters or {}), PARAMETER_DEFAULTS: {}}
    strategies = {}
    for name in environment_files or ():
        env = _environment((files or {}).get(name))
        given = env.get('parameter_merge_strategies')
        given = given if isinstance(given, dict) else {}
        for section in (PARAMETERS, PARAMETER_DEFAULTS):
            values = env.get(section)
            for key, value in (values if isinstance(values, dict)
                               else {}).items():
                if value is None:
                    continue
                strategy = strategies.setdefault(
                    key, given.get(key, given.get('default', _OVERWRITE)))
                if strategy in (_MERGE, _DEEP_MERGE) and \
                        key in result[section]:
                    value = _merge_value(result[section][key], value)
                result[section][key] = value
    return result


def value_of(merged_env, name, default=None):
    """The value a template parameter ``name`` takes from ``merged_env``
    (as :func:`merged` returns it, or Heat's API): ``parameters`` first."""
    for section in (PARAMETERS, PARAMETER_DEFAULTS):
        values = merged_env.get(section) or {}
        if name in values:
            return values[name]
    return default


def resolve(names, environment_files, files, parameters=None):
    """``{name: value}`` of ``names`` as Heat merged the files (names no
    file gives are left out)."""
    env = merged(environment_files, files, parameters)
    missing = object()
    found = {name: value_of(env, name, missing) for name in names}
    return {name: value for name, value in found.items()
            if value is not missing}
