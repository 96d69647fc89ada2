"""Rendering a template set and building the request that creates the stack.

The template set is copied into the work dir and its Jinja2 templates are
rendered the way tripleo-heat-templates'
``tools/process-templates.py`` renders them:

* ``*.role.j2.yaml`` once per role, as ``<role lower>-<name>.yaml``, with
  ``role`` and ``networks``;
* ``*.network.j2.yaml`` once per network, with ``network``;
* any other ``*.j2.yaml`` once, as ``*.yaml``, with ``roles`` and
  ``networks``.

Environments are sent as ``environment_files`` plus their contents in
``files``, so Heat merges them server-side (heatclient's template_utils
does the reading and URL resolution, every file through
:class:`LimitedReader`: no file over :data:`yamlfile.INPUT` reaches its
parser).

heatclient and Jinja2 are imported when a template set is rendered or read,
not with this module: every command's module is imported when
``openstack`` starts.
"""

import glob
import logging
import os
import shutil
from urllib import error as url_error
from urllib import parse as url_parse
from urllib import request as url_request

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.overcloud import environment_file
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

ROOT_TEMPLATE = 'overcloud.yaml'
RESOURCE_REGISTRY = 'overcloud-resource-registry.yaml'
# tripleo-heat-templates names its registry after the puppet era; used when
# a template set has no RESOURCE_REGISTRY (tripleoclient's default).
THT_RESOURCE_REGISTRY = 'overcloud-resource-registry-puppet.yaml'
DEFAULT_TIMEOUT_MINS = 240

_ROLE_SUFFIX = '.role.j2.yaml'
_NETWORK_SUFFIX = '.network.j2.yaml'
_J2_SUFFIX = '.j2.yaml'


def bundled_templates_dir():
    """Return the path of the template set shipped with this package."""
    return os.path.join(os.path.dirname(os.path.dirname(__file__)),
                        'templates')


def copy_templates(source_dir, dest):
    """Copy ``source_dir`` to ``dest``.

    A previous copy is replaced. Returns the destination.
    """
    if not os.path.isdir(source_dir):
        raise exceptions.TemplateError(
            'Templates directory %s not found: pass --templates with an '
            'existing directory' % source_dir)
    if os.path.abspath(source_dir) == os.path.abspath(dest):
        return dest
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(source_dir, dest, symlinks=False,
                    ignore=shutil.ignore_patterns('*.pyc', '__pycache__',
                                                  '.git'))
    LOG.debug('Copied templates %s to %s', source_dir, dest)
    return dest


def _role_output_name(filename, role):
    return '%s-%s' % (role['name'].lower(),
                      filename[:-len(_ROLE_SUFFIX)] + '.yaml')


def _network_output_name(directory, filename, network):
    out = filename[:-len(_NETWORK_SUFFIX)] + '.yaml'
    word = 'port' if os.path.basename(directory) == 'ports' else 'network'
    return out.replace(word, network['name_lower'])


def _environment(directory, root, bytecode_cache=None):
    """A Jinja2 environment finding includes next to the template first.

    As in process-templates.py: ``{% include 'deploy-steps.j2' %}`` in
    ``common/post.j2.yaml`` names ``common/deploy-steps.j2``. Default
    (lenient) undefined handling: THT templates test optional role keys
    such as role.deprecated_param_*. Sandboxed: the templates are the
    operator's (or whoever wrote the set), and render data, nothing more
    (no attribute of Python's internals, no unsafe call).
    """
    import jinja2
    from jinja2 import sandbox

    return sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([directory, root]),
        bytecode_cache=bytecode_cache,
        keep_trailing_newline=True)


