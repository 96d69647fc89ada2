"""The container image parameters and ``<Role>Services``, computed by
tripleo-common 18.0.0 the way tripleoclient 20.0.0's ``overcloud deploy``
called it (``utils.build_enabled_sevices_image_params``).

tripleo-heat-templates give no default to ``<Role>Services`` nor to the
``Container*Image`` parameters; the client computed them from the merged
environment (registry + environment files) and the roles data:

1. ``kolla_builder.get_enabled_services``: ``<Role>Services`` for every
   role, ``[]`` for a role with a count of 0;
2. ``plan.default_image_params``: every image parameter of tripleo-common's
   image template, named by its default set (148 with tripleo-common
   18.0.0, Ceph and Prometheus ones included);
3. unless the container prepare is disabled,
   ``kolla_builder.container_images_prepare_multi(dry_run=True)`` over the
   ``ContainerImagePrepare`` entries (tripleo-common's default prepare when
   there are none) for the services the roles enable, and the same for
   each ``<Role>ContainerImagePrepare``, whose result becomes
   ``<Role>Parameters``.

Step 3 also removes the services mapped to ``OS::Heat::None`` from the
``<Role>Services`` lists of step 1 (``build_service_filter`` filters the
same list objects in place), so a deploy sends Controller 47 services of
THT 18's 142, and all 142 with the prepare disabled, as tripleoclient did.

Nothing is pulled, pushed or probed: a dry run only names images. Two
parts of tripleo-common's dry run need a registry and are not done:

* ``tag_from_label`` in an entry without a ``tag`` asks the registry for
  each image's label: refused before Heat starts
  (:class:`~tripleo_ephemeral.exceptions.ContainerImagePrepareError`);
* ``DockerInsecureRegistryAddress`` came from an HTTPS probe of every
  registry host; here a host with an explicit port (a local registry such as
  the undercloud's ``<ip>:8787``, served over plain HTTP) is insecure and
  any other host secure. An environment that sets the parameter wins.
"""

import contextlib
import copy
import logging
import os
import re
import sys

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

PREPARE = 'ContainerImagePrepare'
ROLE_PREPARE = '%sContainerImagePrepare'
INSECURE = 'DockerInsecureRegistryAddress'

_PORT = re.compile(r':\d+$')


def default_prepare():
    """tripleo-common's default ``ContainerImagePrepare`` entries (what
    ``openstack tripleo container image prepare default`` writes)."""
    kolla_builder = _check_data()
    return copy.deepcopy(kolla_builder.CONTAINER_IMAGE_PREPARE_PARAM)


def default_environment(push_destination=False, registry_login=False):
    """The environment ``openstack tripleo container image prepare
    default`` writes: tripleo-common's default ``ContainerImagePrepare``
    (``push_destination: true`` in every entry with ``push_destination``)
    and, with ``registry_login``, ``ContainerImageRegistryLogin: true``."""
    entries = default_prepare()
    if push_destination:
        for entry in entries:
            entry['push_destination'] = True
    params = {PREPARE: entries}
    if registry_login:
        params['ContainerImageRegistryLogin'] = True
    return {'parameter_defaults': params}


def parameters(environment, roles, disable_container_prepare=False):
    """Return the generated ``parameter_defaults`` for a deploy.

    ``environment`` is the merged environment (``parameter_defaults`` and
    ``resource_registry``), ``roles`` the roles data. Neither is changed.
    """
    kolla_builder = _check_data()

    env = copy.deepcopy(environment)
    env.setdefault('parameter_defaults', {})
    env.setdefault('resource_registry', {})
    roles = copy.deepcopy(roles)
    with _library_errors('the roles\' counts and services'):
        params = kolla_builder.get_enabled_services(env, roles)
    with _image_template_read_fast():
        params.update(default_image_params())
    if disable_container_prepare:
        return params
    defaults = env['parameter_defaults']
    if not defaults.get(PREPARE):
        defaults[PREPARE] = default_prepare()
    check_offline(defaults, roles)
    with _offline_registry_check(), _image_template_read_fast():
        with _library_errors(PREPARE):
            params.update(kolla_builder.container_images_prepare_multi(
                env, roles, dry_run=True))
        for role in roles:
            name = ROLE_PREPARE % role['name']
            if not defaults.get(name):
                continue
            role_env = copy.deepcopy(env)
            role_env['parameter_defaults'][PREPARE] = defaults[name]
            with _library_errors(name):
                params['%sParameters' % role['name']] = (
                    kolla_builder.container_images_prepare_multi(
                        role_env, [role], dry_run=True))
    return params


