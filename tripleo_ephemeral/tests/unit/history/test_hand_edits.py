"""An operator's hand edits of config-download: named by status and
config diff, kept as a version of their own before a render replaces
them, carried over with plain git. Real git throughout."""

import os

import pytest

from tripleo_ephemeral.history import changes
from tripleo_ephemeral.history import edits
from tripleo_ephemeral.history import hooks
from tripleo_ephemeral.history import versions
from tripleo_ephemeral.tests.unit.history import deployment

pytestmark = pytest.mark.starts_process

git = deployment.git


@pytest.fixture
def deployed(tmp_path, monkeypatch):
    monkeypatch.setenv('HOME', str(tmp_path))
    monkeypatch.setenv('USER', 'stack')
    monkeypatch.setenv('LOGNAME', 'stack')
    wd = deployment.make(tmp_path / 'work')
    deployment.commit(wd)
    return wd


def _hand_edit(cd):
    with open(os.path.join(cd, 'group_vars', 'Controller'), 'a') as f:
        f.write('hotfix_debug: true\n')
    with open(os.path.join(cd, 'extra_vars.yaml'), 'w') as f:
        f.write('added_by_hand: 1\n')
    os.unlink(os.path.join(cd, 'Compute', 'config_settings.yaml'))


def test_status_and_diff_name_the_hand_edits(deployed):
    cd = deployed.config_download_dir
    assert hooks.status_values(deployed)[1][-1] == 'none'
    _hand_edit(cd)
    columns, values = hooks.status_values(deployed)
    assert dict(zip(columns, values))['Hand Edits'] == (
        '3 file(s): Compute/config_settings.yaml (removed), extra_vars.yaml '
        '(added), group_vars/Controller (modified); the next render keeps '
        'them as a version of their own, then replaces them')
    found = changes.hand_edits(versions.ConfigHistory(cd))
    assert [(f.path, f.change, f.hosts, f.added, f.removed)
            for f in found] == [
        ('Compute/config_settings.yaml', 'removed', ['cmp-0'], 0, 1),
        ('extra_vars.yaml', 'added', ['cmp-0', 'ctrl-0'], 1, 0),
        ('group_vars/Controller', 'modified', ['ctrl-0'], 1, 0)]
    assert '+hotfix_debug: true\n' in found[2].diff
    # The diff of a file with a secret in it holds none.
    assert not deployment.found_in(''.join(f.diff for f in found))


def test_a_render_keeps_them_as_the_operators_version(deployed):
    cd = deployed.config_download_dir
    before = versions.ConfigHistory(cd).head()
    _hand_edit(cd)
    said = []
    sha = edits.keep(deployed, said.append)
    assert said == [
        'config-download had hand edits (1 modified, 1 added, 1 removed: '
        'Compute/config_settings.yaml (removed), extra_vars.yaml (added), '
        'group_vars/Controller (modified)): kept as version %s, which this '
        'render replaces; carry them over with "git -C %s cherry-pick -n '
        '%s"' % (sha[:12], cd, sha[:12])]
    assert git(cd, 'log', '-1', '--format=%an <%ae>|%s|%P').stdout == (
        'stack (hand edits) <stack@localhost>|overcloud config-download '
        'edited by hand: 1 modified, 1 added, 1 removed|%s\n' % before)
    assert 'Hand-Edits: 3' in git(cd, 'log', '-1').stdout
    # The render replaces them; its version follows theirs.
    for name in ('extra_vars.yaml', 'group_vars/Controller'):
        os.unlink(os.path.join(cd, name))
    deployment.render(deployed, identifier='200')
    rendered = deployment.commit(deployed)
    history = versions.ConfigHistory(cd)
    assert [v.sha for v in history.versions(limit=3)] == [
        rendered, sha, before]
    assert history.uncommitted() == []
    assert 'hotfix_debug' not in open(os.path.join(
        cd, 'group_vars', 'Controller')).read()
    # What the line says brings them back, secrets and all.
    git(cd, 'cherry-pick', '-n', sha[:12])
    controller = open(os.path.join(cd, 'group_vars', 'Controller')).read()
    assert 'hotfix_debug: true' in controller
    assert deployment.ADMIN in controller
    assert os.path.exists(os.path.join(cd, 'extra_vars.yaml'))
    assert not os.path.exists(os.path.join(cd, 'Compute',
                                           'config_settings.yaml'))
    assert [c for c, _ in history.uncommitted()] == [
        'removed', 'added', 'modified']


def test_nothing_edited_nothing_said(deployed):
    said = []
    assert edits.keep(deployed, said.append) is None
    assert said == []


def test_a_directory_without_history_is_kept_as_found(tmp_path, monkeypatch):
    # Rendered by a release that kept no history, or its .git removed.
    monkeypatch.setenv('HOME', str(tmp_path))
    wd = deployment.make(tmp_path / 'work')
    said = []
    sha = edits.keep(wd, said.append)
    assert said == [
        'config-download as found kept as version %s: "openstack overcloud '
        'config diff --from %s" shows what the render changes' % (
            sha[:12], sha[:12])]
    cd = wd.config_download_dir
    assert git(cd, 'log', '--format=%s').stdout == (
        'overcloud config-download as found before a render (it had no '
        'history)\n')
    assert deployment.found_in(deployment.everything(cd)) == []
