"""Secrets are not history: the files keep them, git's objects, notes and
diffs do not; a rotation is a changed placeholder; a history from before
is purged. Real git throughout."""

import io
import os
import stat

import pytest

from tripleo_ephemeral.history import changes
from tripleo_ephemeral.history import hooks
from tripleo_ephemeral.history import runs
from tripleo_ephemeral.history import secret_filter
from tripleo_ephemeral.history import versions
from tripleo_ephemeral.tests.unit.history import deployment

git = deployment.git
ROTATED = 'R0tatedAdminPasswordQWERTY'


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    monkeypatch.setenv('HOME', str(tmp_path))


def _files(cd):
    found = {}
    for top, dirs, names in os.walk(cd):
        dirs[:] = [d for d in dirs if d != '.git']
        for name in names:
            path = os.path.join(top, name)
            with open(path, 'rb') as f:
                found[os.path.relpath(path, cd)] = f.read()
    return found


def test_masking_round_trips():
    masker = secret_filter.Masker([('hunter22', '<secret:A:000000000001>'),
                                   ('hunter2', '<secret:B:000000000002>'),
                                   ('x\0y', '<secret:C:000000000003>')])
    text = 'a: hunter22\nb: hunter2\nc: "hunter2hunter22"\nd: x\0y\n'
    clean = masker.clean(text)
    assert clean == ('a: <secret:A:000000000001>\nb: <secret:B:000000000002>'
                     '\nc: "<secret:B:000000000002><secret:A:000000000001>"'
                     '\nd: <secret:C:000000000003>\n')
    assert masker.smudge(clean) == text
    assert masker.smudge('<secret:Z:00000000000f>') == \
        '<secret:Z:00000000000f>'


def test_the_filter_speaks_gits_protocol():
    def packets(*lines):
        return b''.join(b'%04x%s' % (len(line) + 4, line) if line else
                        b'0000' for line in lines)
    stdin = io.BytesIO(packets(
        b'git-filter-client\n', b'version=2\n', b'',
        b'capability=clean\n', b'capability=smudge\n',
        b'capability=delay\n', b'',
        b'command=clean\n', b'pathname=group_vars/x\n', b'',
        b'pw: hunter2\n', b''))
    stdout = io.BytesIO()
    secret_filter.serve(secret_filter.Masker(
        [('hunter2', '<secret:Pw:0123456789ab>')]), stdin, stdout)
    assert stdout.getvalue() == packets(
        b'git-filter-server\n', b'version=2\n', b'',
        b'capability=clean\n', b'capability=smudge\n', b'',
        b'status=success\n', b'', b'pw: <secret:Pw:0123456789ab>\n', b'',
        b'')


@pytest.mark.starts_process
def test_a_render_keeps_its_secrets_out_of_git(tmp_path):
    wd = deployment.make(tmp_path / 'work')
    cd = wd.config_download_dir
    rendered = _files(cd)
    sha = deployment.commit(wd)
    assert sha
    # The files are the render, byte for byte: Ansible reads them.
    assert _files(cd) == rendered
    # (the spaced secret folded across two lines of the YAML)
    assert deployment.found_in(''.join(
        t.decode() for t in rendered.values())) == [
            t for t in deployment.secret_texts() if t != deployment.SPACED]
    # git holds none, in objects, patches or notes.
    assert deployment.found_in(deployment.everything(cd)) == []
    noted = versions.ConfigHistory(cd).noted(sha)
    assert noted['AdminPassword'].startswith('<secret:AdminPassword:')
    assert noted['OperatorSecret'].startswith('<secret:OperatorSecret:')
    assert noted['NtpServer'] == 'pool.ntp.org'
    # The operator's plain git sees nothing changed, and what it commits
    # is masked as well.
    assert git(cd, 'status', '--porcelain').stdout == ''
    assert git(cd, 'diff').stdout == ''
    with open(os.path.join(cd, 'group_vars', 'Controller'), 'a') as f:
        f.write('again: %s\n' % deployment.ADMIN)
    git(cd, '-c', 'user.name=op', '-c', 'user.email=op@x', 'commit', '-qam',
        'by hand')
    assert deployment.found_in(deployment.everything(cd)) == []
    store = os.path.join(cd, '.git', secret_filter.STORE)
    assert stat.S_IMODE(os.stat(store).st_mode) == 0o600


