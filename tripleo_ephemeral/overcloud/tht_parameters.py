"""Parameters tripleoclient computed on the client side before a deploy.

tripleo-heat-templates give no default to ``<Role>Services`` nor to the
``Container*Image`` parameters: tripleoclient filled them in from the roles
data (kolla_builder's ``get_enabled_services``) and from a dry run of the
container image prepare. This module does the same without touching a
registry:

* ``<Role>Services``: the role's ``ServicesDefault`` minus services mapped to
  ``OS::Heat::None``, or ``[]`` for a role with a count of 0; a value set in
  an environment wins;
* ``Container<Name>Image``: every such parameter without a default in the
  template set, pointing at ``<namespace>/<name_prefix><name><name_suffix>:
  <tag>`` (taken from the first ``ContainerImagePrepare`` entry's ``set`` when
  an environment has one, else a placeholder registry: no image is pulled
  while the stack is created).

Template sets that define neither kind of parameter ignore the extra
``parameter_defaults``.
"""

import logging
import os
import re

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

NONE_RESOURCE = 'OS::Heat::None'
#: The image set used when no ContainerImagePrepare says otherwise.
IMAGE_DEFAULTS = {
    'namespace': 'registry.invalid/tripleo-ephemeral',
    'name_prefix': 'openstack-',
    'name_suffix': '',
    'tag': 'current-tripleo',
}

_IMAGE_PARAM = re.compile(r'^Container(\w+?)Image$')
# Cheap filter before parsing a template: an image parameter declared at the
# parameters' indentation.
_IMAGE_PARAM_LINE = re.compile(r'^  Container\w+Image:', re.MULTILINE)
_WORD = re.compile(r'[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+')


def merged_environment(paths):
    """Return the merged parameter_defaults and resource_registry.

    A shallow client-side merge (later files win), enough to read counts,
    services and registry mappings; Heat still merges the real thing.
    """
    merged = {'parameter_defaults': {}, 'resource_registry': {}}
    for path in paths:
        env = yamlfile.load(path, 'Environment file',
                            exceptions.EnvironmentFileError) or {}
        if not isinstance(env, dict):
            continue
        for section in merged:
            value = env.get(section)
            if isinstance(value, dict):
                merged[section].update(value)
    merged['resource_registry'].pop('resources', None)
    return merged


def role_services(roles, environment):
    """Return ``{'<Role>Services': [...]}`` for every role of ``roles``."""
    defaults = environment.get('parameter_defaults') or {}
    registry = environment.get('resource_registry') or {}
    params = {}
    for role in roles:
        name = role['name']
        param = '%sServices' % name
        try:
            count = int(defaults.get('%sCount' % name,
                                     role.get('CountDefault', 0)))
        except (TypeError, ValueError):
            raise exceptions.EnvironmentFileError(
                'Parameter %sCount must be an integer, got %r' % (
                    name, defaults.get('%sCount' % name)))
        if count <= 0:
            params[param] = []
        elif param in defaults:
            params[param] = defaults[param]
        else:
            params[param] = [
                service for service in role.get('ServicesDefault') or []
                if registry.get(service) != NONE_RESOURCE]
    return params


def image_name(parameter):
    """Return the image name of ``Container<Name>[Config]Image``.

    ``ContainerNovaLibvirtConfigImage`` -> ``nova-libvirt`` (the config
    image is the service image), ``ContainerHAProxyImage`` -> ``ha-proxy``.
    """
    match = _IMAGE_PARAM.match(parameter)
    if not match:
        raise ValueError('%s is not a container image parameter' % parameter)
    words = _WORD.findall(match.group(1))
    if len(words) > 1 and words[-1] == 'Config':
        words = words[:-1]
    return '-'.join(word.lower() for word in words)


def image_parameter_names(templates_dir):
    """Return the sorted ``Container*Image`` parameters lacking a default."""
    names = set()
    for directory, dirnames, filenames in os.walk(templates_dir):
        dirnames[:] = [d for d in dirnames if not d.startswith('.')]
        for filename in filenames:
            if not filename.endswith('.yaml'):
                continue
            path = os.path.join(directory, filename)
            with open(path, errors='replace') as f:
                text = f.read()
            if not _IMAGE_PARAM_LINE.search(text):
                continue
            try:
                template = yaml.safe_load(text)
            except yaml.YAMLError:
                continue  # not ours to report: Heat validates templates
            if not isinstance(template, dict) or (
                    'heat_template_version' not in template):
                continue
            for name, spec in (template.get('parameters') or {}).items():
                if (_IMAGE_PARAM.match(name) and isinstance(spec, dict) and
                        'default' not in spec):
                    names.add(name)
    return sorted(names)


def image_settings(environment):
    """Return the image naming of the first ContainerImagePrepare entry."""
    settings = dict(IMAGE_DEFAULTS)
    prepare = (environment.get('parameter_defaults') or {}).get(
        'ContainerImagePrepare')
    if isinstance(prepare, list) and prepare and isinstance(prepare[0], dict):
        wanted = prepare[0].get('set') or {}
        settings.update((key, str(wanted[key])) for key in IMAGE_DEFAULTS
                        if wanted.get(key) is not None)
    return settings


def container_image_parameters(templates_dir, environment):
    """Return ``{Container*Image: image}`` for the template set."""
    settings = image_settings(environment)
    params = {}
    for name in image_parameter_names(templates_dir):
        params[name] = '%s/%s%s%s:%s' % (
            settings['namespace'].rstrip('/'), settings['name_prefix'],
            image_name(name), settings['name_suffix'], settings['tag'])
    return params


def build(templates_dir, roles, environment_paths):
    """Return the generated ``parameter_defaults`` for the template set."""
    environment = merged_environment(environment_paths)
    params = role_services(roles, environment)
    params.update(container_image_parameters(templates_dir, environment))
    return params


def prepare_environment(templates_dir, roles, path, environment_paths=()):
    """Write the generated parameters as the environment ``path``; return
    it.

    ``environment_paths`` are the environments of the deploy, in order
    (registry first); they decide counts, services and image naming.
    """
    params = build(templates_dir, roles, environment_paths)
    yamlfile.write(path, {'parameter_defaults': params}, mode=0o600)
    LOG.info('Wrote %d generated template parameters to %s', len(params),
             path)
    return path
