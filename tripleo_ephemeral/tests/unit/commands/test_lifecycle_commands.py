"""The lifecycle commands: parsers, confirmation, what they pass on."""

import io

import fixtures
from osc_lib import exceptions as osc_exceptions
from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import confirm
from tripleo_ephemeral.commands import overcloud_deploy
from tripleo_ephemeral.commands import overcloud_prepare
from tripleo_ephemeral.commands import overcloud_run
from tripleo_ephemeral.deploy import result
from tripleo_ephemeral.lifecycle import run as lifecycle


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Args:
    yes = False


class TestConfirm(osc_base.TestCommand):

    def test_yes_skips_the_question(self):
        args = Args()
        args.yes = True
        confirm.confirm(args, confirm.UPDATE_PROMPT, 'update run',
                        stdin=io.StringIO())

    def test_no_terminal_is_refused_in_one_line(self):
        exc = self.assertRaises(
            osc_exceptions.CommandError, confirm.confirm, Args(),
            confirm.UPDATE_PROMPT, 'update run', stdin=io.StringIO())
        self.assertEqual('update run not confirmed: stdin is not a terminal; '
                         'pass -y to confirm', str(exc))

    def test_answers(self):
        out = io.StringIO()
        confirm.confirm(Args(), confirm.DELETE_PROMPT, 'delete',
                        stdin=Terminal('Yes\n'), stdout=out)
        self.assertIn('[y/N]?', out.getvalue())
        for answer in ('n\n', '\n', ''):
            self.assertRaises(osc_exceptions.CommandError, confirm.confirm,
                              Args(), confirm.DELETE_PROMPT, 'delete',
                              stdin=Terminal(answer), stdout=out)


class TestRunCommands(osc_base.TestCommand):

    def setUp(self):
        super().setUp()
        self.app.stderr = io.StringIO()
        self.calls = []

        def run(workdir, kind, options, say, playbooks=None):
            self.calls.append((workdir, kind, options, playbooks))
            return lifecycle.RunResult(status='%s_RUN_SUCCESS' % kind.upper())
        self.useFixture(fixtures.MonkeyPatch(
            'tripleo_ephemeral.lifecycle.run.run', run))

    def test_limit_is_required_for_update_and_upgrade(self):
        for cls in (overcloud_run.RunUpdate,
                    overcloud_run.RunUpgrade):
            cmd = cls(self.app, None)
            self.assertRaises(osc_base.ParserException, self.check_parser,
                              cmd, ['-y'], [])
        cmd = overcloud_run.RunExternalUpdate(self.app, None)
        self.check_parser(cmd, ['-y', '--refresh'], [('limit', None)])

    def test_update_run_passes_options_on(self):
        cmd = overcloud_run.RunUpdate(self.app, None)
        parsed = self.check_parser(cmd, [
            '--limit', 'ctrl-0, cmp-0', '-y', '--stack', 'oc',
            '--work-dir', '/w', '--overcloud-ssh-user', 'cloud-admin',
            '--playbook', 'a.yaml', 'b.yaml', '--skip-tags', 'x'], [])
        columns, values = cmd.take_action(parsed)
        self.assertEqual('UPDATE_RUN_SUCCESS', dict(zip(columns,
                                                        values))['status'])
        workdir, kind, options, playbooks = self.calls[-1]
        self.assertEqual(('/w', 'oc', 'update'),
                         (workdir.path, workdir.stack, kind))
        self.assertEqual('ctrl-0:cmp-0', options.limit)
        self.assertEqual('x', options.skip_tags)
        self.assertEqual('cloud-admin', options.extravars['ansible_user'])
        self.assertEqual(['a.yaml', 'b.yaml'], playbooks)

    def test_external_run_extra_vars(self):
        cmd = overcloud_run.RunExternalUpgrade(self.app, None)
        parsed = self.check_parser(cmd, [
            '-y', '-e', 'a=1', '-e', '{"b": 2}'], [])
        cmd.take_action(parsed)
        options = self.calls[-1][2]
        self.assertEqual({'a': '1', 'b': 2}, options.extravars)
        self.assertIsNone(options.limit)


class TestPrepare(osc_base.TestCommand):

    def test_prepare_is_a_stack_only_deploy_with_the_environment_first(self):
        self.app.stderr = io.StringIO()
        seen = []

        status = ['DEPLOY_SUCCESS']

        def deploy(request, out, phases=None):
            seen.append(request)
            return result.Result(request.stack, status[0])
        self.useFixture(fixtures.MonkeyPatch(
            'tripleo_ephemeral.commands.deploy_request.run', deploy))
        cmd = overcloud_prepare.PrepareUpgrade(self.app, None)
        parsed = self.check_parser(cmd, ['-y', '-e', '/mine.yaml'], [])
        cmd.take_action(parsed)
        args = seen[-1]
        self.assertFalse(parsed.stack_only)  # the arguments are only read
        self.assertTrue(args.stack_only)
        self.assertTrue(args.environment_files[0].endswith(
            'environments/lifecycle/upgrade-prepare.yaml'))
        self.assertEqual('/mine.yaml', args.environment_files[1])
        self.assertIn('Upgrade init on stack overcloud complete',
                      self.app.stderr.getvalue())
        # A --dry-run stops before the stack: no "complete".
        self.app.stderr = io.StringIO()
        status[0] = 'CHECKED'
        cmd.take_action(self.check_parser(cmd, ['-y', '--dry-run'], []))
        self.assertNotIn('complete', self.app.stderr.getvalue())

    def test_prepare_refuses_config_download_only(self):
        cmd = overcloud_prepare.PrepareUpdate(self.app, None)
        parsed = self.check_parser(cmd, ['-y', '--config-download-only'],
                                   [])
        self.assertRaises(osc_exceptions.CommandError, cmd.take_action,
                          parsed)

    def test_prepare_parser_is_the_deploys(self):
        deploy = overcloud_deploy.DeployOvercloud(self.app, None)
        prepare = overcloud_prepare.PrepareUpdate(self.app, None)
        options = [sorted(o for a in c.get_parser('x')._actions
                          for o in a.option_strings)
                   for c in (deploy, prepare)]
        self.assertEqual(options[0], options[1])
