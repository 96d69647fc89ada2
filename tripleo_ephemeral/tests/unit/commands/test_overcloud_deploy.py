"""`overcloud deploy`: its options (check_parser) and what it returns."""

import io
import os

import fixtures
from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import deploy_request
from tripleo_ephemeral.commands import overcloud_deploy
from tripleo_ephemeral.deploy import result


class TestDeployOvercloudParser(osc_base.TestCommand):

    def setUp(self):
        super().setUp()
        self.cmd = overcloud_deploy.DeployOvercloud(self.app, None)

    def _rejected(self, *arglist):
        self.assertRaises(osc_base.ParserException, self.check_parser,
                          self.cmd, list(arglist), [])

    def test_defaults(self):
        parsed = self.check_parser(self.cmd, [], [
            ('stack', 'overcloud'), ('work_dir', None),
            ('templates', None),
            ('environment_files', []), ('environment_directories', []),
            ('roles_file', None), ('networks_file', None), ('vip_file', None),
            ('deployed_servers', None), ('timeout', 240),
            ('disable_validations', False), ('skip_checks', []),
            ('disable_container_prepare', False),
            ('verbose_events', False),
            ('stack_only', False), ('config_download_only', False),
            ('keep_running', False),
            ('overcloud_ssh_user', None), ('overcloud_ssh_key', None),
            ('limit', None), ('tags', None), ('skip_tags', None),
            ('ansible_forks', None),
            ('heat_type', 'native'), ('heat_api_port', None),
            ('heat_config_override', []), ('heat_debug', False),
            ('heat_container_image', None), ('heat_engine_workers', None),
            ('skip_heat_pull', False)])
        work_dir = self.cmd.workdir(parsed)
        self.assertEqual(os.path.expanduser('~/overcloud-deploy/overcloud'),
                         work_dir.path)

    def test_timeout_must_be_above_zero(self):
        for value in ('0', '-5', 'soon'):
            self._rejected('--timeout', value)

    def test_strict(self):
        self.check_parser(self.cmd, ['--strict'], [('strict', True)])

    def test_stack_group(self):
        parsed = self.check_parser(self.cmd, [
            '--stack', 'oc', '--templates', '/t', '-e', 'a.yaml',
            '--environment-file', '/b.yaml', '--environment-directory',
            '/envs', '-r', '/r.yaml', '-n', '/n.yaml', '--vip-file', 'v.yaml',
            '--deployed-servers', '/s.yaml', '--timeout', '30',
            '--disable-validations', '--skip-check', 'x', '--skip-check',
            'y', '--disable-container-prepare', '--verbose-events'], [
            ('stack', 'oc'), ('templates', '/t'),
            ('environment_files', [os.path.abspath('a.yaml'), '/b.yaml']),
            ('environment_directories', ['/envs']),
            ('roles_file', '/r.yaml'), ('networks_file', '/n.yaml'),
            ('vip_file', os.path.abspath('v.yaml')),
            ('deployed_servers', '/s.yaml'), ('timeout', 30),
            ('disable_validations', True), ('skip_checks', ['x', 'y']),
            ('disable_container_prepare', True),
            ('verbose_events', True)])
        self.assertTrue(self.cmd.workdir(parsed).path.endswith(
            '/overcloud-deploy/oc'))
        # --templates without a value: the installed THT (found later);
        # without the option: the bundled sample.
        self.check_parser(self.cmd, ['--templates', '-e', '/e.yaml'], [
            ('templates', deploy_request.INSTALLED),
            ('environment_files', ['/e.yaml'])])

    def test_work_dir_and_its_tripleoclient_alias(self):
        for option in ('--work-dir', '--working-dir'):
            parsed = self.check_parser(self.cmd, [option, '~/w'], [
                ('work_dir', os.path.expanduser('~/w'))])
            self.assertEqual(os.path.expanduser('~/w'),
                             self.cmd.workdir(parsed).path)

    def test_what_to_run_group(self):
        self.check_parser(self.cmd, ['--stack-only', '--keep-running'], [
            ('stack_only', True), ('keep_running', True)])
        self.check_parser(self.cmd, ['--config-download-only'], [
            ('config_download_only', True)])
        self._rejected('--stack-only', '--config-download-only')

    def test_ansible_group(self):
        self.check_parser(self.cmd, [
            '--overcloud-ssh-user', 'admin', '--overcloud-ssh-key', '/k',
            '--limit', 'Compute', '--tags', 'a,b', '--skip-tags', 'c',
            '--ansible-forks', '4'], [
            ('overcloud_ssh_user', 'admin'), ('overcloud_ssh_key', '/k'),
            ('limit', 'Compute'), ('tags', 'a,b'), ('skip_tags', 'c'),
            ('ansible_forks', 4)])

    def test_heat_groups(self):
        self.check_parser(self.cmd, [
            '--heat-type', 'auto', '--heat-api-port', '8100',
            '--heat-config-override', 'DEFAULT.debug=true',
            '--heat-startup-timeout', '30', '--heat-debug',
            '--heat-container-image', 'img', '--heat-container-db-image',
            'db', '--heat-engine-workers', '3', '--skip-heat-pull'], [
            ('heat_type', 'auto'), ('heat_api_port', 8100),
            ('heat_config_override', ['DEFAULT.debug=true']),
            ('heat_startup_timeout', 30), ('heat_debug', True),
            ('heat_container_image', 'img'),
            ('heat_container_db_image', 'db'),
            ('heat_engine_workers', 3), ('skip_heat_pull', True)])
        for heat_type in ('installed', 'native', 'container', 'pod'):
            self.check_parser(self.cmd, ['--heat-type', heat_type], [
                ('heat_type', heat_type)])

    def test_bad_values_are_rejected_while_parsing(self):
        for arglist in (['--heat-type', 'kubernetes'],
                        ['--heat-api-port', '0'],
                        ['--heat-api-port', 'eighty'],
                        ['--timeout', '-1'], ['--timeout', 'soon'],
                        ['--ansible-forks', '-2'],
                        ['--heat-engine-workers', '-1'],
                        ['--heat-startup-timeout', '-5'],
                        ['--no-such-option']):
            self._rejected(*arglist)


