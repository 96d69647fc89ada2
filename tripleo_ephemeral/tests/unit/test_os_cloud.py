"""An OS_CLOUD the product's commands need not, with osc's own parser."""

import pytest

from openstackclient import shell

from tripleo_ephemeral import os_cloud
from tripleo_ephemeral import plugin

GROUP = plugin.COMMAND_GROUP


@pytest.fixture
def no_clouds(tmp_path, monkeypatch):
    """A user with no clouds.yaml anywhere openstacksdk looks."""
    monkeypatch.setenv('HOME', str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('OS_CLIENT_CONFIG_FILE', str(tmp_path / 'none.yaml'))
    for name in ('OS_AUTH_URL', 'OS_PASSWORD', 'OS_CLOUD_NAME'):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _cloud(argv):
    """What osc's shell would resolve the cloud from."""
    options, _remainder = shell.OpenStackShell().parser.parse_known_args(
        argv)
    return options.cloud


def test_which_commands_need_no_cloud():
    assert os_cloud.needs_no_cloud(GROUP, ['overcloud', 'deploy', '-y'])
    assert os_cloud.needs_no_cloud(GROUP, ['help', 'overcloud', 'status'])
    assert os_cloud.needs_no_cloud(GROUP, ['tripleo', 'launch', 'heat'])
    assert not os_cloud.needs_no_cloud(GROUP, ['stack', 'list'])
    assert not os_cloud.needs_no_cloud(GROUP, [])


def test_an_unknown_os_cloud_is_dropped_for_the_products_commands(
        no_clouds, monkeypatch):
    monkeypatch.setenv('OS_CLOUD', 'overcloud')
    assert _cloud(['overcloud', 'status']) == ''
    # Other commands keep osc's behaviour (and its "not found" error).
    assert _cloud(['stack', 'list']) == 'overcloud'
    # What the operator typed is theirs.
    assert _cloud(['--os-cloud', 'other', 'overcloud', 'status']) == 'other'


def test_tripleoclients_overcloudrc(no_clouds, monkeypatch):
    """OS_CLOUD=overcloud beside the OS_* variables (tripleo-common's rc)."""
    for name, value in (('OS_CLOUD', 'overcloud'),
                        ('OS_AUTH_URL', 'http://192.0.2.5:5000'),
                        ('OS_PASSWORD', 'p'), ('OS_USERNAME', 'admin')):
        monkeypatch.setenv(name, value)
    assert _cloud(['overcloud', 'deploy']) == ''
    assert _cloud(['server', 'list']) == 'overcloud'


def test_a_known_cloud_is_kept(no_clouds, monkeypatch):
    (no_clouds / 'none.yaml').write_text(
        'clouds:\n  undercloud:\n    auth: {auth_url: "http://x:5000"}\n')
    monkeypatch.setenv('OS_CLOUD', 'undercloud')
    assert _cloud(['overcloud', 'status']) == 'undercloud'
