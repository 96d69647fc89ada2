"""tripleoclient's overcloud options: what each kind turns into
(:mod:`tripleo_ephemeral.commands.tripleoclient.overcloud`)."""

from osc_lib import exceptions as osc_exceptions
from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import overcloud_admin
from tripleo_ephemeral.commands import overcloud_delete
from tripleo_ephemeral.commands import overcloud_deploy
from tripleo_ephemeral.commands import overcloud_node
from tripleo_ephemeral.commands.tripleoclient import declaration
from tripleo_ephemeral.commands.tripleoclient import overcloud as tco


class TestDeployOptions(osc_base.TestCommand):

    def setUp(self):
        super().setUp()
        self.cmd = overcloud_deploy.DeployOvercloud(self.app, None)

    def _read(self, *argv):
        parsed = self.check_parser(self.cmd, list(argv), [])
        return parsed, tco.read_deploy(parsed, parsed.config_download_only)

    def test_nothing_given_changes_nothing(self):
        _parsed, values = self._read()
        self.assertEqual(tco.DeployValues(), values)

    def test_values(self):
        parsed, values = self._read(
            '--ntp-server', 'pool.ntp.org', '--libvirt-type', 'qemu',
            '--disable-password-generation', '--dry-run',
            '--output-dir', '/tmp/out', '--config-dir', '/tmp/cfg',
            '--validation-errors-nonfatal', '--validation-warnings-fatal',
            '--overcloud-ssh-network', 'ctlplane', '-t', '30',
            '--no-config-download')
        self.assertEqual((('NtpServer', 'pool.ntp.org'),
                          ('NovaComputeLibvirtType', 'qemu')),
                         values.parameters)
        self.assertFalse(values.generate_passwords)
        self.assertEqual('dry-run', values.stop)
        self.assertEqual(('/tmp/out', '/tmp/cfg'), values.config_copies)
        self.assertFalse(values.checks_fatal)
        self.assertTrue(values.warnings_fatal)
        self.assertEqual(30, parsed.timeout)
        self.assertTrue(parsed.stack_only)

    def test_noops_parse_and_change_nothing(self):
        _parsed, values = self._read(
            '--deployed-server', '--config-download', '--no-cleanup',
            '--rm-heat', '--overcloud-ssh-enable-timeout', '5',
            '--overcloud-ssh-port-timeout', '5',
            '--disable-protected-resource-types',
            '--allow-deprecated-network-data', '--config-type', 'x',
            '--no-preserve-config', '--skip-postconfig', '--force-postconfig')
        self.assertEqual(tco.DeployValues(), values)

    def test_refused_in_one_line(self):
        for argv, says in (
                (['--provision-nodes'], '--deployed-servers'),
                (['-b'], 'bare-metal provisioning'),
                (['--baremetal-deployment', 'b.yaml'], 'servers file'),
                (['--network-config'], 'bare-metal provisioning'),
                (['--update-plan-only'], '--dry-run'),
                (['--run-validations'], 'tripleo-ansible-inventory'),
                (['--overcloud-ssh-network', 'external'], 'ctlplane_ip'),
                (['--dry-run', '--setup-only'], 'give one of them'),
                (['--dry-run', '--config-download-only'], 'give one')):
            parsed = self.check_parser(self.cmd, argv, [])
            exc = self.assertRaises(osc_exceptions.CommandError,
                                    tco.read_deploy, parsed,
                                    parsed.config_download_only)
            self.assertIn(says, str(exc))
            self.assertNotIn('\n', str(exc))


class TestOtherCommands(osc_base.TestCommand):

    def _parsed(self, cls, argv):
        return self.check_parser(cls(self.app, None), argv, [])

    def test_node_delete_refuses_a_baremetal_file(self):
        parsed = self._parsed(overcloud_node.DeleteNode,
                              ['-b', 'b.yaml', '--overcloud-ssh-port-timeout',
                               '9'])
        exc = self.assertRaises(osc_exceptions.CommandError, tco.check,
                                parsed, tco.NODE_DELETE)
        self.assertIn('overcloud node delete <host>', str(exc))

    def test_admin_authorize_takes_the_ssh_network_as_deploy_does(self):
        cls = overcloud_admin.AuthorizeAdmin
        self._parsed(cls, ['--overcloud-ssh-network', 'ctlplane',
                           '--overcloud-ssh-enable-timeout', '5',
                           '--static-inventory', 'inv.yaml'])
        parsed = self._parsed(cls, ['--overcloud-ssh-network', 'external'])
        exc = self.assertRaises(osc_exceptions.CommandError,
                                cls(self.app, None).take_action, parsed)
        self.assertIn('ctlplane_ip in the servers file', str(exc))

    def test_delete_refuses_unprovisioning(self):
        for argv in (['-b', 'b.yaml'], ['--networks-file', 'n.yaml']):
            parsed = self._parsed(overcloud_delete.DeleteOvercloud, argv)
            self.assertRaises(osc_exceptions.CommandError, tco.check,
                              parsed, tco.DELETE)


class TestRunOptions(osc_base.TestCommand):

    def test_run_commands_take_what_tripleoclient_deprecated(self):
        from tripleo_ephemeral.commands import overcloud_run

        # Declared once: admin authorize and the runs share it.
        self.assertIn(tco.STATIC_INVENTORY, tco.ADMIN)
        self.assertIn(tco.STATIC_INVENTORY, tco.RUN)
        cmd = overcloud_run.RunExternalUpdate(self.app, None)
        parsed = self.check_parser(cmd, [
            '-y', '--refresh', '--static-inventory', 'inv.yaml',
            '--ssh-user', 'heat-admin'], [('refresh', True),
                                          ('static_inventory', 'inv.yaml'),
                                          ('ssh_user', 'heat-admin')])
        with self.assertLogs('tripleo_ephemeral.commands.tripleoclient',
                             'WARNING') as logged:
            declaration.warn_ignored(parsed, tco.EXTERNAL_UPDATE_RUN)
        self.assertEqual(['--ssh-user is deprecated and ignored',
                          '--static-inventory is deprecated and ignored',
                          '--refresh is deprecated and ignored'],
                         [r.getMessage() for r in logged.records])
