"""What openstack-operator's OpenStackControlPlane webhooks do to and refuse
of a control plane, in Python.

Read at the bundled versions (openstack-operator 18.0-fr2 2323524c,
18.0-fr6 394c46c1, ``api[s]/core/v1beta1/openstackcontrolplane_webhook.go``,
and the service operators' ``*_webhook.go`` their ``go.mod`` pins:
glance-operator 7f0919ea / 0d35553c, nova-operator b6a87072 / 0385be7d,
mariadb-operator 2499cf87, infra-operator 6ab1c3a7, lib-common fe8e60d1):

* :func:`mutated`: the defaulting webhook decodes the object into the Go
  types and writes it back, so every required field of an object present
  (``json`` tag without ``omitempty``) comes back with its zero value (the
  procedure's ``keystone: {template: {}}`` passes the schema that way);
* a service that is on needs the services ``checkDepsEnabled`` names
  (Nova: Galera, Memcached, RabbitMQ, Keystone, Glance, Neutron,
  Placement...);
* the names that become StatefulSets are DNS labels short enough for the
  ``controller-revision-hash`` label (Galera 63-17, RabbitMQ and Memcached
  63-11, a Glance API 63-(11+len("glance")+len(type)+2), a Cinder volume
  63-(11+len("cinder")+8));
* Glance: ``keystoneEndpoint`` names an API, a ``split`` API with replicas
  has no file back end, an API keeps its ``type``;
* Nova: ``cell0`` is there, cell names are DNS subdomains under 36
  characters, no two cells share a RabbitMQ, the metadata service is on at
  the top or in cells, never in cell0;
* an ``override.service`` key is ``internal`` or ``public``.
"""

import re

from tripleo_ephemeral.rhoso import problems as problems_mod

RULE = 'webhook'
#: checkDepsEnabled: service -> what must be on with it.
DEPENDENCIES = {
    'keystone': ('galera', 'memcached', 'rabbitmq'),
    'glance': ('galera', 'memcached', 'keystone'),
    'cinder': ('galera', 'memcached', 'rabbitmq', 'keystone'),
    'placement': ('galera', 'memcached', 'keystone'),
    'neutron': ('galera', 'memcached', 'rabbitmq', 'keystone'),
    'nova': ('galera', 'memcached', 'rabbitmq', 'keystone', 'placement',
             'neutron', 'glance'),
    'heat': ('galera', 'memcached', 'rabbitmq', 'keystone'),
    'swift': ('memcached', 'keystone'),
    'horizon': ('galera', 'memcached', 'keystone'),
    'barbican': ('galera', 'keystone'),
    'octavia': ('galera', 'memcached', 'rabbitmq', 'keystone', 'neutron',
                'glance', 'nova', 'ovn'),
}
_LABEL = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
_SUBDOMAIN = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?'
                        r'(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')
_ZERO = {'string': '', 'integer': 0, 'number': 0, 'boolean': False}


def mutated(openapi, value):
    """``value`` (defaults applied) with every absent required scalar or
    object of the objects present set to its zero value, in place."""
    if isinstance(value, dict) and isinstance(openapi, dict):
        properties = openapi.get('properties') or {}
        for name in openapi.get('required') or []:
            sub = properties.get(name) or {}
            if name in value:
                continue
            if sub.get('type') in _ZERO:
                value[name] = _ZERO[sub['type']]
            elif sub.get('type') == 'object' and 'properties' in sub:
                value[name] = {}
        for name, sub in properties.items():
            if name in value:
                mutated(sub, value[name])
        extra = openapi.get('additionalProperties')
        if isinstance(extra, dict):
            for name in value:
                if name not in properties:
                    mutated(extra, value[name])
    elif isinstance(value, list) and isinstance(openapi, dict):
        for item in value:
            mutated(openapi.get('items'), item)
    return value


def _on(spec, name):
    return bool((spec.get(name) or {}).get('enabled', True))


