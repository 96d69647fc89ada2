"""An operator's tripleoclient deploy script, unchanged but for the servers
file, on tripleo-heat-templates 18.0.0.

Opt-in (the stack create takes a minute or more)::

    TRIPLEO_EPHEMERAL_THT=1 pytest -ra \\
        tripleo_ephemeral/tests/functional/test_tht_tripleoclient_script.py
"""

import os

import pytest
import yaml

from tripleo_ephemeral.tests.functional import helpers

pytestmark = pytest.mark.skipif(
    os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
    reason='set TRIPLEO_EPHEMERAL_THT=1 to deploy the real '
           'tripleo-heat-templates (minutes)')


def _script(tht, prepare, servers):
    """The script's lines, as tripleoclient's users wrote them."""
    return ['overcloud', 'deploy', '--templates',
            '-r', '%s/roles_data.yaml' % tht,
            '-n', '%s/network_data_default.yaml' % tht,
            '-e', '%s/environments/low-memory-usage.yaml' % tht,
            '-e', '%s/environments/enable-swap.yaml' % tht,
            '-e', str(prepare),
            '--ntp-server', 'pool.ntp.org', '--libvirt-type', 'qemu',
            '--deployed-server', '--disable-validations',
            '--overcloud-ssh-user', 'tripleo-admin', '--stack-only',
            # The one line the script gains:
            '--deployed-servers', str(servers)]


def test_tripleoclient_script(cli, tmp_path, tht_dir, work_dir, port):
    prepare = tmp_path / 'containers-prepare-parameter.yaml'
    cli.run('tripleo', 'container', 'image', 'prepare', 'default',
            '--output-env-file', str(prepare))
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump({
        'Controller': [{'hostname': 'overcloud-controller-0',
                        'ctlplane_ip': '192.0.2.10'}],
        'Compute': [{'hostname': 'overcloud-novacompute-0',
                     'ctlplane_ip': '192.0.2.20'}]}))
    script = _script(tht_dir, prepare, servers)
    common = ['--work-dir', str(work_dir), '--heat-api-port', str(port),
              '-f', 'json']

    # No passwords generated and none given: stopped before Heat.
    proc = cli.run(*(script + common + ['--disable-password-generation']),
                   check=False)
    assert 'and --disable-password-generation generates none' in \
        helpers.one_line_error(proc)
    assert not work_dir.exists()

    out = tmp_path / 'config-out'
    proc = cli.run(*(script + common + ['--output-dir', str(out)]),
                   timeout=900)
    assert helpers.warnings(proc.stderr) == []
    result = yaml.safe_load(proc.stdout)
    assert result['status'] == 'DEPLOY_SUCCESS'
    assert result['resources'] > 500
    layout = helpers.Layout(work_dir)
    group_vars = (layout.config_download_dir / 'group_vars' /
                  'Compute').read_text()
    assert 'pool.ntp.org' in group_vars
    assert 'nova::compute::libvirt::virt_type: qemu' in group_vars
    copied = out / 'overcloud' / 'group_vars' / 'Compute'
    assert copied.read_text() == group_vars
    helpers.assert_no_heat_left(layout.heat_dir, port)
