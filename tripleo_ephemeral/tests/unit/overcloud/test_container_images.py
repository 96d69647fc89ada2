"""The image prepare through tripleo-common, on small roles and
environments (tests/functional/test_container_images.py compares THT 18's
with the reference chain)."""

import contextlib
import copy

import pytest
import yaml
from tripleo_common.image import kolla_builder

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import container_images as ci

DEFAULT_NS = 'quay.io/tripleomastercentos9'
KEYSTONE = 'OS::TripleO::Services::Keystone'
NOVA_COMPUTE = 'OS::TripleO::Services::NovaCompute'
DISABLED = 'OS::TripleO::Services::Ironic'
ROLES = [
    {'name': 'Controller', 'CountDefault': 1,
     'ServicesDefault': [KEYSTONE, DISABLED]},
    {'name': 'Compute', 'CountDefault': 1,
     'ServicesDefault': [NOVA_COMPUTE]},
    {'name': 'Spare', 'ServicesDefault': [KEYSTONE]},
]


def _env(**defaults):
    """THT's registry sets <Role>Services to the roles' ServicesDefault."""
    pd = {'ControllerServices': [KEYSTONE, DISABLED],
          'ComputeServices': [NOVA_COMPUTE],
          'SpareServices': [KEYSTONE]}
    pd.update(defaults)
    return {'parameter_defaults': pd,
            'resource_registry': {DISABLED: 'OS::Heat::None'}}


def test_default_prepare_is_tripleo_commons():
    prepare = ci.default_prepare()
    assert prepare == kolla_builder.CONTAINER_IMAGE_PREPARE_PARAM
    assert prepare is not kolla_builder.CONTAINER_IMAGE_PREPARE_PARAM
    assert prepare[0]['set']['namespace'] == DEFAULT_NS
    assert prepare[0]['tag_from_label'] == 'rdo_version'


def test_services_filtered_by_the_prepare_and_counts():
    env, roles = _env(), copy.deepcopy(ROLES)
    params = ci.parameters(env, roles)
    assert params['ControllerServices'] == [KEYSTONE]
    assert params['ComputeServices'] == [NOVA_COMPUTE]
    assert params['SpareServices'] == []
    # Neither input is changed.
    assert env == _env() and roles == ROLES


def test_disabled_prepare_keeps_services_and_default_images():
    params = ci.parameters(_env(ContainerImagePrepare=[
        {'set': {'namespace': 'registry.example.com/x', 'tag': 't'}}]),
        ROLES, disable_container_prepare=True)
    assert params['ControllerServices'] == [KEYSTONE, DISABLED]
    assert params['ContainerKeystoneImage'] == (
        DEFAULT_NS + '/openstack-keystone:current-tripleo')
    assert 'DockerInsecureRegistryAddress' not in params


def test_default_image_params_for_every_image():
    params = ci.parameters(_env(), ROLES)
    images = {k: v for k, v in params.items() if k.endswith('Image')}
    assert len(images) == 148  # tripleo-common 18.0.0's template
    assert images['ContainerCrondImage'] == (
        DEFAULT_NS + '/openstack-cron:current-tripleo')
    assert images['ContainerCephDaemonImage'] == (
        'quay.rdoproject.org/tripleomastercentos9/daemon:current-ceph')


def test_prepare_entries_excludes_includes_and_ceph():
    prepare = [
        {'set': {'namespace': 'registry.example.com/ns', 'name_prefix': 'os',
                 'tag': '1', 'ceph_namespace': 'registry.example.com/ceph',
                 'ceph_image': 'ceph-daemon', 'ceph_tag': 'v6'},
         'excludes': ['nova-compute']},
        {'set': {'namespace': 'registry.example.com/special', 'tag': 'c'},
         'includes': ['nova-compute']},
    ]
    params = ci.parameters(_env(ContainerImagePrepare=prepare), ROLES)
    assert params['ContainerKeystoneImage'] == (
        'registry.example.com/ns/os-keystone:1')
    assert params['ContainerNovaComputeImage'] == (
        'registry.example.com/special/openstack-nova-compute:c')
    # Images of services no role enables keep tripleo-common's defaults.
    assert params['ContainerIronicApiImage'] == (
        DEFAULT_NS + '/openstack-ironic-api:current-tripleo')
    # No Ceph service is enabled: the Ceph images stay the defaults.
    assert params['ContainerCephDaemonImage'].endswith('daemon:current-ceph')
    assert 'DockerInsecureRegistryAddress' not in params


def test_role_prepare_gives_role_parameters():
    params = ci.parameters(_env(ComputeContainerImagePrepare=[
        {'set': {'namespace': 'registry.example.com/compute', 'tag': 'c1'}}]),
        ROLES)
    assert params['ComputeParameters'] == {
        'ContainerNovaComputeImage':
            'registry.example.com/compute/openstack-nova-compute:c1',
        'ContainerNovaLibvirtConfigImage':
            'registry.example.com/compute/openstack-nova-compute:c1',
    }
    assert 'ControllerParameters' not in params


