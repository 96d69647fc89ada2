"""The image parameters and <Role>Services of tripleo-heat-templates 18.0.0,
against the reference chain.

The reference is computed the way tripleoclient 20.0.0's
``utils.build_enabled_sevices_image_params`` did, independently of our code
path: THT copied and rendered by its own ``tools/process-templates.py``, the
environments merged by heatclient (``process_environment_and_files`` and
``deep_update``), then tripleo-common's ``get_enabled_services``,
``default_image_params``, ``container_images_prepare_multi(dry_run=True)``
and the ``<Role>ContainerImagePrepare`` loop. Ours: our rendering and
:func:`tht_parameters.build`. Registries are never contacted: the
reference's HTTPS probe of each registry is answered by what the test
registries are (the undercloud's serves plain HTTP).
"""

import copy
import os
import shutil
import subprocess
import sys

from heatclient.common import template_utils
import pytest
from tripleo_common.image import image_uploader
from tripleo_common.image import kolla_builder
from tripleo_common.utils import plan as plan_utils
import yaml

from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import roles as roles_mod
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.overcloud import tht_parameters
from tripleo_ephemeral.tests.functional import helpers

REGISTRY = 'overcloud-resource-registry-puppet.yaml'
PLAIN_HTTP_REGISTRIES = {'192.168.24.1:8787'}
CUSTOM = {'parameter_defaults': {
    'ContainerImagePrepare': [
        {'push_destination': '192.168.24.1:8787',
         'set': {'namespace': 'registry.example.com/myns',
                 'name_prefix': 'os', 'tag': '17.1',
                 'ceph_namespace': 'registry.example.com/ceph',
                 'ceph_image': 'ceph-daemon', 'ceph_tag': 'v6'},
         'excludes': ['nova-compute']},
        {'set': {'namespace': 'registry.example.com/special',
                 'name_prefix': 'openstack-', 'tag': 'custom'},
         'includes': ['nova-compute']}],
    'ComputeContainerImagePrepare': [
        {'set': {'namespace': 'registry.example.com/compute',
                 'name_prefix': 'openstack-', 'tag': 'c1'}}],
    'NeutronMechanismDrivers': 'openvswitch',
    'ComputeCount': 2,
}}


@pytest.fixture(scope='module')
def inputs(tht_dir, tmp_path_factory):
    """THT's roles and networks data, rendered by us and by THT's tool."""
    base = tmp_path_factory.mktemp('images')
    roles_file = os.path.join(tht_dir, 'roles_data.yaml')
    networks_file = os.path.join(tht_dir, 'network_data_default.yaml')
    roles = roles_mod.load_roles(roles_file)
    ours = template_processing.prepare_templates(
        tht_dir, str(base / 'ours'), roles,
        network_data.load_networks(networks_file))
    theirs = str(base / 'theirs')
    shutil.copytree(tht_dir, theirs, symlinks=True)
    subprocess.run(
        [sys.executable, os.path.join(tht_dir, 'tools',
                                      'process-templates.py'),
         '--roles-data', roles_file, '--network-data', networks_file,
         '-p', theirs], cwd=theirs, check=True, capture_output=True)
    with open(roles_file) as f:
        reference_roles = yaml.safe_load(f)
    envs = {}
    for name, data in (('custom', CUSTOM), ('prepare-default', {
            'parameter_defaults': {'ContainerImagePrepare': copy.deepcopy(
                kolla_builder.CONTAINER_IMAGE_PREPARE_PARAM)}})):
        envs[name] = str(base / ('%s.yaml' % name))
        with open(envs[name], 'w') as f:
            yaml.safe_dump(data, f)
    return {'ours': ours, 'theirs': theirs, 'roles': roles,
            'reference_roles': reference_roles, 'envs': envs}


@pytest.fixture
def no_registry(monkeypatch):
    """The reference's registry probe, answered without a network."""
    monkeypatch.setattr(
        image_uploader.BaseImageUploader, 'is_insecure_registry',
        classmethod(lambda cls, host: host in PLAIN_HTTP_REGISTRIES))


