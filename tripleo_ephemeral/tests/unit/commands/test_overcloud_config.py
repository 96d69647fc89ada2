"""`overcloud config diff` and `overcloud config history`: parsers and
actions on a small history."""

import io
import json

from osc_lib import exceptions
from osc_lib.test import base as osc_base
import pytest

from tripleo_ephemeral.commands import overcloud_config_diff
from tripleo_ephemeral.commands import overcloud_config_history
from tripleo_ephemeral.commands import overcloud_config_purge_secrets
from tripleo_ephemeral.commands import overcloud_status
from tripleo_ephemeral.commands.output import HostsColumn
from tripleo_ephemeral.history import hooks
from tripleo_ephemeral.history import versions
from tripleo_ephemeral.tests.unit.history import deployment
from tripleo_ephemeral.tests.unit.history import test_versions
from tripleo_ephemeral.workdir import claim


@pytest.fixture
def history_dir(tmp_path, monkeypatch):
    """A work dir whose config-download has two versions, the first
    applied."""
    monkeypatch.setenv('HOME', str(tmp_path))
    cd = tmp_path / 'wd' / 'config-download' / 'oc'
    test_versions.render(cd, identifier='100')
    history = versions.ConfigHistory(str(cd))
    first = history.commit('oc', command='deploy',
                           parameters={'NtpServer': 'a',
                                       'AdminPassword': 'x'})
    with hooks.recording_run(str(cd), str(cd / 'deploy_steps_playbook.yaml')):
        pass
    test_versions.render(cd, identifier='200', interval=2)
    second = history.commit('oc', command='deploy --stack-only',
                            parameters={'NtpServer': 'b',
                                        'AdminPassword': 'y'})
    claim.add(str(tmp_path / 'wd'), 'oc')  # the product's work dir
    return tmp_path / 'wd', first, second


class Commands(osc_base.TestCommand):
    """TestCommand's fake app and check_parser, for pytest functions."""

    __test__ = False

    def __init__(self):
        super().__init__('run')
        self.setUp()
        self.app.stdout = io.StringIO()
        self.app.stderr = io.StringIO()

    def run(self, cls, args, verify=()):
        cmd = cls(self.app, None)
        parsed = self.check_parser(cmd, args, list(verify))
        return cmd.take_action(parsed)

    def output(self, cls, args):
        """What the command prints on stdout (cliff's formatters)."""
        self.app.stdout = io.StringIO()
        cmd = cls(self.app, None)
        cmd.run(self.check_parser(cmd, args, []))
        return self.app.stdout.getvalue()


@pytest.mark.starts_process
def test_diff_from_applied_to_the_last_render(history_dir):
    wd, first, second = history_dir
    commands = Commands()
    columns, rows = commands.run(
        overcloud_config_diff.DiffConfig,
        ['--work-dir', str(wd), '--stack', 'oc', '--long'],
        [('old', 'applied'), ('new', 'HEAD'), ('unified', False)])
    rows = [dict(zip(columns, r)) for r in rows]
    assert [(r['Kind'], r['Name']) for r in rows] == [
        ('file', 'Controller/config_settings.yaml'),
        ('parameter', 'AdminPassword'), ('parameter', 'NtpServer')]
    assert list(rows[0]['Hosts'].machine_readable()) == ['ctrl-0']
    assert rows[1]['Detail'] == '(secret) -> (secret)'
    assert rows[2]['Detail'] == 'a -> b'
    assert commands.app.stderr.getvalue().startswith(
        '%s..%s: 1 file(s) on 1 host(s) (ctrl-0)' % (first[:12],
                                                     second[:12]))


@pytest.mark.starts_process
def test_unified_diff_as_text(history_dir):
    wd, first, second = history_dir
    commands = Commands()
    commands.run(overcloud_config_diff.DiffConfig,
                 ['--work-dir', str(wd), '--stack', 'oc', '--unified',
                  '--from', first[:8]])
    assert '-interval: 5\n+interval: 2\n' in commands.app.stdout.getvalue()


@pytest.mark.starts_process
def test_unknown_version_is_one_line(history_dir):
    wd, _, _ = history_dir
    with pytest.raises(exceptions.CommandError) as caught:
        Commands().run(overcloud_config_diff.DiffConfig,
                       ['--work-dir', str(wd), '--stack', 'oc',
                        '--to', 'nosuch'])
    assert '--to nosuch: no such version' in str(caught.value)


