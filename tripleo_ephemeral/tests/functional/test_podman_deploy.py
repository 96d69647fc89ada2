"""`overcloud deploy --heat-type pod|container` of the bundled templates."""

import pytest
import yaml

from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import podman_env

SERVERS = {
    'Controller': [{'hostname': 'ctrl-0', 'ctlplane_ip': '192.0.2.10'}],
    'Compute': [{'hostname': 'cmp-0', 'ctlplane_ip': '192.0.2.20'}],
}


@pytest.mark.parametrize('heat_type', ['pod', 'container'])
def test_deploy_bundled_templates(cli, work_dir, port, tmp_path, heat_image,
                                  heat_type):
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump(SERVERS))
    done = cli.deploy(work_dir, '--heat-container-image', heat_image,
                      '--deployed-servers', str(servers), port=port,
                      heat_type=heat_type)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    wd = helpers.Layout(work_dir)
    assert wd.status() == 'DEPLOY_SUCCESS'
    assert wd.heat_dump.stat().st_size > 0
    assert podman_env.leftovers_of(wd.heat_dir) == []
    inventory = yaml.safe_load((wd.config_download_dir /
                                'tripleo-ansible-inventory.yaml').read_text())
    assert list(inventory['Compute']['hosts']) == ['cmp-0']
