"""The secrets of a real THT 18.0.0 config-download stay out of its git.

Opt-in (two 1+1 stack creates, minutes)::

    TRIPLEO_EPHEMERAL_THT=1 pytest -s \\
        tripleo_ephemeral/tests/functional/test_tht_config_secrets.py

$HOME is a dotfiles repository and the work dir the default one in it.
Deploy the control-plane 1+1 scenario of tools/tht_deploy.py with
--stack-only; make its history one from before this release (committed
and noted in clear with plain git); edit, add and remove files by hand and
rotate AdminPassword; deploy again: the hand edits are kept as a version
of their own, the rendered files hold the new password where Ansible reads
it, the new version and its diff hold none. Purge the history: no secret
value is left in ``git log -p --all``, the notes or any object, and $HOME's
repository never saw one. The lines the product printed are printed
(``-s``).
"""

import json
import os
import subprocess

import yaml

from tripleo_ephemeral.tests.functional import helpers

ROTATED = 'R0tatedAdminPasswordTHT18x'

pytestmark = helpers.THT_OPT_IN


def git(path, *args, input=None):
    return subprocess.run(['git', '-C', str(path)] + list(args),
                          capture_output=True, input=input,
                          check=True).stdout.decode('utf-8', 'replace')


def _secret_texts(passwords, extra=()):
    """Every password's value, and each line of the private keys."""
    found = set(extra)

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, str):
            found.update(line for line in value.splitlines()
                         if len(line) >= 16 and not line.startswith('-'))
    for name, value in passwords.items():
        walk(value['private_key'] if name == 'MigrationSshKey' else value)
    return found


def _held(cd, texts):
    everything = subprocess.run(
        ['git', '-C', str(cd), 'cat-file', '--batch-all-objects', '--batch'],
        capture_output=True).stdout.decode('utf-8', 'replace')
    everything += git(cd, 'log', '-p', '--all')
    return sorted(t for t in texts if t in everything)


def _print_lines(progress, *starts):
    for line in progress.splitlines():
        if line.startswith(starts):
            print(line)


def test_secrets_hand_edits_and_a_purge_on_tht_1_1(cli, tmp_path, port):
    home = cli.env['HOME']
    git(home, 'init', '-q')
    work_dir = os.path.join(home, 'overcloud-deploy', 'overcloud')
    tool = helpers.tht_tool()
    args = tool.write_inputs(tool.tht_dir(), str(tmp_path), 'ctlplane')
    first = cli.deploy(work_dir, *args, port=port, timeout=3600).result
    layout = helpers.Layout(work_dir)
    cd = layout.config_download_dir
    passwords = yaml.safe_load(layout.passwords_file.read_text())[
        'parameter_defaults']
    old_admin = passwords['AdminPassword']
    texts = _secret_texts(passwords)
    assert len(texts) > 50
    assert _held(cd, texts) == []
    # A history from before this release: the same render in clear.
    git(cd, 'rev-parse', '--verify', first['config_version'])
    subprocess.run(['rm', '-rf', str(cd / '.git')], check=True)
    me = ['-c', 'user.name=tripleo-ephemeral', '-c', 'user.email=t@e']
    git(cd, 'init', '-q')
    git(cd, 'add', '-A')
    git(cd, *me, 'commit', '-qm', 'overcloud rendered by deploy')
    git(cd, *me, 'notes', '--ref', 'tripleo-parameters', 'add', '-F', '-',
        'HEAD', input=json.dumps(passwords).encode())
    assert old_admin in git(cd, 'log', '-p', '--all')

    # Hand edits, and AdminPassword rotated.
    with open(cd / 'group_vars' / 'Controller', 'a') as f:
        f.write('hotfix_debug: true\n')
    (cd / 'extra_vars.yaml').write_text('added_by_hand: 1\n')
    (cd / 'Compute' / 'config_settings.yaml').unlink()
    status = cli.json('overcloud', 'status', '--work-dir', work_dir)[0]
    print('Hand Edits:', status['Hand Edits'])
    assert status['Hand Edits'].startswith('3 file(s): ')
    text = layout.passwords_file.read_text().replace(old_admin, ROTATED)
    layout.passwords_file.write_text(text)
    second = cli.deploy(work_dir, *args, port=port, timeout=3600)
    _print_lines(second.progress, 'config-download', 'WARNING')
    assert 'config-download had hand edits (1 modified, 1 added, 1 ' \
        'removed: ' in second.progress
    # Ansible reads the rotated password where the render put it.
    inventory = yaml.safe_load(
        (cd / 'tripleo-ansible-inventory.yaml').read_text())
    assert ROTATED in yaml.safe_dump(inventory)
    assert ROTATED in (cd / 'group_vars' / 'Controller').read_text()
    assert git(cd, 'status', '--porcelain') == ''
    # The new render's files and notes, the files the hand edits changed
    # (the rest of that version is the clear one's) and every diff hold
    # no secret.
    blobs = git(cd, 'ls-tree', '-r', '--format=%(objectname)', 'HEAD') + \
        git(cd, 'rev-parse', 'HEAD~1:group_vars/Controller',
            'HEAD~1:extra_vars.yaml')
    shown = git(cd, 'cat-file', '--batch', input=blobs.encode()) + git(
        cd, 'notes', '--ref', 'tripleo-parameters', 'show', 'HEAD')
    assert sorted(t for t in texts | {ROTATED} if t in shown) == []
    for fmt in ('table', 'json'):
        out = cli.run('overcloud', 'config', 'diff', '--work-dir', work_dir,
                      '--from', 'HEAD~2', '--unified', '-f', fmt)
        assert [t for t in texts | {ROTATED}
                if t in out.stdout + out.stderr] == []
        assert '<secret:AdminPassword:' in out.stdout
    # Only the version from before holds them; the purge removes them.
    assert old_admin in _held(cd, texts)
    purged = cli.json('overcloud', 'config', 'history', 'purge-secrets',
                      '--work-dir', work_dir)
    print(purged)
    assert purged['versions'] == 3 and purged['secret_texts_left'] == 0
    assert _held(cd, texts | {ROTATED}) == []
    notes = git(cd, 'log', '-p', 'refs/notes/tripleo-parameters')
    assert [t for t in texts | {ROTATED} if t in notes] == []
    assert git(cd, 'status', '--porcelain') == ''
    # $HOME's repository never got a commit.
    assert git(home, 'rev-list', '--all') == ''