def test_push_destination_is_an_insecure_registry():
    params = ci.parameters(_env(ContainerImagePrepare=[
        {'push_destination': '192.168.24.1:8787',
         'set': {'namespace': 'registry.example.com/ns', 'tag': '1'}}]),
        ROLES)
    assert params['ContainerKeystoneImage'] == (
        '192.168.24.1:8787/ns/openstack-keystone:1')
    assert params['DockerInsecureRegistryAddress'] == ['192.168.24.1:8787']
    # tripleo-common's own (network) probe is back in place.
    assert kolla_builder.detect_insecure_registries is not (
        ci.insecure_registries)


def test_insecure_registries_rule():
    assert ci.insecure_registries({
        'A': 'quay.io/ns/a:1', 'B': 'undercloud:8787/ns/b:1',
        'C': '[fd00::1]:5000/c:1', 'D': 'localhost/d:2'}) == {
        'DockerInsecureRegistryAddress': ['[fd00::1]:5000', 'undercloud:8787']}
    assert ci.insecure_registries({'A': 'quay.io/ns/a:1'}) == {}


def test_tag_from_label_without_tag_needs_a_registry():
    env = _env(ContainerImagePrepare=[
        {'set': {'namespace': 'quay.io/ns', 'tag': 'x'}},
        {'tag_from_label': 'rdo_version', 'set': {'namespace': 'quay.io/ns'}},
    ])
    with pytest.raises(exceptions.ContainerImagePrepareError,
                       match=r'^Entry 1 of ContainerImagePrepare has '
                             r'tag_from_label .*give the entry a tag.*'
                             r'--disable-container-prepare'):
        ci.parameters(env, ROLES)
    with pytest.raises(exceptions.ContainerImagePrepareError,
                       match='Entry 0 of ComputeContainerImagePrepare'):
        ci.parameters(_env(ComputeContainerImagePrepare=[
            {'tag_from_label': 'x'}]), ROLES)
    # With the prepare disabled nothing asks a registry.
    assert ci.parameters(env, ROLES, disable_container_prepare=True)


def test_tag_from_label_with_a_tag_is_inert():
    params = ci.parameters(_env(ContainerImagePrepare=[
        {'tag_from_label': 'rdo_version',
         'set': {'namespace': 'quay.io/ns', 'tag': 'x'}}]), ROLES)
    assert params['ContainerKeystoneImage'] == (
        'quay.io/ns/openstack-keystone:x')


@pytest.mark.parametrize('prepare,match', [
    ({'set': {}}, 'must be a list'),
    (['text'], 'Entry 0 of ContainerImagePrepare must be a mapping'),
    ([{'set': ['a']}], 'Entry 0 of ContainerImagePrepare must be a mapping'),
    ([{'set': {'tag': 'x'}, 'includes': ['(']}],
     'could not use ContainerImagePrepare: error'),
])
def test_bad_prepare(prepare, match):
    with pytest.raises(exceptions.ContainerImagePrepareError, match=match):
        ci.parameters(_env(ContainerImagePrepare=prepare), ROLES)


def test_bad_count():
    with pytest.raises(exceptions.ContainerImagePrepareError,
                       match='ComputeCount'):
        ci.parameters(_env(ComputeCount='two'), ROLES)


def test_image_data_missing(monkeypatch):
    monkeypatch.setattr(kolla_builder, 'CONTAINER_IMAGE_PREPARE_PARAM', None)
    with pytest.raises(exceptions.ContainerImagePrepareError,
                       match='container image data is not installed'):
        ci.parameters(_env(), ROLES)


def test_default_environment_as_tripleoclient_writes_it():
    plain = ci.default_environment()
    assert plain == {'parameter_defaults': {
        'ContainerImagePrepare': ci.default_prepare()}}
    pushed = ci.default_environment(
        push_destination=True, registry_login=True)['parameter_defaults']
    assert all(e['push_destination'] is True
               for e in pushed['ContainerImagePrepare'])
    assert pushed['ContainerImageRegistryLogin'] is True


def test_default_image_params_are_tripleo_commons():
    from tripleo_common.utils import plan as plan_utils

    assert ci.default_image_params() == plan_utils.default_image_params()


def test_image_template_read_fast_gives_stock_results(monkeypatch):
    """libyaml reads tripleo-common's rendered template as its own loader
    does: the parameters are the same with the swap turned into a no-op;
    tripleo-common's module is put back after."""
    env = _env(ContainerImagePrepare=[
        {'set': {'namespace': 'registry.example.com:8787/x', 'tag': 't'},
         'excludes': ['nova']}])
    fast = ci.parameters(env, ROLES)
    assert kolla_builder.yaml is yaml
    monkeypatch.setattr(ci, '_image_template_read_fast',
                        contextlib.nullcontext)
    assert ci.parameters(env, ROLES) == fast
