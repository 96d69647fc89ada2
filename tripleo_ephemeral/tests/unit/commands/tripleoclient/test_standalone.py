"""tripleoclient's options of ``tripleo deploy`` and ``tripleo launch heat``
(:mod:`tripleo_ephemeral.commands.tripleoclient.standalone`)."""

import fixtures
from osc_lib import exceptions as osc_exceptions
from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import launch_heat
from tripleo_ephemeral.commands import tripleo_deploy
from tripleo_ephemeral.commands.tripleoclient import standalone as tso


class TestStandaloneOptions(osc_base.TestCommand):

    def _parsed(self, cls, argv):
        return self.check_parser(cls(self.app, None), argv, [])

    def test_standalone_values(self):
        parsed = self._parsed(tripleo_deploy.DeployStandalone, [
            '--local-ip', '192.0.2.2/24', '--heat-native', 'false',
            '--deployment-python-interpreter', '/usr/bin/python3',
            '--inflight-validations', '-p', 'plan.yaml', '--cleanup',
            '--transport', 'local', '--heat-user', 'heat',
            '--deployment-user', 'stack', '--force-stack-update',
            '--reproduce-command'])
        values = tso.read_standalone(parsed)
        self.assertEqual(tso.StandaloneValues(
            python_interpreter='/usr/bin/python3',
            inflight_validations=True, heat_type='container'), values)

    def test_standalone_hieradata(self):
        env = self.useFixture(fixtures.TempDir()).path
        good, legacy = env + '/env.yaml', env + '/hiera.yaml'
        with open(good, 'w') as f:
            f.write('parameter_defaults: {StandaloneExtraConfig: {a: 1}}\n')
        with open(legacy, 'w') as f:
            f.write('nova::debug: true\n')
        base = ['--local-ip', '192.0.2.2/24', '--hieradata-override']
        parsed = self._parsed(tripleo_deploy.DeployStandalone, base + [good])
        self.assertEqual((good,),
                         tso.read_standalone(parsed).environment_files)
        parsed = self._parsed(tripleo_deploy.DeployStandalone,
                              base + [legacy])
        exc = self.assertRaises(osc_exceptions.CommandError,
                                tso.read_standalone, parsed)
        self.assertIn('<Role>ExtraConfig', str(exc))

    def test_standalone_refuses_upgrade(self):
        parsed = self._parsed(tripleo_deploy.DeployStandalone,
                              ['--local-ip', '192.0.2.2/24', '--upgrade'])
        exc = self.assertRaises(osc_exceptions.CommandError,
                                tso.read_standalone, parsed)
        self.assertIn('overcloud upgrade prepare', str(exc))

    def test_launch_heat(self):
        parsed = self._parsed(launch_heat.LaunchHeat,
                              ['-k', '--heat-native', '--rm-heat',
                               '--heat-user', 'heat'])
        self.assertTrue(parsed.kill)
        self.assertEqual('native', tso.launch_heat_type(parsed))
        parsed = self._parsed(launch_heat.LaunchHeat, [])
        self.assertIsNone(tso.launch_heat_type(parsed))