def _labels(where, path, keys, correction, found):
    limit = 63 - correction
    for key in keys:
        if not _LABEL.match(key) or len(key) > limit:
            found.append(problems_mod.Problem(
                where, '%s[%s]' % (path, key), '%r must be a DNS label of '
                'at most %d characters (the StatefulSet\'s revision label)'
                % (key, limit), 'choose a shorter lower-case name', RULE))


def _file_backend(config):
    for line in (config or '').splitlines():
        key, _, value = line.partition('=')
        if key.strip() == 'enabled_backends':
            return any(b.split(':', 1)[-1].strip() == 'file'
                       for b in value.split(',') if ':' in b)
    return None


def _glance(where, spec, old, found):
    template = (spec.get('glance') or {}).get('template') or {}
    apis = template.get('glanceAPIs') or {}
    top_file = _file_backend(template.get('customServiceConfig'))
    for key, api in apis.items():
        api_type = api.get('type', 'split')
        _labels(where, 'spec.glance.template.glanceAPIs', [key],
                11 + len('glance') + len(api_type) + 2, found)
        backend = _file_backend(api.get('customServiceConfig'))
        file_backend = backend if backend is not None else top_file in (
            True, None)
        if api_type == 'split' and api.get('replicas', 1) and file_backend:
            found.append(problems_mod.Problem(
                where, 'spec.glance.template.glanceAPIs[%s]' % key,
                'The GlanceAPI layout type: split cannot be used in '
                'combination with File and NFS backend',
                'use type: single', RULE))
        before = (((old.get('glance') or {}).get('template') or {}).get(
            'glanceAPIs') or {}).get(key)
        if before is not None and before.get('type', 'split') != api_type:
            found.append(problems_mod.Problem(
                where, 'spec.glance.template.glanceAPIs[%s].type' % key,
                'The GlanceAPI layout (type) cannot be modified',
                'add a new API with the layout, then remove %s' % key, RULE))
    endpoint = template.get('keystoneEndpoint') or (
        next(iter(apis)) if len(apis) == 1 else '')
    if not any(k == endpoint and a.get('type') != 'edge'
               for k, a in apis.items()):
        found.append(problems_mod.Problem(
            where, 'spec.glance.template.keystoneEndpoint',
            'KeystoneEndpoint is assigned to an invalid GlanceAPI instance '
            '(%r)' % endpoint, 'name one of the glanceAPIs', RULE))


def _nova(where, spec, found):
    template = (spec.get('nova') or {}).get('template') or {}
    cells = template.get('cellTemplates') or {}
    base = 'spec.nova.template.cellTemplates'
    if 'cell0' not in cells:
        found.append(problems_mod.Problem(
            where, base, 'cell0 specification is missing, cell0 key is '
            'required in cellTemplates', 'add cell0', RULE))
    top_metadata = (template.get('metadataServiceTemplate') or {}).get(
        'enabled', True)
    buses = {}
    for name, cell in cells.items():
        if len(name) > 35 or not _SUBDOMAIN.match(name):
            found.append(problems_mod.Problem(
                where, '%s[%s]' % (base, name), 'cell name %r must be a DNS '
                'subdomain shorter than 36 characters' % name,
                'rename the cell', RULE))
        metadata = (cell.get('metadataServiceTemplate') or {}).get(
            'enabled', False)
        if name == 'cell0':
            for part in ('metadataServiceTemplate',
                         'noVNCProxyServiceTemplate'):
                if (cell.get(part) or {}).get('enabled', False):
                    found.append(problems_mod.Problem(
                        where, '%s[cell0].%s.enabled' % (base, part),
                        'should be false for cell0', 'set it false', RULE))
            continue
        if metadata and top_metadata:
            found.append(problems_mod.Problem(
                where, '%s[%s].metadataServiceTemplate.enabled' % (base, name),
                'metadata is on at the top level and in the cell',
                'turn one off', RULE))
        bus = (cell.get('messagingBus') or {}).get('cluster') or cell.get(
            'cellMessageBusInstance') or 'rabbitmq-%s' % name
        if bus in buses:
            found.append(problems_mod.Problem(
                where, '%s[%s]' % (base, name), 'RabbitMqCluster CR need to '
                'be uniq per cell. It\'s duplicated with cell: %s'
                % buses[bus], 'give each cell its own RabbitMQ', RULE))
        buses[bus] = name


