"""Create the bundled templates' stack on a real Heat and render it."""

import os

from heatclient import exc as heat_exc
import yaml

from tripleo_ephemeral.deploy import stack_operation
from tripleo_ephemeral.overcloud import config_download
from tripleo_ephemeral.overcloud import deployed_environment
from tripleo_ephemeral.overcloud import deployed_servers
from tripleo_ephemeral.overcloud import ip_allocation
from tripleo_ephemeral.overcloud import network_data
from tripleo_ephemeral.overcloud import outputs
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral.overcloud import roles
from tripleo_ephemeral.overcloud import template_processing
from tripleo_ephemeral.overcloud import vip_data
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral import workdir

STACK = 'overcloud'
SERVERS = {
    'Controller': [{'hostname': 'oc-controller-0',
                    'ctlplane_ip': '192.168.24.10',
                    'ssh_user': 'cloud-admin'}],
    'Compute': [{'hostname': 'oc-compute-0',
                 'ctlplane_ip': '192.168.24.20'}],
}


def test_bundled_overcloud(heat, tmp_path):
    work = workdir.WorkDir(str(tmp_path / 'work'), STACK)
    source = template_processing.bundled_templates_dir()
    role_data = roles.load_roles(os.path.join(source, 'roles_data.yaml'))
    networks = network_data.load_networks(
        os.path.join(source, 'network_data.yaml'))
    templates = template_processing.prepare_templates(
        source, work.templates_dir, role_data, networks)
    servers_file = tmp_path / 'servers.yaml'
    servers_file.write_text(yaml.safe_dump(SERVERS))
    servers = deployed_servers.load_servers(str(servers_file))
    addresses = ip_allocation.allocate(servers, role_data, networks,
                                       vip_data.DEFAULT_VIPS)
    servers_env = deployed_environment.write(deployed_environment.build(
        servers, role_data, networks, addresses, STACK, templates),
        work.deployed_servers_file)
    passwords_file, _ = passwords.ensure_passwords(work.passwords_file)
    envs = os.path.join(templates, 'environments')
    args = template_processing.stack_create_args(
        STACK, templates,
        [os.path.join(envs, 'deployed-server-environment.yaml'),
         os.path.join(envs, 'deployed-server-bootstrap-environment.yaml'),
         passwords_file, servers_env],
        timeout_mins=5)

    created = heat.stacks.create(**args)
    stack = helpers.wait_for_stack(heat, created['stack']['id'])
    assert stack.stack_status == 'CREATE_COMPLETE', stack.stack_status_reason
    _internal_error_names_heats_reason(heat, str(tmp_path / 'heat'))

    stack_outputs, deployments = outputs.fetch_and_save(
        heat, stack.id, work.outputs_file, work.deployments_file)
    assert stack_outputs['RoleNetIpMap'] == {
        'Controller': {'ctlplane': ['192.168.24.10']},
        'Compute': {'ctlplane': ['192.168.24.20']}}
    # Bootstrap, role hieradata and all-nodes hieradata on both servers.
    assert len(deployments) == 6

    # Render from the saved copy, as --config-download-only would.
    saved_outputs, saved_deployments = outputs.load(work.outputs_file,
                                                    work.deployments_file)
    dest = work.config_download_dir
    config_download.render(
        saved_outputs, dest, STACK, saved_deployments,
        host_ssh_users=deployed_servers.ssh_users(servers))

    def read(*parts):
        with open(os.path.join(dest, *parts)) as f:
            return yaml.safe_load(f)

    inventory = read('tripleo-ansible-inventory.yaml')
    controller = inventory['Controller']['hosts']['oc-controller-0']
    assert controller['ansible_host'] == '192.168.24.10'
    assert controller['ansible_ssh_user'] == 'cloud-admin'
    assert inventory[STACK]['children'] == {'Controller': {}, 'Compute': {}}
    assert inventory['heartbeat']['children'] == {'Controller': {}}
    playbook = read('deploy_steps_playbook.yaml')
    assert playbook[0]['hosts'] == STACK
    step3 = read('Controller', 'deploy_steps_tasks_step3.yaml')
    assert 'Start the heartbeat process' in [t['name'] for t in step3]
    host_vars = read('host_vars', 'oc-compute-0')
    assert host_vars['pre_network_Compute'] == ['DeployedServerBootstrap']
    assert host_vars['pre_deployments_Compute'] == [
        'ComputeDeployment', 'ComputeAllNodesDeployment']
    hiera = read('Compute', 'oc-compute-0', 'ComputeDeployment')
    assert hiera['ComputeDeployment']['group'] == 'hiera'
    assert (hiera['ComputeDeployment']['config']['datafiles']
            ['service_configs']['tripleo::role_name'] == 'Compute')
    assert read('group_vars', 'Controller')['tripleo_role_name'] == (
        'Controller')


def _internal_error_names_heats_reason(heat, heat_dir):
    """Issue 29: what the deploy's checks now refuse, sent to Heat anyway
    (an empty environment section): Heat's API says "Internal Error" only;
    the deploy's error names the engine log's reason."""
    url = 'file:///empty-section.yaml'
    try:
        heat.stacks.create(
            stack_name='bad', template={'heat_template_version': '2016-10-14',
                                        'resources': {}},
            files={url: 'parameter_defaults:\n  # NtpServer: x\n'},
            environment_files=[url])
    except heat_exc.HTTPException as exc:
        assert 'Internal Error' in str(exc)
        message = stack_operation.heat_message(exc, heat_dir)
    else:
        raise AssertionError('Heat took an empty environment section')
    assert 'environment has empty section "parameter_defaults"' in message
    assert os.path.join(heat_dir, 'log', 'heat.log') in message
