"""The CRD schemas of the control plane's documents, bundled per RHOSO
version beside the data plane's.

``schemas/controlplane/<version>.json`` (``tools/rhoso_controlplane_crds.py``)
holds the OpenStackControlPlane of openstack-operator at that version and
the OpenShift networking kinds (NodeNetworkConfigurationPolicy,
NetworkAttachmentDefinition, IPAddressPool, L2Advertisement), each with
its repository, ref, commit and path. Subtrees the OpenStackControlPlane
repeats are stored once under ``definitions``; :func:`resolve` puts them
back (shared, not copied) so :mod:`~tripleo_ephemeral.rhoso.schema` checks
them as any other kind.
"""

import functools
import importlib.resources
import json

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import schema

DIRECTORY = 'controlplane'
_REF = '#/definitions/'


def resolve(openapi):
    """``openapi`` with every ``$ref`` replaced by its definition."""
    definitions = openapi.get('definitions') or {}
    done = {}

    def walk(node):
        if isinstance(node, dict):
            ref = node.get('$ref')
            if isinstance(ref, str) and ref.startswith(_REF):
                name = ref[len(_REF):]
                if name not in done:
                    done[name] = {}
                    done[name].update(walk(definitions[name]))
                return done[name]
            return {k: walk(v) for k, v in node.items()
                    if k != 'definitions'}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(openapi)


def _path(version):
    return importlib.resources.files(schema.PACKAGE).joinpath(
        schema.SCHEMAS_DIR, DIRECTORY, '%s.json' % version)


def versions():
    root = importlib.resources.files(schema.PACKAGE).joinpath(
        schema.SCHEMAS_DIR, DIRECTORY)
    return sorted((p.name[:-len('.json')] for p in root.iterdir()
                   if p.name.endswith('.json')), key=schema._version_key)


@functools.lru_cache(maxsize=None)
def load(version):
    """The :class:`~tripleo_ephemeral.rhoso.schema.Bundle` of ``version``:
    the data plane's kinds and the control plane's."""
    base = schema.load(version)
    if version not in versions():
        raise exceptions.RhosoExportError(
            'RHOSO version %r has no bundled control-plane schemas; choose '
            'one of %s' % (version, ', '.join(versions())))
    data = json.loads(_path(version).read_text())
    kinds = dict(base.kinds)
    for kind, found in data['kinds'].items():
        kinds[kind] = schema.KindSchema(
            kind, found['apiVersion'], found['source'],
            resolve(found['openAPIV3Schema']))
    return schema.Bundle(version, kinds, base.default_services)
