"""`overcloud adopt` of a real tripleo-heat-templates 18.0.0 overcloud
(1 Controller + 1 Compute), then the next deploy: an equivalent stack.

Opt-in, three stack creates of minutes each::

    TRIPLEO_EPHEMERAL_THT=1 pytest -ra \\
        tripleo_ephemeral/tests/functional/test_adopt_tht.py

From an installed Heat (a launched one, as in test_adopt.py) and from the
dump of a native deploy's heat dir. The inputs are tools/tht_deploy.py's.
"""

import importlib.util
import os

import pytest

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.tests.functional import helpers

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TOOL = os.path.join(REPO, 'tools', 'tht_deploy.py')

pytestmark = [
    pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                       reason='set TRIPLEO_EPHEMERAL_THT=1 to adopt a real '
                              'tripleo-heat-templates overcloud (minutes)'),
    pytest.mark.skipif(not os.path.isfile(TOOL),
                       reason='needs a source checkout (tools/)'),
]


@pytest.fixture(scope='module')
def inputs(tmp_path_factory):
    spec = importlib.util.spec_from_file_location('tht_deploy', TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write_inputs


@pytest.mark.parametrize('source', ['installed', 'dump'])
def test_adopt_tht_overcloud(cli, tmp_path, heat_dir, work_dir, port,
                             adopted_dir, tht_dir, inputs, source):
    args = inputs(tht_dir, str(tmp_path / 'inputs'))
    env = {}
    if source == 'installed':
        cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                 '--heat-api-port', str(port))
        env = {'OS_CLOUD': 'heat'}
        done = cli.deploy(work_dir, *args, heat_type='installed', env=env,
                          timeout=3600)
        adopt = ['--heat-type', 'installed']
    else:
        done = cli.deploy(work_dir, *args, port=port, timeout=3600)
        adopt = ['--heat-db-dump',
                 str(helpers.Layout(work_dir).heat_dump)]
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    other = readiness.free_port()

    result = cli.json('overcloud', 'adopt', '--work-dir', str(adopted_dir),
                      '--heat-api-port', str(other), *adopt, env=env,
                      timeout=3600)

    assert result['stack_status'] == 'CREATE_COMPLETE'
    assert result['servers'] == 2
    if source == 'installed':
        assert result['outputs_check'] == 'equal'
        assert 'AdminPassword' in result['hidden_recovered']
        cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
                '--kill')
    wd = helpers.Layout(adopted_dir)
    assert wd.roles_data_file.exists()      # THT's rendering data output
    report = helpers.redeploy_and_compare(
        cli, adopted_dir, tmp_path / 'snapshot', other, templates=tht_dir,
        timeout=3600)
    # THT 18 configures through Ansible: no software deployments.
    helpers.assert_equivalent(report, outputs=20, files=150, deployments=0)
    assert report.compared['passwords'] >= 30
