"""The CRD schemas of a RHOSO version, bundled, and a document checked
against them as the API server would.

``schemas/<version>.json`` (written by ``tools/rhoso_crds.py``) holds, per
kind, the ``openAPIV3Schema`` of the served version of the CRD (without
descriptions and ``status``) and where it came from: repository, ref,
commit and path. A document is checked as ``kubectl apply
--validate=strict`` would have the API server check it: the schema's
defaults are applied first, then every field must be known (unless the
schema preserves unknown fields there), of its type and within its
limits. The core kinds the export writes (``Secret``, ``ConfigMap``) have
no CRD: their few fields are spelled here.

Pure: documents in, :class:`~tripleo_ephemeral.rhoso.problems.Problem`
lists out.
"""

import copy
import functools
import importlib.resources
import json

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.rhoso import problems as problems_mod

PACKAGE = 'tripleo_ephemeral.rhoso'
SCHEMAS_DIR = 'schemas'

#: ObjectMeta as a client may send it (the API server owns the rest).
_LABELS = {'type': 'object', 'additionalProperties': {'type': 'string'}}
OBJECT_META = {
    'type': 'object',
    'required': ['name'],
    'additionalProperties': False,
    'properties': {
        'name': {'type': 'string', 'maxLength': 253,
                 'pattern': r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?'
                            r'(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'},
        'namespace': {'type': 'string'},
        'resourceVersion': {'type': 'string'},
        'labels': _LABELS,
        'annotations': _LABELS,
    },
}
_BASE64 = {'type': 'string',
           'pattern': r'^[A-Za-z0-9+/]*={0,2}$'}
#: Kubernetes core/v1 kinds the export writes (no CRD describes them).
CORE_KINDS = {
    'Secret': {'apiVersion': 'v1', 'openAPIV3Schema': {
        'type': 'object',
        'properties': {
            'apiVersion': {'type': 'string'}, 'kind': {'type': 'string'},
            'metadata': {'type': 'object'},
            'type': {'type': 'string'},
            'immutable': {'type': 'boolean'},
            'data': {'type': 'object', 'additionalProperties': _BASE64},
            'stringData': {'type': 'object',
                           'additionalProperties': {'type': 'string'}},
        }}},
    'ConfigMap': {'apiVersion': 'v1', 'openAPIV3Schema': {
        'type': 'object',
        'properties': {
            'apiVersion': {'type': 'string'}, 'kind': {'type': 'string'},
            'metadata': {'type': 'object'},
            'immutable': {'type': 'boolean'},
            'data': {'type': 'object',
                     'additionalProperties': {'type': 'string'}},
            'binaryData': {'type': 'object',
                           'additionalProperties': _BASE64},
        }}},
}
_CORE_SOURCE = {'repository': 'https://github.com/kubernetes/api',
                'path': 'core/v1/types.go', 'note': 'spelled in schema.py'}


def versions():
    """The bundled RHOSO versions, oldest first (``18.0-fr2``, ...)."""
    root = importlib.resources.files(PACKAGE).joinpath(SCHEMAS_DIR)
    names = [p.name[:-len('.json')] for p in root.iterdir()
             if p.name.endswith('.json')]
    return sorted(names, key=_version_key)


def _version_key(name):
    return [int(p) if p.isdigit() else p
            for p in name.replace('-fr', '.').split('.')]


def default_version():
    return versions()[-1]


class KindSchema:
    """One kind of one version: its ``apiVersion``, ``source`` (where the
    schema was read) and the strict JSON Schema checked against."""

    def __init__(self, kind, api_version, source, openapi):
        self.kind = kind
        self.api_version = api_version
        self.source = source
        self.openapi = openapi
        import jsonschema  # when a schema is used, not when it is named

        self.validator = jsonschema.Draft7Validator(strict(openapi))

    def defaulted(self, document):
        """A copy of ``document`` with the schema's defaults applied."""
        return apply_defaults(self.openapi, copy.deepcopy(document))


class Bundle:
    """The schemas of one RHOSO version: ``kinds[kind]`` is a
    :class:`KindSchema`; ``default_services`` the OpenStackDataPlaneService
    names the operator creates itself."""

    def __init__(self, version, kinds, default_services=()):
        self.version = version
        self.kinds = kinds
        self.default_services = frozenset(default_services)

    def provenance(self):
        """``kind -> 'repository@commit:path'``."""
        result = {}
        for kind, found in sorted(self.kinds.items()):
            source = found.source
            result[kind] = '%s@%s:%s' % (
                source['repository'], source.get('commit', 'n/a')[:12],
                source['path'])
        return result


@functools.lru_cache(maxsize=None)
def load(version):
    """The :class:`Bundle` of ``version`` (RhosoExportError if none is
    bundled)."""
    if version not in versions():
        raise exceptions.RhosoExportError(
            'RHOSO version %r has no bundled schemas; choose one of %s'
            % (version, ', '.join(versions())))
    path = importlib.resources.files(PACKAGE).joinpath(
        SCHEMAS_DIR, '%s.json' % version)
    data = json.loads(path.read_text())
    kinds = {kind: KindSchema(kind, found['apiVersion'], found['source'],
                              found['openAPIV3Schema'])
             for kind, found in data['kinds'].items()}
    for kind, found in CORE_KINDS.items():
        kinds[kind] = KindSchema(kind, found['apiVersion'], _CORE_SOURCE,
                                 found['openAPIV3Schema'])
    return Bundle(version, kinds, (data.get('defaultServices') or {}).get(
        'names') or ())