#: Where an API's ``override.service`` is keyed by endpoint type.
ROUTED = (('keystone', 'template'), ('neutron', 'template'),
          ('placement', 'template'), ('cinder', 'template', 'cinderAPI'),
          ('nova', 'template', 'apiServiceTemplate'),
          ('heat', 'template', 'heatAPI'), ('heat', 'template', 'heatCfnAPI'),
          ('glance', 'template', 'glanceAPIs', '*'))


def _walk(node, parts, path):
    if not parts:
        yield path, node
        return
    if not isinstance(node, dict):
        return
    if parts[0] == '*':
        for key, value in node.items():
            yield from _walk(value, parts[1:], '%s[%s]' % (path, key))
    elif parts[0] in node:
        yield from _walk(node[parts[0]], parts[1:],
                         '%s.%s' % (path, parts[0]))


def _overrides(where, spec, found):
    for parts in ROUTED:
        for path, node in _walk(spec, list(parts), 'spec'):
            service = ((node or {}).get('override') or {}).get('service')
            for endpoint in service or {}:
                if endpoint not in ('internal', 'public'):
                    found.append(problems_mod.Problem(
                        where, '%s.override.service[%s]' % (path, endpoint),
                        'invalid endpoint type %r' % endpoint,
                        'use internal or public', RULE))


def check(where, document, old=None):
    """The webhook problems of one (mutated) OpenStackControlPlane;
    ``old`` is the spec before the patch (None on create)."""
    spec = document.get('spec') or {}
    found = []
    for service, needs in DEPENDENCIES.items():
        if service in spec and _on(spec, service):
            missing = [n for n in needs if not _on(spec, n)]
            if missing:
                found.append(problems_mod.Problem(
                    where, 'spec.%s.enabled' % service, '%s requires these '
                    'services to be enabled: %s' % (
                        service, ', '.join(needs)),
                    'enable %s first (the procedure\'s order)'
                    % ', '.join(missing), RULE))
    autoscaling = (((spec.get('telemetry') or {}).get('template') or {}).get(
        'autoscaling') or {})
    if _on(spec, 'telemetry') and autoscaling.get('enabled'):
        missing = [n for n in ('galera', 'heat', 'rabbitmq', 'keystone')
                   if not _on(spec, n)]
        if missing:
            found.append(problems_mod.Problem(
                where, 'spec.telemetry.template.autoscaling.enabled',
                'Telemetry.Autoscaling requires these services to be '
                'enabled: Galera, Heat, RabbitMQ, Keystone',
                'enable %s first' % ', '.join(missing), RULE))
    for name, key, correction in (('galera', 'templates', 17),
                                  ('rabbitmq', 'templates', 11),
                                  ('memcached', 'templates', 11)):
        section = spec.get(name) or {}
        if _on(spec, name):
            _labels(where, 'spec.%s.%s' % (name, key),
                    list(section.get(key) or {}), correction, found)
    if _on(spec, 'cinder') and 'cinder' in spec:
        volumes = ((spec['cinder'].get('template') or {}).get(
            'cinderVolumes') or {})
        _labels(where, 'spec.cinder.template.cinderVolumes', list(volumes),
                11 + len('cinder') + 8, found)
    if _on(spec, 'glance') and 'glance' in spec:
        _glance(where, spec, old or {}, found)
    if _on(spec, 'nova') and 'nova' in spec:
        _nova(where, spec, found)
    _overrides(where, spec, found)
    return found
