"""The OpenStackControlPlane of the backend-services step.

data-plane-adoption's ``proc_deploying-backend-services.adoc``: every
OpenStack service off, Galera, Memcached, RabbitMQ (one of each per cell,
the cell's RabbitMQ on its own load balancer address) and the DNS service
on, OVN's databases described but off until their data is migrated. The
storage class and replicas are the operator's; TLS follows TripleO's TLS
everywhere (``enable_internal_tls``), whose CA the operator copies to the
``rootca-internal`` issuer first; the DNS service forwards to the servers
TripleO's hosts used.
"""

from typing import Any, Iterable, Sequence

from tripleo_ephemeral.rhoso.controlplane import endpoints as endpoints_mod
from tripleo_ephemeral.rhoso.controlplane import inputs as inputs_mod
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

PAGE = 'proc_deploying-backend-services.adoc'
SECRET = 'osp-secret'
GALERA_STORAGE = '5G'
#: The services the procedure turns off, with the template it gives each.
OFF: tuple[tuple[str, dict[str, Any]], ...] = (
    ('barbican', {'barbicanAPI': {}, 'barbicanWorker': {},
                  'barbicanKeystoneListener': {}}),
    ('cinder', {'cinderAPI': {}, 'cinderScheduler': {}, 'cinderBackup': {},
                'cinderVolumes': {}}),
    ('glance', {'glanceAPIs': {}}),
    ('heat', {}),
    ('horizon', {}),
    ('ironic', {'ironicConductors': []}),
    ('keystone', {}),
    ('manila', {'manilaAPI': {}, 'manilaScheduler': {}, 'manilaShares': {}}),
    ('neutron', {}),
    ('nova', {}),
    ('placement', {}),
)
TLS_ISSUER = 'rootca-internal'


def _tls(enabled: bool) -> dict[str, Any]:
    if not enabled:
        return {'podLevel': {'enabled': False}, 'ingress': {'enabled': False}}
    issuer = {'ca': {'customIssuer': TLS_ISSUER}}
    return {'podLevel': {'enabled': True, 'internal': issuer,
                         'libvirt': issuer, 'ovn': issuer},
            'ingress': {'enabled': True, 'ca': {'customIssuer': TLS_ISSUER}}}


def ovn(replicas: int, internal: str | None, tenant: str | None,
        enabled: bool = False) -> dict[str, Any]:
    """The ``ovn`` section: the databases on the internal network."""
    clusters = {}
    for name, db_type in (('ovndbcluster-nb', 'NB'),
                          ('ovndbcluster-sb', 'SB')):
        clusters[name] = {'replicas': replicas, 'dbType': db_type,
                          'networkAttachment': internal}
    return {'enabled': enabled, 'template': {
        'ovnController': {'networkAttachment': tenant},
        'ovnNorthd': {'replicas': 0},
        'ovnDBCluster': clusters}}


def document(inputs: inputs_mod.Inputs,
             endpoints: endpoints_mod.Endpoints, cells: Iterable[str],
             tls: bool, dns_servers: Sequence[str] | None
             ) -> tuple[patch_mod.ControlPlane, list[patch_mod.Value],
                        list[str]]:
    """``(document, values, operator_inputs)`` of the step."""
    spec: dict[str, Any] = {'secret': SECRET,
                            'storageClass': inputs.storage_class}
    values: list[patch_mod.Value] = [
        ('spec.storageClass', inputs.storage_class,
         'the operator (--storage-class)')]
    needed = []
    for name, template in OFF:
        spec[name] = {'enabled': False, 'template': dict(template)}
    dns: dict[str, Any] = {'replicas': 1}
    if 'dns' in endpoints.addresses:
        dns['override'] = {'service': endpoints.service('dns')}
    if dns_servers:
        dns['options'] = [{'key': 'server', 'values': list(dns_servers)}]
        values.append(('spec.dns.template.options', dns_servers,
                       'ctlplane_dns_nameservers (group_vars): the DNS '
                       'servers TripleO\'s hosts use'))
    else:
        needed.append('The DNS servers the control plane\'s dnsmasq '
                      'forwards to: TripleO\'s hosts have none '
                      '(ctlplane_dns_nameservers is empty); add spec.dns.'
                      'template.options [{key: server, values: [...]}]')
    spec['dns'] = {'template': dns}
    galera = {'openstack': {'secret': SECRET, 'replicas': inputs.replicas,
                            'storageRequest': GALERA_STORAGE}}
    rabbitmq: dict[str, dict[str, Any]] = {'rabbitmq': {}}
    for cell in sorted(cells):
        galera['openstack-%s' % cell] = dict(galera['openstack'])
        rabbitmq['rabbitmq-%s' % cell] = {}
    for name, template in rabbitmq.items():
        if name in endpoints.addresses:
            template['override'] = {'service': endpoints.service(
                name, shared=False)}
    spec['galera'] = {'enabled': True, 'templates': galera}
    spec['memcached'] = {'enabled': True, 'templates': {
        'memcached': {'replicas': inputs.replicas}}}
    spec['ovn'] = ovn(inputs.replicas, endpoints.internal, endpoints.tenant)
    spec['rabbitmq'] = {'templates': rabbitmq}
    spec['telemetry'] = {'enabled': False}
    spec['tls'] = _tls(tls)
    spec['swift'] = {'enabled': False, 'template': {
        'swiftRing': {'ringReplicas': 3}, 'swiftStorage': {'replicas': 0},
        'swiftProxy': {'replicas': 2}}}
    values.append(('replicas of galera, memcached, OVN databases',
                   inputs.replicas, 'the operator (--replicas)'))
    if tls:
        needed.append('TLS everywhere: copy TripleO\'s CA (the IdM CA of '
                      '/etc/ipa/ca.crt) into the %s issuer before this step'
                      % TLS_ISSUER)
    return patch_mod.control_plane(spec), values, needed