class FakeDeployment:
    """Stands in for deploy.deployment.Deployment; records its use."""

    made = []

    def __init__(self, inputs, out=None, verbose_events=False, **kwargs):
        self.inputs = inputs
        self.out = out
        self.kwargs = kwargs
        self.made.append(self)

    def render_saved(self, ansible=None):
        self.ansible = ansible
        self.out.write('config-download rendered\n')
        return result.Result(
            self.inputs.stack, 'DEPLOY_SUCCESS',
            work_dir=self.inputs.workdir.path,
            config_download=self.inputs.workdir.config_download_dir)


class TestDeployOvercloudResult(osc_base.TestCommand):

    def test_result_is_the_output_progress_goes_to_stderr(self):
        self.app.stderr = io.StringIO()
        self.useFixture(fixtures.MonkeyPatch(
            'tripleo_ephemeral.deploy.deployment.Deployment', FakeDeployment))
        cmd = overcloud_deploy.DeployOvercloud(self.app, None)
        parsed = self.check_parser(cmd, [
            '--stack', 'oc', '--work-dir', '/w', '--config-download-only',
            '-y'],
            [])
        columns, values = cmd.take_action(parsed)
        self.assertEqual(deploy_request.COLUMNS, columns)
        shown = dict(zip(columns, values))
        self.assertEqual('DEPLOY_SUCCESS', shown['status'])
        # --config-download-only runs the playbooks: no inflight
        # validations unless asked, as tripleoclient.
        ansible = FakeDeployment.made[-1].ansible
        self.assertEqual('opendev-validation', ansible.skip_tags)
        self.assertEqual('oc', shown['stack'])
        self.assertEqual('/w', shown['work_dir'])
        self.assertEqual('/w/config-download/oc', shown['config_download'])
        self.assertIsNone(shown['stack_id'])
        self.assertEqual('config-download rendered\n',
                         self.app.stderr.getvalue())
        self.assertIs(FakeDeployment.made[-1].out, self.app.stderr)