# -- from the structural schema to a strict JSON Schema -----------------------

def strict(openapi, top=True):
    """Draft 7 JSON Schema of a structural ``openAPIV3Schema``: objects
    refuse unknown properties unless ``x-kubernetes-preserve-unknown-fields``
    keeps them, ``x-kubernetes-int-or-string`` takes both, ``nullable``
    takes null; ``metadata`` is :data:`OBJECT_META`."""
    if not isinstance(openapi, dict):
        return openapi
    schema = {}
    for key, value in openapi.items():
        if key == 'properties':
            schema[key] = {name: strict(sub, False)
                           for name, sub in value.items()}
        elif key in ('items', 'additionalProperties', 'not'):
            schema[key] = strict(value, False)
        elif key in ('anyOf', 'allOf', 'oneOf'):
            schema[key] = [strict(sub, False) for sub in value]
        elif key.startswith('x-kubernetes-') or key in (
                'nullable', 'default', 'format'):
            continue
        else:
            schema[key] = value
    if top:
        schema.setdefault('properties', {})['metadata'] = OBJECT_META
    if openapi.get('x-kubernetes-int-or-string'):
        schema.pop('type', None)
        schema.pop('anyOf', None)
        schema['type'] = ['integer', 'string']
    preserve = openapi.get('x-kubernetes-preserve-unknown-fields')
    if schema.get('type') == 'object' and 'additionalProperties' not in \
            schema and not preserve:
        schema['additionalProperties'] = False
    if openapi.get('nullable') and isinstance(schema.get('type'), str):
        schema['type'] = [schema['type'], 'null']
    return schema


def apply_defaults(openapi, value):
    """``value`` with the defaults of ``openapi`` filled in where a field
    is absent, as the API server does before validating (in place)."""
    if not isinstance(openapi, dict):
        return value
    if isinstance(value, dict):
        for name, sub in (openapi.get('properties') or {}).items():
            if name not in value and 'default' in sub:
                value[name] = copy.deepcopy(sub['default'])
            if name in value:
                value[name] = apply_defaults(sub, value[name])
        extra = openapi.get('additionalProperties')
        if isinstance(extra, dict):
            known = openapi.get('properties') or {}
            for name in value:
                if name not in known:
                    value[name] = apply_defaults(extra, value[name])
    elif isinstance(value, list) and isinstance(openapi.get('items'), dict):
        return [apply_defaults(openapi['items'], item) for item in value]
    return value


# -- checking a document ------------------------------------------------------

def check(bundle, document, where):
    """The :class:`Problem` list of ``document`` against ``bundle``;
    ``where`` names the document (its file and index) in each."""
    if not isinstance(document, dict):
        return [problems_mod.Problem(
            where, '', 'is not a mapping', 'write one Kubernetes object '
            'per YAML document')]
    kind = document.get('kind')
    if not kind or not document.get('apiVersion'):
        return [problems_mod.Problem(
            where, '', 'is not a Kubernetes document (no kind or '
            'apiVersion): oc apply -f of its directory fails on it',
            'move it out of the directories oc apply reads')]
    found = bundle.kinds.get(kind)
    if found is None:
        return [problems_mod.Problem(
            where, 'kind', 'kind %r has no schema in RHOSO %s'
            % (kind, bundle.version), 'use one of %s'
            % ', '.join(sorted(bundle.kinds)))]
    if document.get('apiVersion') != found.api_version:
        return [problems_mod.Problem(
            where, 'apiVersion', '%r is not the apiVersion of %s in RHOSO %s'
            % (document.get('apiVersion'), kind, bundle.version),
            'set apiVersion: %s' % found.api_version)]
    defaulted = found.defaulted(document)
    errors = sorted(found.validator.iter_errors(defaulted),
                    key=lambda e: [str(p) for p in e.absolute_path])
    return [_problem(where, error) for error in errors]


def _path(parts):
    text = ''
    for part in parts:
        if isinstance(part, int):
            text += '[%d]' % part
        elif text:
            text += '.' + str(part)
        else:
            text = str(part)
    return text


def _problem(where, error):
    path = _path(error.absolute_path)
    validator = error.validator
    schema = error.schema
    if validator == 'additionalProperties' and schema.get(
            'additionalProperties') is False:
        known = sorted(schema.get('properties') or {})
        unknown = sorted(set(error.instance) - set(known))
        return problems_mod.Problem(
            where, _path(list(error.absolute_path) + [unknown[0]]),
            'unknown field %s' % ', '.join('"%s"' % u for u in unknown),
            'remove it or correct its spelling (known here: %s)'
            % (', '.join(known) or 'none'))
    if validator == 'required':
        return problems_mod.Problem(where, path, error.message,
                                    'add it')
    if validator == 'type':
        return problems_mod.Problem(
            where, path, '%r is not of type %s' % (
                error.instance, schema.get('type')),
            'write a value of type %s' % schema.get('type'))
    if validator == 'enum':
        return problems_mod.Problem(
            where, path, '%r is not allowed' % (error.instance,),
            'use one of %s' % ', '.join(map(str, schema['enum'])))
    if validator == 'pattern':
        return problems_mod.Problem(
            where, path, '%r does not match %s' % (error.instance,
                                                   schema['pattern']),
            'use a value matching %s' % schema['pattern'])
    return problems_mod.Problem(where, path, error.message,
                                'change the value to satisfy %s: %r' % (
                                    validator, error.validator_value))
