"""A deploy script in tripleoclient's style, through the real CLI, up to
the point before Heat (--dry-run, --setup-only): cheap. The whole script,
stack included, is test_tht_tripleoclient_script.py (opt-in)."""

import yaml

from tripleo_ephemeral.tests.functional import helpers

#: tripleoclient options a script passes that change nothing here.
NOOPS = ('--deployed-server', '--config-download', '--no-cleanup',
         '--rm-heat', '--overcloud-ssh-port-timeout', '30')


def test_dry_run_then_setup_only(cli, work_dir):
    argv = ('--ntp-server', 'pool.ntp.org', '--libvirt-type', 'qemu',
            '--disable-validations', '--overcloud-ssh-user', 'tripleo-admin',
            '-t', '60') + NOOPS
    checked = cli.deploy(work_dir, '--dry-run', *argv).result
    assert checked['status'] == 'CHECKED'
    assert not work_dir.exists()  # nothing left behind

    prepared = cli.deploy(work_dir, '--setup-only', *argv).result
    assert prepared['status'] == 'PREPARED'
    params = yaml.safe_load(helpers.Layout(work_dir).deploy_parameters_file
                            .read_text())['parameter_defaults']
    assert params['NtpServer'] == 'pool.ntp.org'
    assert params['NovaComputeLibvirtType'] == 'qemu'
    assert not helpers.Layout(work_dir).heat_dir.exists()  # no Heat

    refused = cli.deploy(work_dir, '--baremetal-deployment', 'bm.yaml',
                         check=False)
    assert 'bare-metal provisioning is not done here' in \
        helpers.one_line_error(refused.proc)


def test_deploy_guide_first_step_on_tht(cli, tmp_path, tht_dir):
    """prepare default, then deploy with -e of what it wrote: accepted."""
    prepare = tmp_path / 'containers-prepare-parameter.yaml'
    cli.run('tripleo', 'container', 'image', 'prepare', 'default',
            '--output-env-file', str(prepare))
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump({
        'Controller': [{'hostname': 'overcloud-controller-0',
                        'ctlplane_ip': '192.0.2.10'}],
        'Compute': [{'hostname': 'overcloud-novacompute-0',
                     'ctlplane_ip': '192.0.2.20'}]}))
    done = cli.deploy(
        tmp_path / 'work', '--templates', tht_dir,
        '-r', '%s/roles_data.yaml' % tht_dir,
        '-n', '%s/network_data_default.yaml' % tht_dir,
        '-e', '%s/environments/low-memory-usage.yaml' % tht_dir,
        '-e', str(prepare), '--deployed-servers', str(servers),
        '--ntp-server', 'pool.ntp.org', '--libvirt-type', 'qemu',
        '--deployed-server', '--dry-run')
    assert done.result['status'] == 'CHECKED'
    assert helpers.warnings(done.proc.stderr) == []
