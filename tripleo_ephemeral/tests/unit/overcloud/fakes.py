"""Stack outputs and heatclient fakes for the overcloud tests."""

import copy

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


class FakeHeat:
    """Just enough of a heatclient v1 client."""

    def __init__(self, outputs=None, deployments=(), configs=None):
        heat_outputs = [{'output_key': k, 'output_value': v}
                        for k, v in (outputs or {}).items()]
        self.stacks = _Obj(get=lambda stack_id: _Obj(outputs=heat_outputs))
        self.software_deployments = _Obj(
            list=lambda: [_Obj(**d) for d in deployments])
        configs = configs or {}
        self.software_configs = _Obj(get=lambda i: _Obj(**configs[i]))