@pytest.mark.starts_process
def test_a_rotation_is_a_changed_placeholder(tmp_path):
    wd = deployment.make(tmp_path / 'work')
    cd = wd.config_download_dir
    old = deployment.commit(wd)
    with hooks.recording_run(cd, os.path.join(
            cd, 'deploy_steps_playbook.yaml')):
        pass
    deployment.set_admin(wd, ROTATED)
    deployment.render(wd, admin=ROTATED, identifier='101')
    new = deployment.commit(wd)
    everything = deployment.everything(cd)
    assert deployment.found_in(everything, [deployment.ADMIN, ROTATED]) == []
    diff = changes.compare(versions.ConfigHistory(cd), old, new)
    assert sorted(f.path for f in diff.files) == [
        'Controller/ctrl-0/ControllerDeployment', 'group_vars/Controller',
        'tripleo-ansible-inventory.yaml']
    assert [p[0] for p in diff.parameters] == ['AdminPassword']
    text = ''.join(f.diff for f in diff.files)
    assert text.count('<secret:AdminPassword:') == 6
    assert deployment.found_in(text, [deployment.ADMIN, ROTATED]) == []
    assert 'overcloud_admin_password' in hooks.pending(cd).diff.files[
        -1].diff


def _old_style_history(wd):
    """config-download as a release before this one left it: committed
    and noted with plain git, secrets and all, a run tagged."""
    cd = wd.config_download_dir
    me = ('-c', 'user.name=tripleo-ephemeral', '-c', 'user.email=t@e')
    git(cd, 'init', '-q')
    git(cd, 'add', '-A')
    git(cd, *me, 'commit', '-qm', 'overcloud rendered by overcloud deploy')
    git(cd, *me, 'notes', '--ref', 'tripleo-parameters', 'add', '-F', '-',
        'HEAD', input='{"AdminPassword": "%s", "NtpServer": "a"}' %
        deployment.ADMIN)
    history = versions.ConfigHistory(cd)
    runs.record(history, runs.APPLIED, 'deploy_steps_playbook.yaml')
    return history


@pytest.mark.starts_process
def test_an_old_history_is_purged(tmp_path):
    wd = deployment.make(tmp_path / 'work')
    cd = wd.config_download_dir
    history = _old_style_history(wd)
    # The case: one rotation on top of the old history.
    deployment.set_admin(wd, ROTATED)
    deployment.render(wd, admin=ROTATED, identifier='101')
    deployment.commit(wd)
    assert deployment.ADMIN in deployment.everything(cd)
    # config diff masks it already, in every format.
    diff = changes.compare(history, history.resolve('applied'),
                           history.head())
    assert deployment.found_in(''.join(f.diff for f in diff.files)) == []
    _, before, after = [p for p in diff.parameters
                        if p[0] == 'AdminPassword'][0]
    assert before.startswith('<secret:AdminPassword:') and \
        after.startswith('<secret:AdminPassword:') and before != after
    rendered = _files(cd)
    before = git(cd, 'rev-list', '--all').stdout.split()
    done = hooks.purge_secrets(wd)
    assert (done.versions, done.notes_masked, done.secret_texts_left) == (
        2, 2, 0)
    assert done.files_masked >= 4 and done.secret_texts_found > 0
    assert done.damaged_copies == []
    assert deployment.found_in(deployment.everything(cd),
                               deployment.secret_texts() + [ROTATED]) == []
    # Nothing from before is left: no reflog names it, no object is it.
    reflogs = git(cd, 'reflog', '--all', '--format=%H').stdout
    for sha in before:
        assert sha not in reflogs
        assert git(cd, 'cat-file', '-e', sha, check=False).returncode
    # Versions, runs and the applied one survive with new ids.
    versions_now = history.versions()
    assert len(versions_now) == 2 and versions_now[0].sha == done.head_after
    assert [r.outcome for r in runs.runs(history)] == ['applied']
    assert history.resolve('applied') == versions_now[1].sha
    assert history.parameters(versions_now[1].sha)['NtpServer'] == 'a'
    # The files are untouched and agree with the last version.
    assert _files(cd) == rendered
    assert history.uncommitted() == []


