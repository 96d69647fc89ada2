from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import launch_heat


class TestLaunchHeatParser(osc_base.TestCommand):

    def setUp(self):
        super().setUp()
        self.cmd = launch_heat.LaunchHeat(self.app, None)

    def test_defaults(self):
        parsed = self.check_parser(self.cmd, [], [
            ('heat_type', None), ('heat_api_port', None),
            ('kill', False), ('restore_db', None), ('empty', False)])
        assert launch_heat.heat_dir(parsed).endswith(
            'overcloud-deploy/overcloud/heat-launcher')
        parsed = self.check_parser(self.cmd, ['--stack', 'oc'], [])
        assert launch_heat.heat_dir(parsed).endswith(
            'overcloud-deploy/oc/heat-launcher')
        parsed = self.check_parser(self.cmd, ['--working-dir', '/w'], [])
        assert launch_heat.heat_dir(parsed) == '/w/heat-launcher'

    def test_kill_and_restore_exclude_each_other(self):
        self.assertRaises(osc_base.ParserException, self.check_parser,
                          self.cmd, ['--kill', '--restore-db'], [])
        self.assertRaises(osc_base.ParserException, self.check_parser,
                          self.cmd, ['--empty', '--restore-db'], [])

    def test_restore_db_names_a_dump(self):
        self.check_parser(self.cmd, ['--restore-db', 'last-success'],
                          [('restore_db', 'last-success')])
        self.check_parser(self.cmd, ['--restore-db', '20261126T193903Z'],
                          [('restore_db', '20261126T193903Z')])

    def test_port_must_be_a_port(self):
        for bad in ('0', '70000', 'x'):
            self.assertRaises(osc_base.ParserException, self.check_parser,
                              self.cmd, ['--heat-api-port', bad], [])

    def test_unknown_type(self):
        self.assertRaises(osc_base.ParserException, self.check_parser,
                          self.cmd, ['--heat-type', 'kubernetes'], [])

    def test_values(self):
        self.check_parser(self.cmd, [
            '--heat-type', 'native', '--heat-dir', '/tmp/x',
            '--heat-api-port', '8100', '--restore-db',
            '--heat-config-override', 'DEFAULT.debug=true'], [
            ('heat_type', 'native'), ('heat_dir', '/tmp/x'),
            ('heat_api_port', 8100), ('restore_db', 'newest'),
            ('heat_config_override', ['DEFAULT.debug=true'])])