def reference(rendered, roles, env_files, disable_container_prepare=False):
    """tripleoclient 20.0.0's utils.build_enabled_sevices_image_params."""
    env = {}
    for path in [os.path.join(rendered, REGISTRY)] + env_files:
        env = template_utils.deep_update(
            env, template_utils.process_environment_and_files(
                env_path=path)[1])
    roles = copy.deepcopy(roles)
    params = {}
    params.update(kolla_builder.get_enabled_services(env, roles))
    params.update(plan_utils.default_image_params())
    if disable_container_prepare:
        return params
    params.update(kolla_builder.container_images_prepare_multi(
        env, roles, dry_run=True))
    for role in roles:
        role_param = '%sContainerImagePrepare' % role['name']
        if env.get('parameter_defaults', {}).get(role_param):
            tmp_env = copy.deepcopy(env)
            tmp_env['parameter_defaults']['ContainerImagePrepare'] = (
                env['parameter_defaults'][role_param])
            params['%sParameters' % role['name']] = (
                kolla_builder.container_images_prepare_multi(
                    tmp_env, [role], dry_run=True))
    return params


def ours(inputs, env_files, disable_container_prepare=False):
    return tht_parameters.build(
        inputs['roles'],
        template_processing.resource_registry(inputs['ours']) + env_files,
        disable_container_prepare=disable_container_prepare)


def _images(params):
    return {k: v for k, v in params.items() if k.endswith('Image')}


def _counts(params):
    return {k: len(v) for k, v in params.items()
            if k.endswith('Services')}


@pytest.mark.parametrize('env_names,disable', [
    ((), False),
    (('prepare-default',), False),
    (('custom',), False),
    (('custom',), True),
], ids=['default', 'prepare-default-file', 'custom', 'custom-disabled'])
def test_equal_to_the_reference(inputs, no_registry, env_names, disable):
    env_files = [inputs['envs'][name] for name in env_names]
    expected = reference(inputs['theirs'], inputs['reference_roles'],
                         env_files, disable)
    got = ours(inputs, env_files, disable)
    assert got == expected
    # tripleo-common 18.0.0's template: every image parameter is sent.
    assert len(_images(got)) == 148
    counts = _counts(got)
    if disable:
        assert (counts['ControllerServices'],
                counts['ComputeServices']) == (142, 43)
    else:
        assert (counts['ControllerServices'],
                counts['ComputeServices']) == (47, 20)
    assert counts['CephStorageServices'] == 0


def test_what_the_custom_prepare_gives(inputs, no_registry):
    got = ours(inputs, [inputs['envs']['custom']])
    assert got['ContainerNovaComputeImage'] == (
        'registry.example.com/special/openstack-nova-compute:custom')
    assert got['ContainerKeystoneImage'] == (
        '192.168.24.1:8787/myns/os-keystone:17.1')
    assert got['DockerInsecureRegistryAddress'] == ['192.168.24.1:8787']
    assert got['ComputeParameters']['ContainerNovaComputeImage'] == (
        'registry.example.com/compute/openstack-nova-compute:c1')


def test_tag_from_label_fails_before_heat(cli, work_dir, port, tmp_path):
    env = tmp_path / 'tag-from-label.yaml'
    env.write_text(yaml.safe_dump({'parameter_defaults': {
        'ContainerImagePrepare': [{'tag_from_label': 'rdo_version',
                                   'set': {'namespace': 'quay.io/x'}}]}}))
    done = cli.deploy(work_dir, '-e', str(env), port=port, check=False)
    error = helpers.one_line_error(done.proc)
    assert error.startswith('Entry 0 of ContainerImagePrepare has '
                            'tag_from_label'), error
    assert '--disable-container-prepare' in error
    helpers.assert_no_heat_left(helpers.Layout(work_dir).heat_dir, port)
