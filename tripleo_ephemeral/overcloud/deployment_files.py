"""The file of one software deployment in config-download, as
tripleo-common 18.0.0's config download wrote it (its ``deployment.j2``,
from the installed package), and where the deployment goes in a host's
``host_vars`` (pre_network, pre_deployments or post_deployments).

The deployments themselves come from
:mod:`tripleo_ephemeral.overcloud.deployments`.
"""

import copy
import json
import os

import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral import secret_forms

#: tripleo-common's templates (package, directory).
TEMPLATES = ('tripleo_common', 'templates')


def _input_value(config, name):
    for item in config.get('inputs') or []:
        if item.get('name') == name:
            return item.get('value')
    return None


def kind(deployment):
    """Return pre_network, pre_deployments or post_deployments."""
    config = deployment.get('config') or {}
    where = ' '.join(str(x) for x in (
        config.get('name'), _input_value(config, 'deploy_stack_id'),
        _input_value(config, 'deploy_resource_name')) if x)
    if 'ExtraConfigPost' in where or 'PostConfig' in where:
        return 'post_deployments'
    if 'PreNetworkConfig' in where:
        return 'pre_network'
    return 'pre_deployments'


def name(deployment):
    """The name of a deployment's file (saved deployments of an older
    release have no ``deployment_name``: the config's name then)."""
    config = deployment.get('config') or {}
    return (deployment.get('deployment_name') or config.get('name') or
            _input_value(config, 'deploy_resource_name'))


def template():
    import jinja2  # when a file is rendered, not when a parser is built

    package, directory = TEMPLATES
    env = jinja2.Environment(loader=jinja2.PackageLoader(package, directory),
                             trim_blocks=True)
    return env.get_template('deployment.j2')


def document(deployment, server_id, jinja_template=None):
    """Return ``(name, text)`` of one deployment's file.

    The file is what tripleo-common's config download wrote: its
    ``deployment.j2`` rendered with the deployment's software config (its
    ``id`` and ``creation_time`` are the config's), ``deploy_server_id``
    set to the server and a JSON config body pretty-printed with sorted
    keys (a ``hiera`` config stays a mapping, any other a text).
    """
    config = copy.deepcopy(deployment.get('config') or {})
    file_name = name(deployment)
    if not file_name:
        raise exceptions.StackOutputsError(
            'Deployment %s has no name: set the name property of the '
            'deployment resource in the templates' % deployment.get('id'))
    if file_name != os.path.basename(file_name) or file_name in ('.', '..'):
        raise exceptions.StackOutputsError(
            'Deployment name %r is not a usable file name: rename it in '
            'the templates' % file_name)
    config['deployment_name'] = file_name
    for item in config.get('inputs') or []:
        if item.get('name') == 'deploy_server_id':
            item['value'] = server_id
    body = config.get('config')
    try:
        body = json.loads(body)
    except (TypeError, ValueError):
        pass
    if not isinstance(body, str):
        # Sorted: the same whether the deployment came from Heat or from
        # the saved outputs (a re-render changes no byte). Astral
        # characters as they are: YAML refuses their JSON escapes.
        body = secret_forms.json_for_yaml(body, indent=2, sort_keys=True)
    config['config'] = body
    # heat-config's hiera hook took a mapping, every other hook a text.
    config['scalar'] = config.get('group') != 'hiera'
    text = (jinja_template or template()).render(
        deployment=config, server_id=server_id)
    try:
        yamlfile.loads(text, limits=yamlfile.OWN, json_first=False)
    except yaml.YAMLError as exc:
        raise exceptions.StackOutputsError(
            'Deployment %s gives an invalid YAML file (%s): check its '
            'config and inputs in the templates' % (file_name, exc))
    return file_name, text