def _render(env, root, path, context, out_path):
    import jinja2

    rel = os.path.relpath(path, root)
    try:
        # Loader names always use '/', whatever the OS.
        template = env.get_template(rel.replace(os.sep, '/'))
        text = template.render(**context)
    except jinja2.TemplateSyntaxError as e:
        raise exceptions.TemplateError(
            'Template %s has a Jinja2 syntax error at line %s: %s'
            % (path, e.lineno, e.message))
    except jinja2.TemplateError as e:
        raise exceptions.TemplateError(
            'Template %s could not be rendered: %s' % (path, e))
    # Not fsynced, as the copy it is part of: made again by every deploy.
    with fileutil.atomic_open(out_path, mode=0o644, durable=False) as f:
        f.write(text)
    LOG.debug('Rendered %s to %s', path, out_path)
    return out_path


def render_templates(templates_dir, roles, networks, bytecode_cache=None):
    """Render every ``*.j2.yaml`` under ``templates_dir`` in place.

    ``roles`` and ``networks`` are the loaded data (see
    :mod:`tripleo_ephemeral.overcloud.roles`). Returns the list of files
    written.
    """
    # Networks are numbered as process-templates.py numbers them (THT tags
    # network resources with tripleo_net_idx); disabled ones get no
    # per-network templates.
    networks = [dict(network, idx=index)
                for index, network in enumerate(networks)]
    enabled = [n for n in networks if n.get('enabled') is not False]
    written = []
    for directory, dirnames, filenames in os.walk(templates_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
        env = _environment(directory, templates_dir, bytecode_cache)
        for filename in sorted(f for f in filenames
                               if not f.startswith('.')):
            path = os.path.join(directory, filename)
            if filename.endswith(_ROLE_SUFFIX):
                for role in roles:
                    out = os.path.join(directory,
                                       _role_output_name(filename, role))
                    written.append(_render(
                        env, templates_dir, path,
                        {'role': role, 'networks': networks}, out))
            elif filename.endswith(_NETWORK_SUFFIX):
                for network in enabled:
                    out = os.path.join(directory, _network_output_name(
                        directory, filename, network))
                    written.append(_render(
                        env, templates_dir, path,
                        {'network': network, 'networks': networks,
                         'roles': roles}, out))
            elif filename.endswith(_J2_SUFFIX):
                out = os.path.join(directory,
                                   filename[:-len(_J2_SUFFIX)] + '.yaml')
                written.append(_render(
                    env, templates_dir, path,
                    {'roles': roles, 'networks': networks}, out))
    LOG.info('Rendered %d templates in %s', len(written), templates_dir)
    return written


def prepare_templates(source_dir, dest, roles, networks,
                      bytecode_cache=None):
    """Copy ``source_dir`` to ``dest`` and render it (Jinja2 keeping what
    it compiles in ``bytecode_cache``, if given); return the copy."""
    dest = copy_templates(source_dir, dest)
    render_templates(dest, roles, networks, bytecode_cache)
    return dest


def environment_directory_files(directory):
    """Return the sorted ``*.yaml``/``*.yml`` files of ``directory``."""
    if not os.path.isdir(directory):
        raise exceptions.EnvironmentFileError(
            'Environment directory %s not found: check '
            '--environment-directory' % directory)
    found = []
    for pattern in ('*.yaml', '*.yml'):
        found.extend(glob.glob(os.path.join(directory, pattern)))
    return sorted(path for path in found if os.path.isfile(path))


def _check_environment(path):
    env = environment_file.check(path)
    if env is None:
        return
    registry = env.get('resource_registry') or {}
    base = os.path.dirname(os.path.abspath(path))
    for name, target in registry.items():
        if name in ('base_url', 'resources') or not isinstance(target, str):
            continue
        if '::' in target or '://' in target:
            continue
        target_path = os.path.normpath(os.path.join(base, target))
        if not os.path.isfile(target_path):
            raise exceptions.EnvironmentFileError(
                'Environment file %s maps %s to %s, which does not exist '
                '(looked for %s): fix the path or render the templates first'
                % (path, name, target, target_path))


def resource_registry(templates_dir):
    """Return ``[path]`` of the template set's registry, or []."""
    for name in (RESOURCE_REGISTRY, THT_RESOURCE_REGISTRY):
        path = os.path.join(templates_dir, name)
        if os.path.isfile(path):
            return [path]
    return []


class LimitedReader:
    """heatclient's ``object_request``: the content of a URL as heatclient
    reads it, once it is known to be within :data:`yamlfile.INPUT`
    (TemplateError naming the file if not); heatclient reads a template
    twice, it is checked once."""

    def __init__(self):
        self.checked = set()

    def __call__(self, _method, url):
        from heatclient.common import utils as heat_utils

        parsed = url_parse.urlparse(url)
        local = parsed.scheme == 'file'
        path = url_request.url2pathname(parsed.path) if local else url
        try:
            if local and url not in self.checked and os.path.isfile(path):
                yamlfile.check_size(os.path.getsize(path))
            # heatclient's own read says which file it cannot read.
            content = heat_utils.read_url_content(url)
            if url not in self.checked:
                yamlfile.check_text(content)
                self.checked.add(url)
        except yamlfile.LimitError as e:
            raise exceptions.TemplateError(
                'Template %s is refused: %s' % (path, e))
        return content


def _heat_error_text(e):
    text = getattr(e, 'message', None) or str(e)
    return ' '.join(str(text).split())


def stack_create_args(stack_name, templates_dir, environment_files=(),
                      template_name=ROOT_TEMPLATE, parameters=None,
                      timeout_mins=DEFAULT_TIMEOUT_MINS,
                      disable_rollback=True, include_registry=True):
    """Return the keyword arguments of ``heatclient.stacks.create()``.

    ``environment_files`` are applied in order, after the template set's
    resource registry (when ``include_registry`` and it exists).
    """
    from heatclient.common import template_utils
    from heatclient.common import utils as heat_utils
    from heatclient import exc as heat_exc
    from oslo_serialization import jsonutils

    template_path = os.path.join(templates_dir, template_name)
    if not os.path.isfile(template_path):
        raise exceptions.TemplateError(
            'Root template %s not found: render the templates first or '
            'check --templates' % template_path)
    env_paths = []
    if include_registry:
        env_paths.extend(resource_registry(templates_dir))
    env_paths.extend(os.path.abspath(p) for p in environment_files)
    for path in env_paths:
        _check_environment(path)

    read = LimitedReader()
    try:
        tpl_files, template = template_utils.get_template_contents(
            template_object=heat_utils.normalise_file_path_to_url(
                template_path), object_request=read)
    except (heat_exc.CommandError, url_error.URLError, ValueError) as e:
        raise exceptions.TemplateError(
            'Template %s or a file it refers to could not be read: %s'
            % (template_path, _heat_error_text(e)))

    env_urls = []
    files = dict(tpl_files)
    for path in env_paths:
        url = heat_utils.normalise_file_path_to_url(path)
        try:
            env_files, env = template_utils.process_environment_and_files(
                env_path=url, env_path_is_object=lambda _url: True,
                object_request=read)
        except (heat_exc.CommandError, url_error.URLError,
                ValueError) as e:
            raise exceptions.EnvironmentFileError(
                'Environment file %s or a file it refers to could not be '
                'read: %s' % (path, _heat_error_text(e)))
        files.update(env_files)
        # As heatclient's process_multiple_environments_and_files with an
        # env_list_tracker: Heat merges the files in this order.
        files[url] = jsonutils.dumps(env)
        env_urls.append(url)

    args = {
        'stack_name': stack_name,
        'template': template,
        'files': files,
        'environment_files': env_urls,
        'timeout_mins': timeout_mins,
        'disable_rollback': disable_rollback,
    }
    if parameters:
        args['parameters'] = dict(parameters)
    LOG.debug('Stack %s: %d files, %d environment files', stack_name,
              len(files), len(env_urls))
    return args
