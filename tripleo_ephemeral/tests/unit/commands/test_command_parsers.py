"""Every command of the plugin builds its parser, with the shared options."""

from importlib import metadata

from osc_lib.test import base as osc_base

GROUP = 'openstack.tripleo_ephemeral.v1'
#: Commands that work on a deployment, and whether they take --stack.
WORK_DIR_COMMANDS = {
    'overcloud_deploy': True,
    'overcloud_adopt': True,
    'overcloud_deployed_server_agent_config': True,
    'tripleo_launch_heat': True,
    'tripleo_backup_create': True,
    'tripleo_backup_restore': False,
    'tripleo_saved_stack_list': True,
    'tripleo_saved_resource_list': False,
    'tripleo_saved_output_show': True,
    'tripleo_deploy': True,
    'overcloud_update_prepare': True,
    'overcloud_update_run': True,
    'overcloud_upgrade_prepare': True,
    'overcloud_upgrade_run': True,
    'overcloud_external-update_run': True,
    'overcloud_external-upgrade_run': True,
    'overcloud_node_delete': True,
    'overcloud_credentials': True,
    'overcloud_export': True,
    'overcloud_status': True,
    'overcloud_delete': True,
    'overcloud_admin_authorize': True,
}


class TestCommandParsers(osc_base.TestCommand):

    def _commands(self):
        found = {ep.name: ep for ep in metadata.entry_points(group=GROUP)}
        if not found:
            self.skipTest('tripleo-ephemeral is not installed')
        return found

    def test_every_parser_builds(self):
        for name, entry_point in sorted(self._commands().items()):
            cmd = entry_point.load()(self.app, None)
            options = {o for action in cmd.get_parser(name)._actions
                       for o in action.option_strings}
            if name in WORK_DIR_COMMANDS:
                self.assertIn('--work-dir', options, name)
                self.assertIn('--working-dir', options, name)
                self.assertEqual(WORK_DIR_COMMANDS[name],
                                 '--stack' in options, name)

    def test_work_dir_is_attached_one_way(self):
        """Every command that takes --work-dir is a DeploymentCommand: its
        work_dir_options (commands/options.WorkDirOptions) declare the
        options, and read them into a checked WorkDir."""
        from tripleo_ephemeral.commands import base
        from tripleo_ephemeral.commands import options

        taking = []
        for name, entry_point in sorted(self._commands().items()):
            cmd = entry_point.load()(self.app, None)
            parser = cmd.get_parser(name)
            if not any('--work-dir' in a.option_strings
                       for a in parser._actions):
                continue
            taking.append(name)
            self.assertIsInstance(cmd, base.DeploymentCommand, name)
            self.assertIsInstance(cmd.work_dir_options,
                                  options.WorkDirOptions, name)
        self.assertIn('tripleo_launch_heat', taking)
        self.assertIn('overcloud_adoption_validate', taking)
        self.assertIn('tripleo_saved_dump_list', taking)
