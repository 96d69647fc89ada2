"""The control plane's bundled CRD schemas and the sharing that keeps
them small."""

import importlib.util
import json
import os

from tripleo_ephemeral.rhoso import schema
from tripleo_ephemeral.rhoso.controlplane import schemas

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))


def tool():
    path = os.path.join(ROOT, 'tools', 'rhoso_controlplane_crds.py')
    spec = importlib.util.spec_from_file_location('rhoso_cp_crds', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bundled_beside_the_data_planes_with_their_source():
    assert schemas.versions() == schema.versions()
    bundle = schemas.load('18.0-fr2')
    assert 'OpenStackDataPlaneNodeSet' in bundle.kinds
    for kind, repository in (
            ('OpenStackControlPlane', 'openstack-operator'),
            ('NodeNetworkConfigurationPolicy', 'kubernetes-nmstate'),
            ('NetworkAttachmentDefinition',
             'network-attachment-definition-client'),
            ('IPAddressPool', 'metallb'), ('L2Advertisement', 'metallb')):
        source = bundle.kinds[kind].source
        assert source['repository'].endswith(repository)
        assert len(source['commit']) == 40
    assert bundle.kinds['OpenStackControlPlane'].source['commit'].startswith(
        '2323524c')


def test_sharing_is_lossless():
    shared = tool().shared
    node = {'type': 'object', 'properties': {
        name: {'type': 'object', 'properties': {
            'big': {'type': 'string', 'enum': ['x' * 500]}}}
        for name in ('a', 'b', 'c')}}
    packed = shared(node)
    assert len(packed['definitions']) == 2  # the repeated subtree, its leaf
    assert len(json.dumps(packed)) < len(json.dumps(node))
    assert schemas.resolve(packed) == node


def test_refs_resolve_into_a_checkable_schema():
    bundle = schemas.load('18.0-fr6')
    kind = bundle.kinds['OpenStackControlPlane']
    assert '$ref' not in json.dumps(kind.openapi)
    document = {'apiVersion': kind.api_version, 'kind': kind.kind,
                'metadata': {'name': 'openstack'},
                'spec': {'secret': 'osp-secret', 'storageClass': 'x',
                         'extraMounts': [{'extraVol': [{
                             'volumes': [{'name': 'v', 'projected': {
                                 'sources': [{'secret': {'name': 's',
                                                         'bogus': 1}}]}}],
                             'mounts': []}]}]}}
    found = schema.check(bundle, document, 'doc')
    assert [p.path for p in found] == [
        'spec.extraMounts[0].extraVol[0].volumes[0].projected.sources[0].'
        'secret.bogus']
