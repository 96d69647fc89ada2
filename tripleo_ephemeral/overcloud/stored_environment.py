"""A stack's stored environment, made into files the next deploy takes.

Heat keeps, per stack, the environment it merged from every ``-e`` file
(``raw_template.environment``) and the files it was sent (templates and
environment files, keyed by absolute URL). An adoption turns them into:

* the passwords (``<stack>-passwords.yaml``): the values of the password
  parameters the stack had, else the one value its environment files held;
* an environment usable with ``-e``: every parameter value as the stack had
  it, less those a deploy regenerates (:data:`VOLATILE_PARAMETERS`) and the
  passwords; the resource registry pointing into the work dir's rendered
  templates (``file://<old templates>/x.yaml`` becomes
  ``tripleo-heat-templates/x.yaml``, relative to the work dir), and the
  stack's own templates outside the template set copied under the work dir.

Hidden parameters come back from Heat's API masked; :func:`unmask` finds
them in the stored environment files. Pure: data in, data out.
"""

import copy
import json
import posixpath
import re
from urllib import parse

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import heat_merge
from tripleo_ephemeral.overcloud import yamlfile

MASK = heat_merge.MASK
SECTIONS = ('parameter_defaults', 'parameters')
#: What every deploy writes anew (the deploy parameters environment).
VOLATILE_PARAMETERS = ('DeployIdentifier', 'DeployIdentifierUUID',
                       'StackAction')
#: The registry of a template set: its directory is the templates root.
REGISTRY_NAMES = ('overcloud-resource-registry.yaml',
                  'overcloud-resource-registry-puppet.yaml')
#: Registry keys that are not resource types.
_NOT_TYPES = ('base_url', 'hooks', 'restricted_actions')
#: A YAML template's top-level version key (an environment has none).
_TEMPLATE = re.compile(r'^heat_template_version\s*:', re.M)
_URL = re.compile(r'(?:file|https?)://[^"\'\s]+')


def canonical(value):
    return json.dumps(value, sort_keys=True, default=str)


def environment_files(files):
    """``{url: mapping}`` of the stored files that are environments."""
    found = {}
    for url, text in (files or {}).items():
        if isinstance(text, str) and _TEMPLATE.search(text):
            continue  # a template (most of them, and the largest)
        try:
            data = yamlfile.loads(text) if isinstance(
                text, str) else None
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and (
                any(isinstance(data.get(s), dict) for s in SECTIONS) and
                'heat_template_version' not in data):
            found[url] = data
    return found


def _file_values(files):
    """``name -> [distinct values]`` the environment files give, read once
    (a template set stores hundreds of files)."""
    values = {}
    for data in environment_files(files).values():
        for section in SECTIONS:
            params = data.get(section)
            if not isinstance(params, dict):
                continue
            for name, value in params.items():
                if value != MASK:
                    values.setdefault(name, {})[canonical(value)] = value
    return {name: list(found.values()) for name, found in values.items()}


def unmask(environment, files, stack, strict=True, only=None):
    """The environment with masked (hidden) values recovered from files.

    Returns ``(environment, [recovered names])``. A value with none or
    several candidates is refused, or with ``strict`` False left masked.
    ``only`` limits it to those names.
    """
    env = copy.deepcopy(environment or {})
    recovered = []
    known = _file_values(files)
    for section in SECTIONS:
        for name, value in sorted((env.get(section) or {}).items()):
            if value != MASK or (only is not None and name not in only):
                continue
            candidates = known.get(name, [])
            if len(candidates) != 1:
                if not strict:
                    continue
                raise exceptions.AdoptionError(
                    'Hidden parameter %s of stack %s cannot be recovered '
                    'through the Heat API (%d candidates in its files); '
                    'adopt from a dump of its database instead '
                    '(--heat-db-dump)' % (name, stack, len(candidates)))
            env[section][name] = candidates[0]
            recovered.append(name)
    return env, recovered


def passwords(environment, files, names):
    """``(passwords, counts)``: the stack's values of ``names``.

    A name the merged environment lacks (no template declares it) is
    taken from the environment files when they agree on one value, so
    the whole generated set survives; the rest the next deploy generates.
    """
    merged = {}
    for section in reversed(SECTIONS):   # parameters win, as in Heat
        merged.update((environment or {}).get(section) or {})
    found, from_files = {}, 0
    known = _file_values(files)
    for name in names:
        if name in merged:
            found[name] = merged[name]
            continue
        values = known.get(name, [])
        if len(values) == 1:
            found[name] = values[0]
            from_files += 1
    return found, {'from_environment': len(found) - from_files,
                   'from_files': from_files}


