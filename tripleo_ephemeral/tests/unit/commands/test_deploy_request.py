"""The arguments are read once into frozen values; nothing writes back."""

import copy
import dataclasses
import io

import fixtures
from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import deploy_request
from tripleo_ephemeral.commands import deployed_server_agent
from tripleo_ephemeral.commands import options
from tripleo_ephemeral.commands import overcloud_admin
from tripleo_ephemeral.commands import overcloud_deploy
from tripleo_ephemeral.commands import overcloud_prepare
from tripleo_ephemeral.commands import overcloud_run
from tripleo_ephemeral.commands import overcloud_node
from tripleo_ephemeral.ansible import run as ansible_run
from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral.deploy import inputs as deploy_inputs
from tripleo_ephemeral.deploy import request as request_mod


class TestDeployRequest(osc_base.TestCommand):

    def test_read_once_into_a_frozen_request(self):
        cmd = overcloud_deploy.DeployOvercloud(self.app, None)
        parsed = self.check_parser(cmd, [
            '--stack', 'oc', '--work-dir', '/w', '-e', '/e.yaml',
            '--limit', 'a, b', '--heat-type', 'auto',
            '--heat-config-override', 'DEFAULT.debug=true'], [])
        before = copy.deepcopy(vars(parsed))
        request = deploy_request.read(parsed, cmd.workdir(parsed))
        self.assertEqual(before, vars(parsed))
        self.assertEqual(('oc', '/w'), (request.stack, request.workdir.path))
        self.assertEqual(('/e.yaml',), request.environment_files)
        self.assertEqual('a:b', request.ansible.limit)
        self.assertEqual('auto', request.launcher.heat_type)
        self.assertEqual(('DEFAULT.debug=true',), request.launcher.overrides)
        for value, field in ((request, 'stack_only'),
                             (request.launcher, 'heat_type'),
                             (request.ansible, 'limit')):
            self.assertRaises(dataclasses.FrozenInstanceError, setattr,
                              value, field, None)

    def test_auto_is_resolved_into_the_spec_not_the_arguments(self):
        self.app.stderr = io.StringIO()
        built = []

        def build(spec, heat_dir, say=None):
            built.append(spec)
            raise RuntimeError('stop here')
        self.useFixture(fixtures.MonkeyPatch(
            'tripleo_ephemeral.heat_launcher.spec.build', build))
        self.useFixture(fixtures.MonkeyPatch(
            'tripleo_ephemeral.heat_launcher.auto.choose',
            lambda *args: ('pod', 'a test')))
        cmd = overcloud_deploy.DeployOvercloud(self.app, None)
        parsed = self.check_parser(cmd, ['--heat-type', 'auto', '-y',
                                         '--work-dir', '/w'], [])
        self.assertRaises(RuntimeError, cmd.take_action, parsed)
        self.assertEqual('pod', built[-1].heat_type)
        self.assertEqual('auto', parsed.heat_type)
        self.assertIn('--heat-type auto chose pod', self.app.stderr.getvalue())

    def test_prepare_derives_a_request(self):
        cmd = overcloud_prepare.PrepareUpdate(self.app, None)
        parsed = self.check_parser(cmd, ['-y'], [])
        request = deploy_request.read(parsed, cmd.workdir(parsed))
        changed = request.replace(stack_only=True)
        self.assertFalse(request.stack_only)
        self.assertTrue(changed.stack_only)
        self.assertIs(request.workdir, changed.workdir)

    def test_inputs_use_the_commands_work_dir(self):
        wd = options.WorkDirOptions().read(_Args(work_dir='/w', stack='oc'))
        inputs = deploy_inputs.Inputs(request_mod.DeployRequest(workdir=wd))
        self.assertIs(wd, inputs.workdir)


class _Args:
    def __init__(self, **values):
        self.__dict__.update(values)


def test_blacklist_limit_does_not_edit_the_callers_options(monkeypatch):
    seen = []
    monkeypatch.setattr(ansible_run, 'run_config_download',
                        lambda config_dir, opts, say: seen.append(opts) or 1)
    run = deployment.Deployment.__new__(deployment.Deployment)
    run.say = lambda text: None
    given = ansible_run.AnsibleOptions(tags='x')
    run._ansible('/cd', given, {'BlacklistedHostnames': ['cmp-1']})
    assert given.limit is None
    assert seen[-1].limit and 'cmp-1' in seen[-1].limit
    assert seen[-1].tags == 'x'


def _help(cmd_class, option):
    cmd = cmd_class(None, None)
    parser = cmd.get_parser('x')
    for action in parser._actions:
        if option in action.option_strings:
            return action.help, action.dest
    return None, None


def test_the_ansible_options_are_declared_once():
    commands = (overcloud_deploy.DeployOvercloud,
                overcloud_run.RunUpdate, overcloud_admin.AuthorizeAdmin,
                overcloud_node.DeleteNode,
                deployed_server_agent.ConfigDeployedServerAgent)
    for option in ('--overcloud-ssh-user', '--overcloud-ssh-key'):
        helps = {_help(c, option)[0].split(' (default')[0]
                 for c in commands}
        assert len(helps) == 1, helps
    limits = {c: _help(c, '--limit') for c in (
        overcloud_deploy.DeployOvercloud, overcloud_run.RunUpdate,
        overcloud_admin.AuthorizeAdmin)}
    # --limit is required for update run: its help has no default.
    assert {h.split(' (default')[0] for h, _d in limits.values()} == {
        limits[overcloud_run.RunUpdate][0]}
    # tripleoclient's dest stays.
    assert limits[overcloud_admin.AuthorizeAdmin][1] == 'limit_hosts'