#: Passwords an operator may choose: placeholder syntax, quotes and
#: backslashes, non-ASCII and astral characters.
ODD_PASSWORDS = ('Sx9q<secret:Tw7pLm2', '<secret:AdminPassword:0123456789ab>',
                 'key\U0001F511key-Zz', 'p\u00e9"x\\y\'z \u2028end')


def _secret_doc(value, longer):
    """A Kubernetes Secret placed in config-download by hand: the value's
    base64, and a whole file holding it (base64 at another offset)."""
    import base64

    def b64(text):
        return base64.b64encode(text.encode()).decode()
    return ('apiVersion: v1\nkind: Secret\nmetadata: {name: osp-secret}\n'
            'data:\n  AdminPassword: %s\n  passwords.yaml: %s\n' % (
                b64(value), b64(longer)))


def _forms(text):
    from tripleo_ephemeral import secret_forms
    return [f for f in secret_forms.forms(text) if len(f) >= 4]


@pytest.mark.starts_process
@pytest.mark.parametrize('admin', ODD_PASSWORDS)
def test_any_password_is_masked_in_every_form(tmp_path, admin):
    """Whatever a password holds (the placeholder syntax too), in every
    form it is written (as is, JSON- and YAML-escaped, base64 as a Secret
    holds it, inside a longer value), git holds none of it; the files
    keep it."""
    wd = deployment.make(tmp_path / 'work', admin=admin)
    cd = wd.config_download_dir
    sha = deployment.commit(wd)
    assert deployment.found_in(deployment.everything(cd), _forms(admin)) \
        == []
    assert versions.ConfigHistory(cd).noted(sha)['AdminPassword'] != admin
    # A hand edit: the Secret, committed as the operator's.
    with open(os.path.join(cd, 'osp-secret.yaml'), 'w') as f:
        f.write(_secret_doc(admin, 'AdminPassword: %s\nx: y\n' % admin))
    deployment.render(wd, admin=admin, identifier='101')
    deployment.commit(wd)
    assert git(cd, 'log', '--all', '--format=%an', '-1',
               '--', 'osp-secret.yaml').stdout.startswith('')
    everything = deployment.everything(cd)
    assert 'osp-secret' in everything
    assert deployment.found_in(everything, _forms(admin)) == []
    # What is checked out again is what was written.
    os.unlink(os.path.join(cd, 'osp-secret.yaml'))
    git(cd, 'checkout', '--', '.')
    with open(os.path.join(cd, 'osp-secret.yaml')) as f:
        assert f.read() == _secret_doc(admin, 'AdminPassword: %s\nx: y\n'
                                       % admin)


@pytest.mark.starts_process
def test_purge_finds_what_the_filter_masks(tmp_path):
    """A history written in clear (a base64 Secret and a password holding
    "<secret:" among it): purge-secrets counts them, and none is left."""
    admin = ODD_PASSWORDS[0]
    wd = deployment.make(tmp_path / 'work', admin=admin)
    cd = wd.config_download_dir
    with open(os.path.join(cd, 'osp-secret.yaml'), 'w') as f:
        f.write(_secret_doc(admin, 'AdminPassword: %s\n' % admin))
    _old_style_history(wd)
    assert deployment.found_in(deployment.everything(cd), _forms(admin))
    done = hooks.purge_secrets(wd)
    assert done.secret_texts_found >= 3  # as is, base64, base64 in a file
    assert done.secret_texts_left == 0
    assert deployment.found_in(deployment.everything(cd), _forms(admin)) \
        == []
