"""The deploy's inputs: the request digest that keys the known stack size."""

from tripleo_ephemeral.deploy import heat_phase
from tripleo_ephemeral.deploy import prepared
from tripleo_ephemeral.tests.unit import fakes

PARAMS = '/w/oc-deploy-parameters.yaml'


def _args(params='DeployIdentifier: 1', env='a: 1'):
    return {
        'stack_name': 'oc',
        'template': {'heat_template_version': 'wallaby',
                     'resources': {'r': {'type': 'OS::Heat::None'}}},
        'files': {'file:///w/env.yaml': env,
                  'file://' + PARAMS: params},
        'environment_files': ['file:///w/env.yaml', 'file://' + PARAMS],
        'timeout_mins': 240, 'disable_rollback': True,
    }


def test_digest_ignores_the_deploy_parameters_content():
    first = prepared.request_digest(_args(), volatile=[PARAMS])
    again = prepared.request_digest(_args(params='DeployIdentifier: 2'),
                                    volatile=[PARAMS])
    assert first == again and len(first) == 64
    # ... but not a changed environment, nor when it is not volatile.
    assert prepared.request_digest(_args(env='a: 2'), volatile=[PARAMS]) != \
        first
    assert prepared.request_digest(_args(params='DeployIdentifier: 2')) != \
        prepared.request_digest(_args())


def test_expected_size_only_for_the_same_request(tmp_path):
    wd = fakes.deploy_inputs('oc', str(tmp_path)).workdir
    phase = heat_phase.HeatPhase('oc', wd, say=lambda text: None)
    assert phase._expected_size('abc') is None
    wd.save(wd.stack_size_file, {'request': 'abc', 'resources': 42})
    assert phase._expected_size('abc') == 42
    assert phase._expected_size('def') is None


def test_skip_deploy_identifier(tmp_path):
    import yaml

    given = fakes.deploy_inputs('oc', str(tmp_path),
                                skip_deploy_identifier=True)
    given.workdir.create()
    params = yaml.safe_load(open(given._write_deploy_parameters()))[
        'parameter_defaults']
    assert params['DeployIdentifier'] == ''
    assert 'DeployIdentifierUUID' not in params
    default = fakes.deploy_inputs('oc', str(tmp_path))
    params = yaml.safe_load(open(default._write_deploy_parameters()))[
        'parameter_defaults']
    assert isinstance(params['DeployIdentifier'], int)
