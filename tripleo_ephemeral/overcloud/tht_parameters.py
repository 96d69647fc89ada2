"""The environment of parameters tripleoclient computed before a deploy.

tripleo-heat-templates leave ``<Role>Services`` and the ``Container*Image``
parameters to the client: :mod:`~tripleo_ephemeral.overcloud.
container_images` computes them with tripleo-common from the environments
of the deploy merged the way heatclient merges them, and this module
writes them as one environment of the work dir (``<stack>-tht-parameters
.yaml``). It comes before the user's environment files, so a value given
there wins, as it did with tripleoclient.

Template sets that declare neither kind of parameter ignore the extra
``parameter_defaults``.
"""

import logging

from heatclient.common import template_utils

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import container_images
from tripleo_ephemeral.overcloud import yamlfile

LOG = logging.getLogger(__name__)

_SECTIONS = ('parameter_defaults', 'resource_registry')


def merged_environment(paths):
    """Return the merged ``parameter_defaults`` and ``resource_registry``.

    Later files win, nested mappings are merged (heatclient's
    ``deep_update``, as tripleoclient merged them client side).
    """
    merged = {section: {} for section in _SECTIONS}
    for path in paths:
        env = yamlfile.load(path, 'Environment file',
                            exceptions.EnvironmentFileError) or {}
        if not isinstance(env, dict):
            continue
        template_utils.deep_update(
            merged, {section: env[section] for section in _SECTIONS
                     if isinstance(env.get(section), dict)})
    return merged


def build(roles, environment_paths, disable_container_prepare=False):
    """Return the generated ``parameter_defaults`` for the roles."""
    return container_images.parameters(
        merged_environment(environment_paths), roles,
        disable_container_prepare=disable_container_prepare)


def prepare_environment(roles, path, environment_paths=(),
                        disable_container_prepare=False):
    """Write the generated parameters as the environment ``path``; return
    it.

    ``environment_paths`` are the environments of the deploy, in order
    (registry first); they decide counts, services and images.
    """
    params = build(roles, environment_paths,
                   disable_container_prepare=disable_container_prepare)
    yamlfile.write(path, {'parameter_defaults': params}, mode=0o600)
    LOG.info('Wrote %d generated parameters (role services, container '
             'images) to %s', len(params), path)
    return path
