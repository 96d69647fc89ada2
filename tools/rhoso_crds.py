#!/usr/bin/env python3
"""Bundle the RHOSO CRD schemas ``overcloud adoption validate`` uses.

    tools/rhoso_crds.py --operator-git DIR --infra-git DIR \\
        --version 18.0-fr2=18.0-fr2:18.0-fr2 \\
        --version 18.0-fr6=18.0-fr6:18.0-fr6

``--version NAME=OPERATOR_REF:INFRA_REF`` writes
``tripleo_ephemeral/rhoso/schemas/NAME.json`` from the git repositories of
openstack-k8s-operators/openstack-operator (the dataplane CRDs) and
infra-operator (NetConfig) at those refs (branches, tags or commits; read
with ``git show``, nothing is checked out). Each kind keeps only the
``openAPIV3Schema`` of its served version without ``description`` texts and
without ``status`` (the API server's), and records its repository, ref,
commit and path; ``defaultServices`` lists the services the operator
creates itself (``config/services/``). Needs only the standard library,
git and PyYAML.
"""

import argparse
import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, 'tripleo_ephemeral', 'rhoso', 'schemas')
OPERATOR = 'https://github.com/openstack-k8s-operators/openstack-operator'
INFRA = 'https://github.com/openstack-k8s-operators/infra-operator'
#: kind -> (which repository, the CRD file name under <api|apis>/bases/)
KINDS = {
    'OpenStackDataPlaneNodeSet': (
        'operator', 'dataplane.openstack.org_openstackdataplanenodesets.yaml'),
    'OpenStackDataPlaneDeployment': (
        'operator',
        'dataplane.openstack.org_openstackdataplanedeployments.yaml'),
    'OpenStackDataPlaneService': (
        'operator', 'dataplane.openstack.org_openstackdataplaneservices.yaml'),
    'NetConfig': ('infra', 'network.openstack.org_netconfigs.yaml'),
}


SERVICES_DIR = 'config/services'


def git(repo, *args):
    return subprocess.run(['git', '--git-dir', repo] + list(args), check=True,
                          capture_output=True, text=True).stdout


def find_path(repo, ref, name):
    """``api/bases/<name>`` (openstack-operator 18.0-fr5 and later) or
    ``apis/bases/<name>``."""
    files = git(repo, 'ls-tree', '-r', '--name-only', ref).split()
    for base in ('api/bases/', 'apis/bases/'):
        if base + name in files:
            return base + name
    raise SystemExit('%s has no %s at %s' % (repo, name, ref))


def strip(schema):
    """The schema without descriptions (kept small); every other keyword,
    ``x-kubernetes-*`` among them, as it is."""
    if isinstance(schema, dict):
        return {k: strip(v) for k, v in schema.items() if k != 'description'}
    if isinstance(schema, list):
        return [strip(v) for v in schema]
    return schema


def kind_schema(repo, url, ref, name):
    path = find_path(repo, ref, name)
    crd = yaml.safe_load(git(repo, 'show', '%s:%s' % (ref, path)))
    spec = crd['spec']
    version = next(v for v in spec['versions']
                   if v.get('storage') or len(spec['versions']) == 1)
    schema = strip(version['schema']['openAPIV3Schema'])
    schema.get('properties', {}).pop('status', None)
    return {
        'apiVersion': '%s/%s' % (spec['group'], version['name']),
        'source': {'repository': url, 'ref': ref,
                   'commit': git(repo, 'rev-parse', ref).strip(),
                   'path': path},
        'openAPIV3Schema': schema,
    }


def default_services(repo, url, ref):
    """The OpenStackDataPlaneService names the operator creates itself
    (``config/services/``): a NodeSet may list them without defining
    them."""
    names = []
    for path in git(repo, 'ls-tree', '-r', '--name-only', ref,
                    SERVICES_DIR).split():
        data = yaml.safe_load(git(repo, 'show', '%s:%s' % (ref, path)))
        if isinstance(data, dict) and data.get('kind') == \
                'OpenStackDataPlaneService':
            names.append(data['metadata']['name'])
    return {'source': {'repository': url, 'ref': ref,
                       'commit': git(repo, 'rev-parse', ref).strip(),
                       'path': SERVICES_DIR},
            'names': sorted(names)}


def bundle(name, repos, refs):
    kinds = {}
    for kind, (which, crd_file) in KINDS.items():
        repo, url = repos[which]
        kinds[kind] = kind_schema(repo, url, refs[which], crd_file)
    repo, url = repos['operator']
    return {'version': name,
            'generator': 'tools/rhoso_crds.py',
            'kinds': kinds,
            'defaultServices': default_services(repo, url,
                                                refs['operator'])}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--operator-git', required=True,
                        help='openstack-operator git dir')
    parser.add_argument('--infra-git', required=True,
                        help='infra-operator git dir')
    parser.add_argument('--version', action='append', required=True,
                        help='NAME=OPERATOR_REF:INFRA_REF')
    args = parser.parse_args(argv)
    repos = {'operator': (args.operator_git, OPERATOR),
             'infra': (args.infra_git, INFRA)}
    os.makedirs(DEST, exist_ok=True)
    for spec in args.version:
        name, _, refs = spec.partition('=')
        operator_ref, _, infra_ref = refs.partition(':')
        data = bundle(name, repos, {'operator': operator_ref,
                                    'infra': infra_ref or operator_ref})
        path = os.path.join(DEST, '%s.json' % name)
        with open(path, 'w') as f:
            json.dump(data, f, sort_keys=True, separators=(',', ':'))
            f.write('\n')
        print('%s: %d bytes' % (path, os.path.getsize(path)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
