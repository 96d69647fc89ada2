"""`overcloud deploy --heat-type pod|container` of the bundled templates."""

import pytest
import yaml

from tripleo_ephemeral.tests.functional import conftest
from tripleo_ephemeral.tests.functional import podman_env

SERVERS = {
    'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.0.2.10'}],
    'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '192.0.2.20'}],
}


@pytest.fixture
def work_dir(tmp_path):
    path = tmp_path / 'overcloud-deploy'
    yield path
    conftest.stop_heat_in(path / 'heat-launcher')


@pytest.mark.parametrize('heat_type', ['pod', 'container'])
def test_deploy_bundled_templates(cli, work_dir, port, tmp_path, heat_image,
                                  heat_type):
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump(SERVERS))
    proc = cli.run('overcloud', 'deploy', '--heat-type', heat_type,
                   '--stack-only', '--work-dir', str(work_dir),
                   '--heat-api-port', str(port), '--heat-container-image',
                   heat_image, '--deployed-servers', str(servers))
    assert 'DEPLOY_SUCCESS' in proc.stdout
    status = yaml.safe_load(
        (work_dir / 'overcloud-deployment_status.yaml').read_text())
    assert status == {'deployment_status': 'DEPLOY_SUCCESS'}
    heat_dir = work_dir / 'heat-launcher'
    assert (heat_dir / 'heat-db-dump.sql.gz').stat().st_size > 0
    assert podman_env.leftovers_of(heat_dir) == []
    inventory = yaml.safe_load((work_dir / 'config-download' / 'overcloud' /
                                'tripleo-ansible-inventory.yaml').read_text())
    assert list(inventory['Compute']['hosts']) == ['cmp-0']