def templates_root(files, stack):
    """The URL of the directory the stack's template set was in."""
    roots = sorted({url.rsplit('/', 1)[0] for url in files or {}
                    if url.rsplit('/', 1)[-1] in REGISTRY_NAMES})
    if len(roots) != 1:
        raise exceptions.AdoptionError(
            'Stack %s\'s stored files hold %s: its template set cannot be '
            'told apart; it was not deployed from a tripleo-heat-templates '
            'set' % (stack, 'no %s' % ' or '.join(REGISTRY_NAMES)
                     if not roots else 'several registries (%s)' %
                     ', '.join(roots)))
    return roots[0]


class _Relocator:
    """Maps stored URLs to paths relative to the work dir."""

    def __init__(self, files, root, templates_dir, custom_dir):
        self.files = files or {}
        self.root = root.rstrip('/') + '/'
        self.templates_dir = templates_dir
        self.custom_dir = custom_dir
        self.custom = {}            # relative path -> text

    def path(self, url):
        """Where ``url`` lives under the work dir (copying it if it is not
        in the template set), or None to keep ``url`` as it is."""
        if url.startswith(self.root):
            return posixpath.join(self.templates_dir, url[len(self.root):])
        if url not in self.files:
            return None
        parsed = parse.urlsplit(url)
        rel = posixpath.join(self.custom_dir, parsed.netloc,
                             parsed.path.lstrip('/'))
        if rel not in self.custom:
            self.custom[rel] = ''            # no loops through itself
            self.custom[rel] = self._relink(self.files[url], rel)
        return rel

    def _relink(self, text, rel):
        here = posixpath.dirname(rel)

        def _sub(match):
            target = self.path(match.group(0))
            return match.group(0) if target is None else \
                posixpath.relpath(target, here)
        return _URL.sub(_sub, text) if isinstance(text, str) else text

    def registry(self, registry):
        out = {}
        for key, value in (registry or {}).items():
            if key == 'resources' and isinstance(value, dict):
                out[key] = {name: self.registry(entry)
                            for name, entry in value.items()}
            elif (key in _NOT_TYPES or not isinstance(value, str) or
                  '::' in value):
                out[key] = value
            else:
                out[key] = self.path(value) or value
        return out


def adopted_environment(environment, files, root,
                        password_names=(), templates_dir='templates',
                        custom_dir='adopted/files'):
    """``(environment, {relative path: text})`` for the next deploy.

    Registry paths are relative to the work dir, where the environment is
    written; the second value holds the copied templates from outside the
    template set.
    """
    skip = set(VOLATILE_PARAMETERS) | set(password_names)
    env = {section: {k: v for k, v in sorted(
        ((environment or {}).get(section) or {}).items()) if k not in skip}
        for section in SECTIONS}
    relocator = _Relocator(files, root, templates_dir, custom_dir)
    registry = relocator.registry((environment or {}).get(
        'resource_registry'))
    if not registry.get('resources'):
        registry.pop('resources', None)
    env['resource_registry'] = registry
    return env, relocator.custom


def _unescape(value):
    if isinstance(value, dict):
        return {k: _unescape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unescape(v) for v in value]
    if isinstance(value, str) and '\\' in value:
        return value.encode('ascii', 'backslashreplace').decode(
            'unicode_escape')
    return value


def _yaml(value):
    return yamlfile.loads(str(value), limits=yamlfile.OWN, json_first=False)


def _as_given(value):
    """The data a template rendered into an output, as it was given.

    THT writes ``{{ roles }}``: Python's repr, which YAML reads back with
    its escapes left in (a newline comes back as backslash-n), and which
    the next rendering would escape again. Undone when, and only when,
    rendering the unescaped data gives the output back.
    """
    try:
        if _yaml(value) == value:
            return value
        candidate = _unescape(value)
        if _yaml(candidate) == value:
            return candidate
    except (yaml.YAMLError, UnicodeError):
        pass
    return value


def roles_and_networks(outputs):
    """(roles, networks) the templates were rendered with, or (None, None).

    From THT's ``TripleoHeatTemplatesJinja2RenderingDataSources`` output;
    the renderer's network index (``idx``) is dropped again.
    """
    data = (outputs or {}).get(
        'TripleoHeatTemplatesJinja2RenderingDataSources')
    if not isinstance(data, dict) or not isinstance(
            data.get('roles_data'), list):
        return None, None
    networks = [{k: v for k, v in net.items() if k != 'idx'}
                for net in _as_given(data.get('networks_data') or [])
                if isinstance(net, dict)]
    return _as_given(data['roles_data']), networks
