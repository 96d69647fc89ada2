"""update prepare and upgrade prepare with tripleo-heat-templates 18.0.0.

Opt-in (two real THT stacks, minutes each)::

    TRIPLEO_EPHEMERAL_THT=1 pytest -s \\
        tripleo_ephemeral/tests/functional/test_tht_lifecycle.py

The inputs are tools/tht_deploy.py's (1 Controller + 1 Compute, no
isolated networks, TEST-NET servers); nothing runs on hosts (--stack-only
is forced). Each prepare must reach CREATE_COMPLETE and render the
lifecycle playbooks; the create times are printed.
"""

import importlib.util
import os

import pytest
import yaml

from tripleo_ephemeral.tests.functional import helpers

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TOOL = os.path.join(REPO, 'tools', 'tht_deploy.py')

pytestmark = [
    pytest.mark.skipif(os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
                       reason='set TRIPLEO_EPHEMERAL_THT=1 to run the '
                              'lifecycle prepares on tripleo-heat-templates '
                              '(minutes)'),
    pytest.mark.skipif(not os.path.isfile(TOOL),
                       reason='needs a source checkout (tools/)'),
]

RENDERED = {
    'update': ('update_steps_playbook.yaml', 'external_update_steps_'
               'playbook.yaml', 'Controller/update_tasks_step1.yaml'),
    'upgrade': ('upgrade_steps_playbook.yaml',
                'post_upgrade_steps_playbook.yaml',
                'external_upgrade_steps_playbook.yaml',
                'Compute/upgrade_tasks_step0.yaml'),
}
ALWAYS = ('deploy_steps_playbook.yaml', 'scale_playbook.yaml',
          'scale_steps_tasks.yaml', 'tripleo-ansible-inventory.yaml')


def _inputs(tmp_path, tht_dir):
    spec = importlib.util.spec_from_file_location('tht_deploy', TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.write_inputs(tht_dir, str(tmp_path / 'inputs'))


@pytest.mark.parametrize('kind', ['update', 'upgrade'])
def test_tht_prepare(cli, tht_dir, tmp_path, work_dir, port, kind):
    # tools/tht_deploy.py's control plane scenario: THT's own defaults.
    result = cli.json(
        'overcloud', kind, 'prepare', '-y', '--work-dir', str(work_dir),
        '--heat-api-port', str(port), *_inputs(tmp_path, tht_dir),
        timeout=3600)
    print('THT %s prepare: %s in %.1fs (%d resources)' % (
        kind, result['stack_status'], result['stack_seconds'],
        result['resources']))
    assert result['stack_status'] == 'CREATE_COMPLETE'
    assert result['ansible_seconds'] is None
    wd = helpers.Layout(work_dir)
    environments = (wd.load(wd.deploy_inputs_file) or {})[
        'environment_files']
    assert [e for e in environments if e.endswith(
        'environments/lifecycle/%s-prepare.yaml' % kind)]
    cd = wd.config_download_dir
    for name in ALWAYS + RENDERED[kind]:
        assert (cd / name).is_file(), name
    # THT's outputs make the rc file too.
    assert 'OS_AUTH_URL=' in (work_dir / 'overcloudrc').read_text()
    # export works after --stack-only: the all-nodes data is computed.
    exported = cli.run('overcloud', 'export', '--work-dir', str(work_dir))
    assert 'exported to' in exported.stdout
    params = yaml.safe_load((work_dir / 'overcloud-export.yaml').read_text())[
        'parameter_defaults']
    assert params['AllNodesExtraMapData']['keystone_short_node_names'] == [
        'overcloud-controller-0']
    assert 'KeystonePublic' in params['EndpointMapOverride']
