"""config-download's git is its own, as operators' machines have it: a
dotfiles repository in $HOME, a git configuration of their own, a damaged
``.git``. Real git throughout."""

import os

from osc_lib import exceptions as osc_exceptions
import pytest

from tripleo_ephemeral.commands import options
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.history import edits
from tripleo_ephemeral.history import git as git_mod
from tripleo_ephemeral.history import hooks
from tripleo_ephemeral.history import versions
from tripleo_ephemeral.tests.unit.history import deployment

git = deployment.git


@pytest.fixture
def home(tmp_path, monkeypatch):
    """$HOME, a dotfiles git repository with one commit."""
    home = tmp_path / 'home'
    home.mkdir()
    monkeypatch.setenv('HOME', str(home))
    monkeypatch.delenv('XDG_CONFIG_HOME', raising=False)
    git(home, 'init', '-q')
    (home / '.bashrc').write_text('alias ll="ls -l"\n')
    git(home, 'add', '.bashrc')
    git(home, '-c', 'user.name=me', '-c', 'user.email=me@home', 'commit',
        '-q', '-m', 'dotfiles')
    return home


def _untouched(home):
    assert git(home, 'log', '--format=%s').stdout == 'dotfiles\n'
    assert git(home, 'for-each-ref').stdout.count('\n') == 1
    assert not (home / '.git' / 'refs' / 'notes').exists()


@pytest.mark.starts_process
def test_a_damaged_git_in_a_dotfiles_home(home, monkeypatch):
    wd = deployment.make(home / 'overcloud-deploy' / 'overcloud')
    cd = wd.config_download_dir
    first = deployment.commit(wd)
    assert first
    # HEAD removed: git would take $HOME/.git for config-download's.
    os.unlink(os.path.join(cd, '.git', 'HEAD'))
    # Reading it says so in one line, with the fix.
    damaged = ('The git history of %s is damaged (.git/HEAD is missing): '
               'the next deploy sets it aside and starts a new one with its '
               'render' % cd)
    columns, values = hooks.status_values(wd)
    assert dict(zip(columns, values))['Undeployed Changes'] == \
        'unknown: ' + damaged
    with pytest.raises(osc_exceptions.CommandError) as raised:
        options.config_history(wd)
    assert str(raised.value) == damaged
    # Even a user who exported GIT_DIR does not send it there.
    monkeypatch.setenv('GIT_DIR', str(home / '.git'))
    monkeypatch.setenv('GIT_WORK_TREE', str(home))
    said = []
    assert edits.keep(wd, said.append)   # the directory as found
    deployment.render(wd, identifier='101')
    sha = deployment.commit(wd, said.append)
    monkeypatch.delenv('GIT_DIR')
    monkeypatch.delenv('GIT_WORK_TREE')
    _untouched(home)
    [aside] = [p for p in os.listdir(os.path.dirname(cd))
               if p.startswith('overcloud.git-damaged-')]
    aside = os.path.join(os.path.dirname(cd), aside)
    assert said[0] == (
        "WARNING: config-download's git history is damaged (.git/HEAD is "
        "missing): moved to %s and a new history keeps the render; delete "
        "the old one once you need nothing from it" % aside)
    assert said[1].startswith('config-download as found kept as version ')
    assert said[-1] == 'config-download version %s' % sha[:12]
    history = versions.ConfigHistory(cd)
    assert [v.sha for v in history.versions()][0] == sha
    assert git(cd, 'show', 'HEAD:global_vars.yaml').stdout == \
        'deploy_identifier: 101\n'
    # The old history is all there, aside.
    with open(os.path.join(aside, 'refs', 'heads', 'master')) as f:
        assert f.read().strip() == first


@pytest.mark.starts_process
def test_a_users_git_configuration_changes_nothing(home, monkeypatch):
    hooks_dir = home / 'hooks'
    hooks_dir.mkdir()
    (hooks_dir / 'pre-commit').write_text('#!/bin/sh\nexit 1\n')
    (hooks_dir / 'pre-commit').chmod(0o755)
    (home / '.gitignore_global').write_text('*.yaml\nControllerDeployment\n')
    (home / '.gitconfig').write_text(
        '[user]\n\tname = Someone Else\n\temail = someone@example.com\n'
        '[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = false\n'
        '[core]\n\thooksPath = %s\n\texcludesFile = %s\n' % (
            hooks_dir, home / '.gitignore_global'))
    (home / '.config' / 'git').mkdir(parents=True)
    (home / '.config' / 'git' / 'attributes').write_text('* filter=lfs\n')
    wd = deployment.make(home / 'work')
    assert deployment.commit(wd)
    cd = wd.config_download_dir
    tracked = git(cd, 'ls-files').stdout.split()
    assert 'tripleo-ansible-inventory.yaml' in tracked
    assert 'Controller/ctrl-0/ControllerDeployment' in tracked
    assert git(cd, 'log', '-1', '--format=%an').stdout == \
        'tripleo-ephemeral\n'


@pytest.mark.starts_process
def test_a_truncated_object_keeps_the_render(home):
    wd = deployment.make(home / 'work')
    cd = wd.config_download_dir
    deployment.commit(wd)
    # The next render shares this file's object with the last one.
    blob = git(cd, 'rev-parse', 'HEAD:deploy_steps_playbook.yaml').stdout
    path = os.path.join(cd, '.git', 'objects', blob[:2], blob[2:].strip())
    os.chmod(path, 0o644)
    with open(path, 'r+b') as f:
        f.truncate(10)
    deployment.render(wd, identifier='102')
    said = []
    sha = deployment.commit(wd, said.append)
    assert sha and said[0].startswith(
        "WARNING: config-download's git history is damaged (")
    assert 'cannot be read' in said[0]
    assert said[-1] == 'config-download version %s' % sha[:12]
    # The render is a readable version of the new history.
    assert git(cd, 'show', 'HEAD:deploy_steps_playbook.yaml').stdout == \
        '- hosts: all\n'
    assert git(cd, 'fsck').returncode == 0


@pytest.mark.starts_process
def test_a_corrupt_index_is_made_again(home):
    wd = deployment.make(home / 'work')
    cd = wd.config_download_dir
    first = deployment.commit(wd)
    with open(os.path.join(cd, '.git', 'index'), 'r+b') as f:
        f.seek(12)
        f.write(b'garbage' * 20)
    said = []
    assert edits.keep(wd, said.append) is None
    deployment.render(wd, identifier='103')
    assert said == ['WARNING: the git index of %s could not be read: made '
                    'again from its last version (the history and the '
                    'files are as they were)' % cd]
    second = deployment.commit(wd)
    assert [v.sha for v in versions.ConfigHistory(cd).versions()] == [
        second, first]


def test_a_failing_git_command_is_named():
    assert git_mod.subcommand(['-c', 'gc.auto=256', 'gc', '--auto']) == 'gc'
    assert git_mod.subcommand(['--git-dir=/x', '-C', '/y', 'notes']) == \
        'notes'


@pytest.mark.starts_process
def test_the_failure_names_the_subcommand(tmp_path, home):
    repo = git_mod.Git(str(tmp_path))
    repo.run('init', '-q', str(tmp_path))
    with pytest.raises(exceptions.HistoryError) as raised:
        repo.run('-c', 'gc.auto=1', 'frobnicate')
    assert str(raised.value).startswith('git frobnicate in %s failed' %
                                        tmp_path)
