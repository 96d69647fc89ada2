"""openstack tripleo container image prepare default, the deploy guide's
first step, through the real CLI."""

import copy

from tripleo_common.image import kolla_builder
import yaml


def test_prepare_default_writes_the_environment(cli, tmp_path):
    out = tmp_path / 'containers-prepare-parameter.yaml'
    proc = cli.run('tripleo', 'container', 'image', 'prepare', 'default',
                   '--output-env-file', str(out), '--local-push-destination')
    assert proc.stderr == ''
    assert proc.stdout == out.read_text()
    expected = copy.deepcopy(kolla_builder.CONTAINER_IMAGE_PREPARE_PARAM)
    for entry in expected:
        entry['push_destination'] = True
    assert yaml.safe_load(proc.stdout) == {
        'parameter_defaults': {'ContainerImagePrepare': expected}}

    # Again: the first file is kept as .backup, as tripleoclient's.
    again = cli.run('tripleo', 'container', 'image', 'prepare', 'default',
                    '--output-env-file', str(out), '--enable-registry-login')
    assert 'moved to' in again.stderr
    assert (tmp_path / (out.name + '.backup')).read_text() == proc.stdout
    params = yaml.safe_load(out.read_text())['parameter_defaults']
    assert params['ContainerImageRegistryLogin'] is True
    assert 'push_destination' not in params['ContainerImagePrepare'][0]
