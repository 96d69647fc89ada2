"""The fakes the unit tests share: one place for each.

* stack outputs, deployments and :class:`FakeHeat` (a heatclient) for the
  overcloud library;
* :class:`FakeRunner`, the process seam, recording every argv;
* :class:`FakeLauncher`, a Heat launcher without processes;
* :class:`FakeClock`, a clock and a sleep that only move when asked.

A SQLite file with Heat's ``stack`` table comes from
:mod:`tripleo_ephemeral.tests.heat_sqlite` (the functional tests use it too).
"""

import copy
import subprocess

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import ephemeral
from tripleo_ephemeral.heat_db import database

#: A local image name: never pulled.
IMAGE = 'localhost/tripleo-ephemeral-heat:test'

_OUTPUTS = {
    'RoleData': {
        'Controller': {
            'service_names': ['marker'],
            'config_settings': {'a': 1},
            'deploy_steps_tasks': [
                {'name': 'always'},
                {'name': 'two', 'when': 'step|int == 2'},
                {'name': 'three', 'when': ['(step | int) == 3']},
            ],
            'external_deploy_tasks': [{'name': 'ext'}],
            'step_config': 'include ::x',
        },
        'Compute': {'service_names': [], 'deploy_steps_tasks': []},
    },
    'RoleConfig': {
        'global_vars': {'deploy_steps_max': 5},
        'deploy_steps_playbook': '- hosts: oc\n',
        'container_puppet_script.sh': '#!/bin/sh\n',
        'external_deploy_steps_tasks': [{'name': 'e1',
                                         'when': 'step|int == 1'}],
    },
    'RoleGroupVars': {'Controller': {'tripleo_role_name': 'Controller'},
                      'Compute': {}},
    'AnsibleHostVarsMap': {'Controller': {'c0': {'fqdn_canonical': 'c0.l'}}},
    'RoleNetIpMap': {'Controller': {'ctlplane': ['192.0.2.10']},
                     'Compute': {'ctlplane': []}},
    'RoleNetHostnameMap': {
        'Controller': {'ctlplane': ['C0.ctlplane.localdomain'],
                       'canonical': ['c0.localdomain']},
        'Compute': {'ctlplane': []}},
    'ServerIdData': {'server_ids': {'Controller': ['s-c0'], 'Compute': []},
                     'bootstrap_server_id': 's-c0'},
    'EnabledServices': {'Controller': ['marker', 'heartbeat'],
                        'Compute': ['marker']},
    'VipMap': {'ctlplane': '192.0.2.5', 'storage': '10.0.0.5'},
    'BlacklistedHostnames': ['gone', None],
}


def outputs():
    return copy.deepcopy(_OUTPUTS)


def _network(name, lower, vip, cidr, vlan, gateway=None):
    subnet = {'ip_subnet': cidr + '.0/24', 'vlan': vlan,
              'allocation_pools': [{'start': cidr + '.4',
                                    'end': cidr + '.250'}]}
    if gateway:
        subnet['gateway_ip'] = gateway
    return {'name': name, 'name_lower': lower, 'vip': vip, 'mtu': 1500,
            'subnets': {lower + '_subnet': subnet}}


#: tripleo-heat-templates' network-data-samples/default-network-isolation.
NETWORK_ISOLATION = [
    _network('Storage', 'storage', True, '172.16.1', 30),
    _network('StorageMgmt', 'storage_mgmt', True, '172.16.3', 40),
    _network('InternalApi', 'internal_api', True, '172.16.2', 20),
    _network('Tenant', 'tenant', False, '172.16.0', 50),
    _network('External', 'external', True, '10.0.0', 10, '10.0.0.1'),
]


def _role(name, nets, **extra):
    return dict({'name': name, 'networks': {
        n: {'subnet': lower + '_subnet'} for n, lower in nets}}, **extra)


#: THT 18's Controller and Compute, their networks (no services).
THT_ROLES = [
    _role('Controller', [('External', 'external'),
                         ('InternalApi', 'internal_api'),
                         ('Storage', 'storage'),
                         ('StorageMgmt', 'storage_mgmt'),
                         ('Tenant', 'tenant')],
          tags=['primary', 'controller'], CountDefault=1,
          HostnameFormatDefault='%stackname%-controller-%index%'),
    _role('Compute', [('InternalApi', 'internal_api'), ('Tenant', 'tenant'),
                      ('Storage', 'storage')],
          tags=['compute'], CountDefault=1,
          HostnameFormatDefault='%stackname%-novacompute-%index%'),
    _role('CephStorage', [('Storage', 'storage'),
                          ('StorageMgmt', 'storage_mgmt')],
          tags=['ceph', 'storage']),
]


def servers(controllers=1, computes=1, **networks):
    """A deployed servers mapping (as load_servers returns it); keyword
    ``<hostname>={net: ip}`` gives a host addresses."""
    result = {'Controller': [], 'Compute': []}
    for role, count, first, fmt in (
            ('Controller', controllers, 10, 'overcloud-controller-%d'),
            ('Compute', computes, 20, 'overcloud-novacompute-%d')):
        for index in range(count):
            name = fmt % index
            result[role].append({
                'hostname': name,
                'ctlplane_ip': '192.0.2.%d' % (first + index),
                'ctlplane_cidr': '192.0.2.0/24', 'ssh_user': None,
                'networks': dict(networks.get(name.replace('-', '_')) or {})})
    return result


