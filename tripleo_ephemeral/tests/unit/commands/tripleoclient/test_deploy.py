"""tripleoclient's ``overcloud deploy`` options with a value here
(:mod:`tripleo_ephemeral.commands.tripleoclient.deploy`)."""

from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import overcloud_deploy
from tripleo_ephemeral.commands.tripleoclient import deploy as deploy_compat


class TestDeployCompat(osc_base.TestCommand):

    def test_answers_file(self):
        import tempfile

        cmd = overcloud_deploy.DeployOvercloud(self.app, None)
        with tempfile.NamedTemporaryFile('w', suffix='.yaml') as answers:
            answers.write('templates: /tht\nenvironments: [/a.yaml, '
                          '/b.yaml]\nroles: /roles.yaml\nnetworks: /n.yaml\n')
            answers.flush()
            parsed = self.check_parser(cmd, [
                '--answers-file', answers.name, '-e', '/c.yaml', '-n',
                '/mine.yaml'], [])
            merged = deploy_compat.apply_answers(parsed)
        self.assertEqual('/tht', merged['templates'])
        self.assertEqual(['/a.yaml', '/b.yaml', '/c.yaml'],
                         merged['environment_files'])
        self.assertEqual('/roles.yaml', merged['roles_file'])
        self.assertEqual('/mine.yaml', merged['networks_file'])
        # Values are returned; the arguments are only read.
        self.assertIsNone(parsed.templates)
        self.assertEqual(['/c.yaml'], parsed.environment_files)

    def test_tripleoclient_deploy_options_parse(self):
        cmd = overcloud_deploy.DeployOvercloud(self.app, None)
        self.check_parser(cmd, [
            '--working-dir', '/w', '-y', '--override-ansible-cfg', '/a.cfg',
            '--config-download-timeout', '30', '--skip-deploy-identifier',
            '--deployment-python-interpreter', '/usr/bin/python3',
            '--inflight-validations'], [
                ('work_dir', '/w'), ('yes', True),
                ('override_ansible_cfg', '/a.cfg'),
                ('config_download_timeout', 30),
                ('skip_deploy_identifier', True),
                ('deployment_python_interpreter', '/usr/bin/python3'),
                ('inflight_validations', True)])