def default_image_params():
    """``{<image parameter>: <image>}`` of every entry of tripleo-common's
    image template rendered with its defaults: what tripleo-common 18.0.0's
    ``plan.default_image_params`` returns, computed here with the same
    ``KollaImageBuilder`` call. That module is not imported: it imports
    passlib and pkg_resources (0.3 s) for its password functions."""
    from tripleo_common.image import kolla_builder

    data = os.path.join(sys.prefix, 'share', 'tripleo-common',
                        'container-images')
    builder = kolla_builder.KollaImageBuilder(
        [os.path.join(data, 'tripleo_containers.yaml.j2')], data)
    params = {}
    for entry in builder.container_images_from_template():
        for name in entry.get('params', ()):
            params[name] = entry.get('imagename', '')
    return params


def check_offline(defaults, roles):
    """Refuse prepare entries that need a registry to name their images.

    ``defaults`` are the merged ``parameter_defaults``.
    """
    names = [PREPARE] + [ROLE_PREPARE % role['name'] for role in roles]
    for name in names:
        entries = defaults.get(name)
        if not entries:
            continue
        if not isinstance(entries, list):
            raise exceptions.ContainerImagePrepareError(
                'Parameter %s must be a list of prepare entries (mappings '
                'with set, includes, excludes...), got %s' % (
                    name, type(entries).__name__))
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(
                    entry.get('set', {}), dict):
                raise exceptions.ContainerImagePrepareError(
                    'Entry %d of %s must be a mapping whose set is a '
                    'mapping' % (index, name))
            if entry.get('tag_from_label') and not (
                    entry.get('set') or {}).get('tag'):
                raise exceptions.ContainerImagePrepareError(
                    'Entry %d of %s has tag_from_label %r and no tag: '
                    'finding the tag needs a container registry, which a '
                    'deploy does not contact; give the entry a tag in its '
                    'set, or pass --disable-container-prepare and set the '
                    'Container*Image parameters yourself' % (
                        index, name, entry['tag_from_label']))


def insecure_registries(params, lock=None):
    """Offline stand-in of ``kolla_builder.detect_insecure_registries``:
    the hosts of ``params``' images that name a port."""
    hosts = {str(image).split('/')[0] for image in params.values()}
    insecure = sorted(host for host in hosts if _PORT.search(host))
    return {INSECURE: insecure} if insecure else {}


@contextlib.contextmanager
def _offline_registry_check():
    """Use :func:`insecure_registries` for tripleo-common 18.0.0's probe
    while the prepare runs (its module function, called by name from
    ``container_images_prepare``); the original is put back after."""
    from tripleo_common.image import kolla_builder

    original = kolla_builder.detect_insecure_registries
    kolla_builder.detect_insecure_registries = insecure_registries
    try:
        yield
    finally:
        kolla_builder.detect_insecure_registries = original


class _FastYaml:
    """tripleo-common's ``yaml`` module as its image template sees it in
    :func:`_image_template_read_fast`."""

    def __getattr__(self, name):
        return getattr(yaml, name)

    @staticmethod
    def safe_load(text):  # kolla_builder gives the rendered text
        return yamlfile.loads(text, limits=yamlfile.OWN, json_first=False)


@contextlib.contextmanager
def _image_template_read_fast():
    """The rendered image template (78 kB, read twice a deploy) parsed by
    libyaml (through :mod:`.yamlfile`), the same data about ten times
    faster, while tripleo-common reads it: its ``kolla_builder`` calls its
    ``yaml`` module's ``safe_load``, PyYAML's pure-Python loader; the
    module is put back after."""
    from tripleo_common.image import kolla_builder

    original = kolla_builder.yaml
    kolla_builder.yaml = _FastYaml()
    try:
        yield
    finally:
        kolla_builder.yaml = original


@contextlib.contextmanager
def _library_errors(what):
    """tripleo-common's errors on bad input, as one line naming ``what``."""
    import jinja2

    try:
        yield
    except (ValueError, TypeError, KeyError, AttributeError, re.error,
            jinja2.TemplateError) as exc:
        raise exceptions.ContainerImagePrepareError(
            'The container image prepare could not use %s: %s: %s; fix it '
            'in your environment files' % (what, type(exc).__name__, exc))


def _check_data():
    """tripleo-common's ``kolla_builder``, imported when first needed (it
    takes a quarter of a second: passlib, pkg_resources), once its image
    data is known to be there: it finds it under ``sys.prefix`` only."""
    from tripleo_common.image import kolla_builder

    if kolla_builder.CONTAINER_IMAGE_PREPARE_PARAM is None:
        raise exceptions.ContainerImagePrepareError(
            'tripleo-common\'s container image data is not installed (looked '
            'for %s): install tripleo-ephemeral and tripleo-common into a '
            'virtualenv or the system Python with pip, not with --target or '
            'PYTHONPATH' % kolla_builder.DEFAULT_PREPARE_FILE)
    return kolla_builder
