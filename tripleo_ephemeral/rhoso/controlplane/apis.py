"""Adopting Placement, the Dashboard, Orchestration and Telemetry.

Their pages patch the service on with the procedure's values and little
of TripleO's: Placement (``proc_adopting-the-placement-service.adoc``)
its internal endpoint; the Dashboard (``proc_adopting-the-openstack-
dashboard.adoc``) the Memcached instance; Orchestration
(``proc_adopting-the-orchestration-service.adoc``) the password selectors
of ``osp-secret`` (whose ``HeatAuthEncryptionKey`` must be the one the
stacks' secrets were encrypted with: the passwords file's) and TripleO's
engine limits; Telemetry (``proc_adopting-telemetry-services.adoc``)
Ceilometer, and Aodh's autoscaling where TripleO ran Aodh.
"""

from tripleo_ephemeral.rhoso.controlplane import ini
from tripleo_ephemeral.rhoso.controlplane import patch as patch_mod

HEAT = (
    ('DEFAULT', 'max_resources_per_stack',
     'heat::engine::max_resources_per_stack', 'HeatMaxResourcesPerStack'),
    ('DEFAULT', 'max_nested_stack_depth',
     'heat::engine::max_nested_stack_depth', 'HeatMaxNestedStackDepth'),
    ('DEFAULT', 'max_json_body_size', 'heat::max_json_body_size',
     'HeatMaxJsonBodySize'),
    ('DEFAULT', 'convergence_engine', 'heat::engine::convergence_engine',
     'HeatConvergenceEngine'),
)


def placement(endpoints):
    template = {'databaseInstance': 'openstack',
                'databaseAccount': 'placement', 'secret': 'osp-secret'}
    if 'internal' in endpoints.addresses:
        template['override'] = {'service': endpoints.internal_override()}
    return patch_mod.Patch(
        'placement', 'placement', {'placement': {
            'enabled': True, 'apiOverride': {'route': {}},
            'template': template}},
        'proc_adopting-the-placement-service.adoc',
        after=['openstack endpoint list | grep placement'])


def horizon(role):
    inputs = []
    if role.config('horizon::keystone_multidomain_support'):
        inputs.append('Keystone domains (horizon::keystone_multidomain_'
                      'support): set OPENSTACK_KEYSTONE_MULTIDOMAIN_SUPPORT '
                      'in the Dashboard\'s customServiceConfig (Python, not '
                      'INI) by hand')
    return patch_mod.Patch(
        'horizon', 'horizon', {'horizon': {
            'enabled': True, 'apiOverride': {'route': {}},
            'template': {'memcachedInstance': 'memcached',
                         'secret': 'osp-secret'}}},
        'proc_adopting-the-openstack-dashboard.adoc', inputs=inputs,
        after=['oc get horizon'])


def heat(role):
    config = ini.Config(role)
    for section, option, key, parameter in HEAT:
        config.hiera(section, option, key, parameter)
    template = {'databaseInstance': 'openstack', 'databaseAccount': 'heat',
                'secret': 'osp-secret', 'memcachedInstance': 'memcached',
                'passwordSelectors': {
                    'authEncryptionKey': 'HeatAuthEncryptionKey',
                    'service': 'HeatPassword',
                    'stackDomainAdminPassword':
                        'HeatStackDomainAdminPassword'}}
    if config:
        template['customServiceConfig'] = config.text()
    return patch_mod.Patch(
        'heat', 'heat', {'heat': {
            'enabled': True, 'apiOverride': {'route': {}},
            'template': template}},
        'proc_adopting-the-orchestration-service.adoc',
        configs={'spec.heat.template.customServiceConfig': config},
        values=[('osp-secret HeatAuthEncryptionKey', '(the passwords file\'s)',
                 'HeatAuthEncryptionKey of the passwords file: the key the '
                 'stacks\' secrets are encrypted with')],
        after=['oc exec -it "$(oc get pods -l service=heat -o jsonpath='
               '\'{.items[0].metadata.name}\')" -c heat-api -- heat-manage '
               'service clean'])


def telemetry(deployment):
    aodh = any(s.startswith('aodh') for r in deployment.roles.values()
               for s in r.services)
    template = {'ceilometer': {
        'enabled': True, 'secret': 'osp-secret',
        'passwordSelector': {'ceilometerService': 'CeilometerPassword'},
        'serviceUser': 'ceilometer'}}
    inputs = ['Metrics: RHOSO stores them in Prometheus (metricStorage, '
              'which needs the Cluster Observability Operator); the page\'s '
              'second patch turns it on with your retention and storage']
    if aodh:
        template['autoscaling'] = {'enabled': True, 'aodh': {
            'secret': 'osp-secret', 'databaseInstance': 'openstack',
            'databaseAccount': 'aodh', 'memcachedInstance': 'memcached',
            'passwordSelector': {'aodhService': 'AodhPassword'}}}
    return patch_mod.Patch(
        'telemetry', 'telemetry', {'telemetry': {
            'enabled': True, 'template': template}},
        'proc_adopting-telemetry-services.adoc', inputs=inputs,
        after=['oc get pods -l service=ceilometer'])