def deployment(dep_id, server_id, name, group='script', config='echo hi',
               stack_id='oc-Controller-x-0-y-ControllerDeployment-z',
               creation_time='2024-01-01T00:00:00Z'):
    return {
        'id': dep_id, 'server_id': server_id, 'config_id': 'cfg-' + dep_id,
        'creation_time': creation_time, 'status': 'COMPLETE',
        'config': {
            'id': 'cfg-' + dep_id, 'name': name, 'group': group,
            'config': config, 'outputs': [], 'options': {},
            'inputs': [
                {'name': 'deploy_server_id', 'value': 'placeholder'},
                {'name': 'deploy_stack_id', 'value': stack_id + '/uuid'},
                {'name': 'deploy_resource_name', 'value': 'Deployment'},
            ],
        },
    }


class _Obj:
    def __init__(self, **attrs):
        self._attrs = attrs
        self.__dict__.update(attrs)

    def to_dict(self):
        return copy.deepcopy(self._attrs)


def resource(name, stack, physical_id=None, required_by=(), nested=None,
             creation_time='2024-01-01T00:00:00Z', **attrs):
    """A resource as a nested resource listing gives it (links to its
    stack and nested stack by id)."""
    links = [{'rel': 'stack', 'href': 'http://h/v1/a/stacks/n/%s' % stack}]
    if nested:
        links.append({'rel': 'nested',
                      'href': 'http://h/v1/a/stacks/n/%s' % nested})
    return dict(attrs, resource_name=name, links=links,
                physical_resource_id=physical_id or '%s-%s' % (stack, name),
                required_by=list(required_by), creation_time=creation_time)


class FakeHeat:
    """Just enough of a heatclient v1 client."""

    def __init__(self, outputs=None, deployments=(), configs=None,
                 resources=()):
        heat_outputs = [{'output_key': k, 'output_value': v}
                        for k, v in (outputs or {}).items()]
        self.stacks = _Obj(get=lambda stack_id: _Obj(outputs=heat_outputs))
        self.software_deployments = _Obj(
            list=lambda: [_Obj(**d) for d in deployments])
        configs = configs or {}
        self.software_configs = _Obj(get=lambda i: _Obj(**configs[i]))
        self.resource_lists = []

        def list_resources(stack_id, nested_depth=0, with_detail=False,
                           filters=None):
            self.resource_lists.append((stack_id, with_detail, filters))
            name = (filters or {}).get('name')
            return [_Obj(**r) for r in resources
                    if name is None or r['resource_name'] == name]
        self.resources = _Obj(list=list_resources)


class FakeRunner:
    """Records every argv; answers from a table of (prefix, rc, stdout).

    With ``check_exit`` it raises CommandFailedError, as ProcessRunner
    does, when a ``check`` run exits non-zero.
    """

    def __init__(self, answers=(), check_exit=False):
        self.calls = []
        self.inputs = []
        self.kwargs = []
        self.answers = list(answers)
        self.check_exit = check_exit

    def run(self, argv, *, check=True, timeout=None, input=None, env=None,
            stdout=None, tied=False):
        self.calls.append(list(argv))
        self.inputs.append(input)
        self.kwargs.append({'check': check, 'timeout': timeout,
                            'input': input, 'env': env})
        result = subprocess.CompletedProcess(argv, 0, b'', b'')
        for prefix, rc, out in self.answers:
            if argv[:len(prefix)] == list(prefix):
                result = subprocess.CompletedProcess(argv, rc, out, b'')
                break
        if self.check_exit and check and result.returncode:
            raise exceptions.CommandFailedError('%s failed' % argv[0])
        return result

    def spawn(self, argv, *, log_path, env=None):
        raise AssertionError('this test expects no long-running process')

    def find(self, *words):
        return [c for c in self.calls if c[:len(words)] == list(words)]


class FakeLauncher(ephemeral.EphemeralHeatLauncher):
    """A launcher of type ``fake``: no process, a SQLite database."""

    heat_type = 'fake'

    def __init__(self, heat_dir, **kw):
        super().__init__(heat_dir, **kw)
        self.alive = False
        self.calls = []
        self._db = database.SqliteDatabase(
            self.files.path(database.SQLITE_NAME))

    @property
    def database(self):
        return self._db

    def _launch(self):
        self.calls.append('launch')
        self.alive = True
        return {'pid': 4242}

    def _start_watchdog(self, saved):
        self.calls.append('watchdog')
        return {}

    def _is_alive(self, saved):
        return self.alive

    def _terminate(self, saved, timeout):
        self.calls.append('terminate')
        self.alive = False

    def _force_kill(self, saved):
        self.calls.append('kill')
        self.alive = False


class FakeClock:
    """``clock()`` and ``sleep()`` for code that takes them: time moves
    only by sleeping or :meth:`advance`."""

    def __init__(self, now=0.0):
        self.now = now
        self.sleeps = []

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def deploy_request(stack='overcloud', work_dir=None, **fields):
    """A :class:`~tripleo_ephemeral.deploy.request.DeployRequest` of
    ``stack`` in ``work_dir`` (a path), with ``fields``."""
    from tripleo_ephemeral.deploy import request
    from tripleo_ephemeral import workdir

    return request.DeployRequest(workdir=workdir.WorkDir(work_dir, stack),
                                 **fields)


def deploy_inputs(stack='overcloud', work_dir=None, **fields):
    """The :class:`~tripleo_ephemeral.deploy.inputs.Inputs` of
    :func:`deploy_request`."""
    from tripleo_ephemeral.deploy import inputs

    return inputs.Inputs(deploy_request(stack, work_dir, **fields))
