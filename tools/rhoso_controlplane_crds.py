#!/usr/bin/env python3
"""Bundle the CRD schemas of the RHOSO control plane's documents.

    tools/rhoso_controlplane_crds.py --operator-git DIR --nmstate-git DIR \\
        --metallb-git DIR --nad-git DIR \\
        --version 18.0-fr2=18.0-fr2 --version 18.0-fr6=18.0-fr6

``--version NAME=OPERATOR_REF`` writes
``tripleo_ephemeral/rhoso/schemas/controlplane/NAME.json``: the
OpenStackControlPlane of openstack-k8s-operators/openstack-operator at that
ref, and the OpenShift networking kinds the adoption's control-plane
networking writes, the same for every RHOSO version (``--nmstate-ref``,
``--metallb-ref``, ``--nad-ref``): NodeNetworkConfigurationPolicy
(nmstate/kubernetes-nmstate), NetworkAttachmentDefinition
(k8snetworkplumbingwg/network-attachment-definition-client), IPAddressPool
and L2Advertisement (metallb/metallb). Read with ``git show``; nothing is
checked out.

Each kind keeps the ``openAPIV3Schema`` of its storage version without
``description`` texts and ``status``. The OpenStackControlPlane is a
megabyte of YAML whose Kubernetes types (affinity, volumes, probes...)
repeat: every subtree of 400 bytes or more that occurs twice is kept once
under ``definitions`` and referred to by ``$ref`` (lossless; the loader
resolves them). A CRD that does not list ``apiVersion`` and ``kind``
(NetworkAttachmentDefinition) gets them as strings, as the API server
accepts them on every object. Needs only the standard library, git and
PyYAML.
"""

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, 'tripleo_ephemeral', 'rhoso', 'schemas',
                    'controlplane')
REPOS = {
    'operator': 'https://github.com/openstack-k8s-operators/'
                'openstack-operator',
    'nmstate': 'https://github.com/nmstate/kubernetes-nmstate',
    'metallb': 'https://github.com/metallb/metallb',
    'nad': 'https://github.com/k8snetworkplumbingwg/'
           'network-attachment-definition-client',
}
#: kind -> (repository, candidate paths, first found)
KINDS = {
    'OpenStackControlPlane': ('operator', (
        'api/bases/core.openstack.org_openstackcontrolplanes.yaml',
        'apis/bases/core.openstack.org_openstackcontrolplanes.yaml')),
    'NodeNetworkConfigurationPolicy': ('nmstate', (
        'deploy/crds/nmstate.io_nodenetworkconfigurationpolicies.yaml',)),
    'NetworkAttachmentDefinition': ('nad', ('artifacts/networks-crd.yaml',)),
    'IPAddressPool': ('metallb', (
        'config/crd/bases/metallb.io_ipaddresspools.yaml',)),
    'L2Advertisement': ('metallb', (
        'config/crd/bases/metallb.io_l2advertisements.yaml',)),
}
MIN_SHARED = 400
#: Keywords whose value maps names to schemas.
NAME_MAPS = ('properties', 'patternProperties', 'definitions')


def git(repo, *args):
    return subprocess.run(['git', '--git-dir', repo] + list(args),
                          check=True, capture_output=True, text=True).stdout


def strip(schema):
    if isinstance(schema, dict):
        return {k: strip(v) for k, v in schema.items() if k != 'description'}
    if isinstance(schema, list):
        return [strip(v) for v in schema]
    return schema


def _text(value):
    return json.dumps(value, sort_keys=True, separators=(',', ':'))


def shared(schema):
    """``schema`` with every repeated subtree of :data:`MIN_SHARED` bytes
    or more moved under ``definitions`` (``$ref`` where it was)."""
    counts = collections.Counter()

    def count(node):
        if isinstance(node, dict):
            text = _text(node)
            if len(text) >= MIN_SHARED:
                counts[text] += 1
            for value in node.values():
                count(value)
        elif isinstance(node, list):
            for value in node:
                count(value)

    count(schema)
    definitions = {}

    def replace(node, top=False):
        if isinstance(node, dict):
            text = _text(node)
            if not top and counts[text] > 1:
                name = hashlib.sha256(text.encode()).hexdigest()[:12]
                if name not in definitions:
                    definitions[name] = None
                    definitions[name] = replace(node, top=True)
                return {'$ref': '#/definitions/%s' % name}
            # a map of property names is no schema: only its values are
            return {k: {n: replace(s) for n, s in v.items()}
                    if k in NAME_MAPS and isinstance(v, dict) else replace(v)
                    for k, v in node.items()}
        if isinstance(node, list):
            return [replace(v) for v in node]
        return node

    result = replace(schema, top=True)
    if definitions:
        result['definitions'] = definitions
    return result


def kind_schema(repo, url, ref, paths):
    files = set(git(repo, 'ls-tree', '-r', '--name-only', ref).split())
    path = next((p for p in paths if p in files), None)
    if path is None:
        raise SystemExit('%s has none of %s at %s' % (repo, paths, ref))
    crd = yaml.load(git(repo, 'show', '%s:%s' % (ref, path)),
                    Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))
    spec = crd['spec']
    version = next(v for v in spec['versions']
                   if v.get('storage') or len(spec['versions']) == 1)
    schema = strip(version['schema']['openAPIV3Schema'])
    properties = schema.setdefault('properties', {})
    properties.pop('status', None)
    for name in ('apiVersion', 'kind'):
        properties.setdefault(name, {'type': 'string'})
    return {
        'apiVersion': '%s/%s' % (spec['group'], version['name']),
        'source': {'repository': url, 'ref': ref,
                   'commit': git(repo, 'rev-parse', ref + '^{commit}').strip(),
                   'path': path},
        'openAPIV3Schema': shared(schema),
    }


def bundle(name, repos, refs):
    kinds = {}
    for kind, (which, paths) in KINDS.items():
        kinds[kind] = kind_schema(repos[which], REPOS[which], refs[which],
                                  paths)
    return {'version': name, 'generator': 'tools/rhoso_controlplane_crds.py',
            'kinds': kinds}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    for which in REPOS:
        parser.add_argument('--%s-git' % which, required=True,
                            help='%s git dir' % REPOS[which])
    parser.add_argument('--nmstate-ref', default='v0.83.0')
    parser.add_argument('--metallb-ref', default='v0.14.9')
    parser.add_argument('--nad-ref', default='HEAD')
    parser.add_argument('--version', action='append', required=True,
                        help='NAME=OPERATOR_REF')
    args = parser.parse_args(argv)
    repos = {which: getattr(args, '%s_git' % which) for which in REPOS}
    os.makedirs(DEST, exist_ok=True)
    for spec in args.version:
        name, _, ref = spec.partition('=')
        refs = {'operator': ref or name, 'nmstate': args.nmstate_ref,
                'metallb': args.metallb_ref, 'nad': args.nad_ref}
        data = bundle(name, repos, refs)
        path = os.path.join(DEST, '%s.json' % name)
        with open(path, 'w') as f:
            json.dump(data, f, sort_keys=True, separators=(',', ':'))
            f.write('\n')
        print('%s: %d bytes' % (path, os.path.getsize(path)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
