"""The real tripleo-heat-templates 18.0.0: 1 Controller + 1 Compute.

The stack is left running for tools/parity/config_download.py: our
config-download equals tripleo-common 18.0.0's for it, but for the
deliberate differences the tool lists.

Opt-in: it downloads THT's sdist once (into ~/.cache/tripleo-ephemeral/tht)
and the stack create takes minutes. Run it with::

    TRIPLEO_EPHEMERAL_THT=1 pytest -ra \\
        tripleo_ephemeral/tests/functional/test_tht_overcloud.py

The inputs (roles from THT's roles/, no isolated networks, TEST-NET
servers) are the ones tools/tht_deploy.py writes.
"""

import importlib.util
import os

import pytest
import yaml

from tripleo_ephemeral.tests.functional import helpers

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TOOL = os.path.join(REPO, 'tools', 'tht_deploy.py')
PARITY = os.path.join(REPO, 'tools', 'parity', 'config_download.py')

pytestmark = [
    pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                       reason='set TRIPLEO_EPHEMERAL_THT=1 to deploy the '
                              'real tripleo-heat-templates (minutes)'),
    pytest.mark.skipif(not os.path.isfile(TOOL),
                       reason='needs a source checkout (tools/)'),
]


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='module')
def tool():
    return _load('tht_deploy', TOOL)


def test_tht_overcloud(cli, tool, tmp_path, work_dir, port):
    tht = tool.tht_dir()
    roles, networks, servers = tool.write_inputs(tht, str(tmp_path))
    done = cli.deploy(work_dir, '--templates', tht, '-r', roles,
                      '-n', networks, '--deployed-servers', servers,
                      '--keep-running', port=port, timeout=3600)
    assert done.result['stack_status'] == 'CREATE_COMPLETE'
    assert done.result['status'] == 'DEPLOY_SUCCESS'

    wd = helpers.Layout(work_dir)
    params = yaml.safe_load(wd.tht_parameters_file.read_text())[
        'parameter_defaults']
    assert 'OS::TripleO::Services::Keystone' in params['ControllerServices']
    # tripleoclient's: no service the registry maps to OS::Heat::None.
    assert len(params['ControllerServices']) == 47
    assert params['ContainerKeystoneImage'] == (
        'quay.io/tripleomastercentos9/openstack-keystone:current-tripleo')

    cd = wd.config_download_dir
    for name in ('deploy_steps_playbook.yaml', 'deployments.yaml',
                 'external_deploy_steps_tasks_step1.yaml',
                 'Controller/deploy_steps_tasks_step1.yaml',
                 'Compute/step_config.pp', 'group_vars/Controller',
                 'host_vars/overcloud-novacompute-0'):
        assert (cd / name).is_file(), name
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    host = inventory['Controller']['hosts']['overcloud-controller-0']
    assert host['ansible_host'] == '192.0.2.10'
    assert 'Compute' in inventory['nova_compute']['children']
    assert 'allovercloud' in inventory

    # tripleo-common's config download of the same stack.
    parity = _load('parity_config_download', PARITY)
    ref = tmp_path / 'tripleo-common'
    parity.reference_config(parity.heat_endpoint(str(work_dir)), 'overcloud',
                            str(ref), 'tripleo-admin', 'ctlplane')
    result = parity.compare(str(cd), str(ref))
    assert (result['different'], result['only_ours'],
            result['only_theirs']) == ([], [], [])
    assert result['deliberate'] == ['deployments.yaml']