def test_no_history_says_how_to_get_one(tmp_path):
    with pytest.raises(exceptions.CommandError) as caught:
        Commands().run(overcloud_config_history.ListConfigVersions,
                       ['--work-dir', str(tmp_path), '--stack', 'oc'])
    assert 'has no config-download versions: deploy' in str(caught.value)


@pytest.mark.starts_process
def test_history_lists_versions_and_runs(history_dir):
    wd, first, second = history_dir
    columns, rows = Commands().run(overcloud_config_history.ListConfigVersions,
                                   ['--work-dir', str(wd), 'oc', '--long'])
    rows = [dict(zip(columns, r)) for r in rows]
    assert [(r['Version'], r['Applied'], r['Command']) for r in rows] == [
        (second[:12], False, 'deploy --stack-only'),
        (first[:12], True, 'deploy')]
    assert len(rows[1]['Runs'].machine_readable()) == 1


@pytest.fixture
def rotated(tmp_path, monkeypatch):
    """A work dir whose AdminPassword was rotated after the applied
    version, and a file edited by hand since."""
    monkeypatch.setenv('HOME', str(tmp_path))
    wd = deployment.make(tmp_path / 'work')
    cd = wd.config_download_dir
    deployment.commit(wd)
    with hooks.recording_run(cd, cd + '/deploy_steps_playbook.yaml'):
        pass
    deployment.set_admin(wd, 'R0tatedAdminPasswordQWERTY')
    deployment.render(wd, admin='R0tatedAdminPasswordQWERTY',
                      identifier='101')
    deployment.commit(wd)
    with open(cd + '/group_vars/Controller', 'a') as f:
        f.write('hotfix: %s\n' % deployment.ADMIN)
    return wd


@pytest.mark.starts_process
@pytest.mark.parametrize('formatter', ['table', 'json', 'yaml', 'value'])
def test_diff_masks_secrets_in_every_format(rotated, formatter):
    commands = Commands()
    cmd = overcloud_config_diff.DiffConfig(commands.app, None)
    parsed = commands.check_parser(cmd, [
        '--work-dir', rotated.path, '--unified', '-f', formatter], [])
    cmd.run(parsed)
    out = commands.app.stdout.getvalue() + commands.app.stderr.getvalue()
    assert '<secret:AdminPassword:' in out
    assert deployment.found_in(
        out, [deployment.ADMIN, 'R0tatedAdminPasswordQWERTY']) == []
    assert 'hand edit' in out or formatter == 'table'
    assert 'Hand edits since ' in commands.app.stderr.getvalue()


@pytest.mark.starts_process
def test_status_names_the_hand_edits(rotated):
    columns, [row] = Commands().run(overcloud_status.ShowStatus,
                                    ['--work-dir', rotated.path, '--long'])
    assert dict(zip(columns, row))['Hand Edits'].startswith(
        '1 file(s): group_vars/Controller (modified); the next render ')


@pytest.mark.starts_process
def test_purge_secrets_reports_what_it_did(rotated):
    cd = rotated.config_download_dir
    columns, values = Commands().run(
        overcloud_config_purge_secrets.PurgeConfigSecrets,
        ['--work-dir', rotated.path, 'overcloud'])
    done = dict(zip(columns, values))
    assert (done['versions'], done['secret_texts_left'],
            done['config_download']) == (2, 0, cd)
    assert done['head_after'] == versions.ConfigHistory(cd).head()
    assert deployment.found_in(deployment.everything(cd)) == []


@pytest.mark.starts_process
def test_tables_read_in_100_columns_and_long_shows_all(history_dir):
    """Issue 48: a table summarises the long values and leaves out the
    columns --long adds; -f json gives every column whole."""
    wd = history_dir[0]
    table = Commands().output(overcloud_config_history.ListConfigVersions,
                              ['--work-dir', str(wd), 'oc'])
    assert 'Deploy Identifier' not in table
    assert max(len(line) for line in table.splitlines()) <= 100, table
    whole = json.loads(Commands().output(
        overcloud_config_history.ListConfigVersions,
        ['--work-dir', str(wd), 'oc', '-f', 'json']))
    assert 'Deploy Identifier' in whole[0]


@pytest.mark.starts_process
def test_a_diff_table_counts_hosts_and_long_names_them(history_dir):
    wd = history_dir[0]
    table = Commands().output(overcloud_config_diff.DiffConfig,
                              ['--work-dir', str(wd), '--stack', 'oc'])
    assert '| ctrl-0 ' in table
    assert HostsColumn(['a', 'b']).human_readable() == '2 hosts'
    assert HostsColumn(['a', 'b'], long=True).human_readable() == 'a, b'
