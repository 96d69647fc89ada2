"""Nothing the product reads back can run code or lie (issue 46), each case
run as the issue wrote it, with real deploys of the bundled templates on
native Heat:

* another user (uid 65534, a real uid switch) planting a Jinja2 pickle
  and a parse in a world-writable ``XDG_CACHE_HOME``, or renaming the
  cache away after a deploy under umask 000;
* a cache on a full file system, a read-only one, a truncated schema
  database (a real tmpfs and a real read-only bind mount);
* passwords an operator chooses (an astral character, the placeholder
  syntax, quotes), a base64 Secret committed as a hand edit, and
  purge-secrets on a history written in clear;
* SIGKILL during the dump, ``--keep-running`` then ``--kill``, a kept Heat
  killed.

The mounts and the uid switch need root: those tests skip without it.
"""

import base64
import hashlib
import os
import pickle
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

import psutil
import pytest
import yaml

from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral import secret_forms
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import pause_hook
from tripleo_ephemeral import usercache

NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0,
                             reason='another uid and mounts need root')
#: One password holding what broke before: an astral character (JSON's
#: surrogate pair), the placeholder syntax, a non-ASCII letter, quotes
#: and a backslash.
ODD_PASSWORD = 'key\U0001F511key-Zz<secret:Tw7p\u00e9"q\'\\x'
J2_TEMPLATES = ('overcloud.j2.yaml', 'overcloud-resource-registry.j2.yaml')


def _cache_lines(stderr):
    return [line for line in stderr.splitlines()
            if line.startswith('The cache')]


def _deploy(cli, work_dir, cache, *args, check=True, umask=None):
    env = {'XDG_CACHE_HOME': str(cache)}
    if umask is None:
        return cli.deploy(work_dir, *args, port=readiness.free_port(),
                          env=env, check=check)
    # A real umask for the real command: through a shell.
    argv = ' '.join("'%s'" % a for a in cli.argv(
        'overcloud', 'deploy', '--work-dir', str(work_dir), '-f', 'json',
        '--heat-type', 'native', '--stack-only', '--heat-api-port',
        str(readiness.free_port()), *args))
    proc = subprocess.run(['sh', '-c', 'umask %03o; exec %s' % (umask, argv)],
                          env=dict(cli.env, **env), capture_output=True,
                          text=True, timeout=600)
    cli.printed.append(('overcloud deploy (umask)', proc.stderr))
    assert proc.returncode == 0 or not check, proc.stderr
    return helpers.Deployed(proc)


def _as_nobody(script):
    """Run ``sh -c script`` as another user (uid and gid 65534)."""
    def switch():
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    subprocess.run(['sh', '-c', script], preexec_fn=switch, check=True,
                   capture_output=True, timeout=60)


@pytest.fixture
def shared(tmp_path):
    """A directory another user can reach (tmp_path is root's 0700)."""
    path = tempfile.mkdtemp(prefix='te-read-back-')
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _planted(shared_dir, marker):
    """What another user plants, staged where they can read it: Jinja2's
    cache files (a pickle that touches ``marker`` when loaded) under both
    the names Jinja2 and this product give them."""
    from jinja2 import bccache

    class Planted:
        def __reduce__(self):
            return (os.system, ('touch %s' % marker,))
    payload = bccache.bc_magic + pickle.dumps(Planted())
    stage = os.path.join(shared_dir, 'stage')
    os.mkdir(stage)
    for name in J2_TEMPLATES:
        for key in (hashlib.sha1(name.encode()).hexdigest(),
                    hashlib.sha256(name.encode()).hexdigest()):
            for entry in ('__jinja2_%s.cache' % key, key + '.j2c'):
                with open(os.path.join(stage, entry), 'wb') as f:
                    f.write(payload)
    os.chmod(stage, 0o755)
    for entry in os.listdir(stage):
        os.chmod(os.path.join(stage, entry), 0o644)
    return stage


@as_root
def test_another_users_cache_never_runs_nor_renders(cli, tmp_path, shared):
    """A world-writable XDG_CACHE_HOME where another user planted a Jinja2
    pickle (under Jinja2's names and this product's): nothing runs, the
    deploy renders as without a cache, and one line names the cache."""
    marker = os.path.join(shared, 'ran')
    stage = _planted(shared, marker)
    xdg = os.path.join(shared, 'xdg')
    os.mkdir(xdg)
    os.chmod(xdg, 0o777)  # no sticky bit: anyone may rename in it
    root = os.path.join(xdg, usercache.NAME)
    _as_nobody('umask 000; mkdir -p %s/compiled-templates && '
               'cp %s/* %s/compiled-templates/' % (root, stage, root))
    done = _deploy(cli, tmp_path / 'planted', xdg)
    assert not os.path.exists(marker)
    assert _cache_lines(done.progress) == [
        'The cache %s is not used: it belongs to uid %d, not to you (uid 0): '
        'remove it (it may hold what another user planted); commands run '
        'without it, only slower' % (root, NOBODY)]
    # What was rendered is what a deploy with a cache of its own renders.
    plain = _deploy(cli, tmp_path / 'plain', tmp_path / 'own-cache')
    assert _cache_lines(plain.progress) == []
    for name in ('overcloud.yaml', 'overcloud-resource-registry.yaml'):
        assert (tmp_path / 'planted' / 'tripleo-heat-templates' /
                name).read_text() == (tmp_path / 'plain' /
                                      'tripleo-heat-templates' /
                                      name).read_text()


@as_root
def test_under_umask_000_nobody_else_can_write(cli, tmp_path, shared):
    """A deploy under umask 000: every directory the product made is
    0700 and nothing it wrote is writable by others; the other user who
    renames the cache away (its parent, made by another program under the
    same umask, lets them) changes nothing the next deploy renders."""
    home = os.path.join(shared, 'home')
    os.mkdir(home, 0o755)
    cli.env['HOME'] = home
    cache = os.path.join(home, '.cache')
    work = os.path.join(home, 'overcloud-deploy', 'overcloud')
    done = _deploy(cli, work, cache, umask=0)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    for path in (os.path.join(home, 'overcloud-deploy'), work,
                 os.path.join(work, 'heat-launcher'),
                 os.path.join(cache, usercache.NAME)):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o700, path
    writable = []
    for top in (os.path.join(home, 'overcloud-deploy'),
                os.path.join(cache, usercache.NAME)):
        for parent, dirs, files in os.walk(top):
            for name in dirs + files:
                path = os.path.join(parent, name)
                if not os.path.islink(path) and \
                        os.lstat(path).st_mode & 0o022:
                    writable.append(path)
    assert writable == []
    # ~/.cache and openstackclient's entry point cache in it, made 0777
    # before the plugin runs: closed by the command.
    # (stevedore makes none for a Python under /tmp: a CI clone's venv.)
    entry_points = os.path.join(cache, usercache.ENTRY_POINTS)
    cached = sys.executable[:4] != '/tmp'
    assert os.path.isdir(entry_points) == cached
    for path in [cache] + ([entry_points] + [
            os.path.join(entry_points, n) for n in os.listdir(entry_points)]
            if cached else []):
        assert not os.lstat(path).st_mode & 0o022, path
    assert 'Closed to other users' in done.progress or not cached
    # Opened again: another user renames the plugin's cache away and
    # plants their own.
    os.chmod(cache, 0o777)
    marker = os.path.join(shared, 'ran')
    stage = _planted(shared, marker)
    root = os.path.join(cache, usercache.NAME)
    _as_nobody('mv %s %s.theirs && umask 000 && mkdir -p %s/compiled-templates'
               ' && cp %s/* %s/compiled-templates/' % (
                   root, root, root, stage, root))
    done = _deploy(cli, work, cache)
    assert not os.path.exists(marker)
    assert len(_cache_lines(done.progress)) == 1
    assert 'belongs to uid %d' % NOBODY in done.progress
    helpers.assert_no_secret_printed(cli, home)


def _mount(*argv):
    proc = subprocess.run(['mount'] + list(argv), capture_output=True,
                          text=True)
    if proc.returncode:
        pytest.skip('cannot mount here: %s' % proc.stderr.strip())


@as_root
def test_a_cache_that_fails_only_makes_the_deploy_slower(cli, tmp_path):
    """A full and a read-only cache (empty, then filled): each deploy
    succeeds, each problem is one line naming the cache (a truncated
    schema database: :func:`test_passwords_operators_choose`)."""
    cache = tmp_path / 'cache'
    cache.mkdir()
    _mount('-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', str(cache))
    try:
        root = cache / usercache.NAME
        assert usercache.UserCache(str(root)).usable()  # its key
        # Full: what is left is less than any entry.
        filler = cache / 'filler'
        subprocess.run(['dd', 'if=/dev/zero', 'of=%s' % filler, 'bs=4k',
                        'count=1024'], capture_output=True)
        done = _deploy(cli, tmp_path / 'w', cache)
        assert done.result['status'] == 'DEPLOY_SUCCESS'
        lines = _cache_lines(done.progress)
        assert len(lines) == 1 and lines[0].startswith(
            'The cache %s cannot be written (No space left on device, '
            'writing ' % root)
        filler.unlink()
        # Read-only, nothing in it yet.
        _mount('-o', 'remount,ro', str(cache))
        done = _deploy(cli, tmp_path / 'w', cache)
        assert [line.split(' (')[0] for line in _cache_lines(
            done.progress)] == ['The cache %s cannot be written' % root]
        assert 'Read-only file system' in done.progress
        _mount('-o', 'remount,rw', str(cache))
        done = _deploy(cli, tmp_path / 'w', cache)  # fills it
        assert _cache_lines(done.progress) == []
        # Read-only, filled: used as it is, and nothing to say.
        _mount('-o', 'remount,ro', str(cache))
        done = _deploy(cli, tmp_path / 'w', cache)
        assert _cache_lines(done.progress) == []
        assert done.result['phase_seconds']['templates'] < 5
    finally:
        subprocess.run(['umount', str(cache)], capture_output=True)


def _strings(data):
    """Every string in ``data``, JSON texts in it read too."""
    import json

    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    if isinstance(data, str):
        try:
            inner = json.loads(data)
        except ValueError:
            return [data]
        return [data] + (_strings(inner) if inner != data else [])
    return []


def _git(cwd, *args, check=True):
    return subprocess.run(['git', '-C', str(cwd)] + list(args),
                          capture_output=True, text=True, check=check)


def _history(cd):
    """Every object, every patch and the notes of config-download's git."""
    objects = subprocess.run(
        ['git', '-C', str(cd), 'cat-file', '--batch-all-objects', '--batch'],
        capture_output=True).stdout.decode('utf-8', 'replace')
    return objects + _git(cd, 'log', '-p', '--all').stdout


def test_passwords_operators_choose(cli, work_dir, tmp_path):
    """An astral character, the placeholder syntax, quotes: the password
    deploys, renders as given and is masked in every form git could
    hold, a base64 Secret committed as a hand edit too; purge-secrets
    finds what an old history holds in clear. (And a truncated schema
    database in the cache is named once and made again.)"""
    env = tmp_path / 'password.yaml'
    env.write_text(yaml.safe_dump({'parameter_defaults': {
        'AdminPassword': ODD_PASSWORD}}, allow_unicode=True))
    cache = tmp_path / 'cache'
    done = _deploy(cli, work_dir, cache, '-e', str(env))
    cd = helpers.Layout(work_dir).config_download_dir
    # Every file that holds it reads back (YAML, and the JSON inside).
    holding = []
    for path in cd.rglob('*'):
        if '.git' in path.parts or not path.is_file():
            continue
        text = path.read_text(errors='replace')
        if any(f in text for f in secret_forms.forms(ODD_PASSWORD)):
            data = yaml.safe_load(text)
            assert ODD_PASSWORD in _strings(data), path
            holding.append(path.name)
    assert 'ControllerDeployment' in holding
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    forms = [f for f in secret_forms.forms(ODD_PASSWORD) if len(f) >= 4]
    assert [f for f in forms if f in _history(cd)] == []
    # The operator places a Kubernetes Secret in config-download; the next
    # deploy commits it as their hand edit.
    secret = ('apiVersion: v1\nkind: Secret\nmetadata: {name: osp}\ndata:\n'
              '  AdminPassword: %s\n  passwords.yaml: %s\n' % (
                  base64.b64encode(ODD_PASSWORD.encode()).decode(),
                  base64.b64encode(('parameter_defaults:\n  AdminPassword:'
                                    ' %s\n' % ODD_PASSWORD).encode()
                                   ).decode()))
    (cd / 'osp-secret.yaml').write_text(secret)
    # And the schema database of the cache is truncated: named once,
    # dropped, made again.
    schema = [p for p in (cache / usercache.NAME).iterdir()
              if p.name.endswith('-schema.sealed')][0]
    size = schema.stat().st_size
    os.truncate(schema, size // 3)
    done = _deploy(cli, work_dir, cache, '-e', str(env))
    assert _cache_lines(done.progress) == [
        'The cache entry %s failed its check (damaged, or not written by '
        'you) and was removed' % schema]
    assert schema.stat().st_size == size
    assert 'hand edits (1 added' in done.progress
    assert 'osp-secret' in _history(cd)
    assert [f for f in forms if f in _history(cd)] == []
    # A history written in clear (plain git, without the filter), then
    # purge-secrets: it finds them, and none is left.
    attributes = cd / '.git' / 'info' / 'attributes'
    kept = attributes.read_text()
    attributes.write_text('')
    (cd / 'notes.txt').write_text('%s\n%s' % (ODD_PASSWORD, secret))
    _git(cd, 'add', 'notes.txt')
    _git(cd, '-c', 'user.name=op', '-c', 'user.email=op@x', 'commit', '-qm',
         'in clear')
    attributes.write_text(kept)
    assert [f for f in forms if f in _history(cd)]
    purged = cli.json('overcloud', 'config', 'history', 'purge-secrets',
                      '--work-dir', str(work_dir))
    assert purged['secret_texts_found'] >= 3  # as is, base64 twice
    assert purged['secret_texts_left'] == 0
    assert [f for f in forms if f in _history(cd)] == []


def _kill_in_the_dump(cli, work_dir, cache):
    """A deploy SIGKILLed while it writes the dump (held there, and
    ``overcloud status`` asked meanwhile): the temporary files it was
    writing, and what status said."""
    heat_dir = helpers.Layout(work_dir).heat_dir
    env = dict(pause_hook.env('heat-db-dump=600', cli.env, writing=True),
               XDG_CACHE_HOME=str(cache))
    run = cli.running('overcloud', 'deploy', '--work-dir',
                      str(work_dir), '--stack-only', '--heat-api-port',
                      str(readiness.free_port()), env=env)
    try:
        run.wait_for(r'^Pausing')
        running = cli.json('overcloud', 'status', '--work-dir',
                           str(work_dir))[0]['Deployment Status']
        left = [n for n in os.listdir(heat_dir)
                if n.startswith('.heat-db-dump') and n.endswith('.tmp')]
    finally:
        run.proc.send_signal(signal.SIGKILL)
        run.proc.wait()
    return left, running


def test_after_a_kill(cli, work_dir, tmp_path):
    """SIGKILL during the dump: status said DEPLOYING while it ran and
    says interrupted after, the next successful deploy leaves no
    temporary file; a Heat kept running has the clouds.yaml entry its
    progress line names, which goes when it stops (--kill, or killed
    outright, then any command); no connection error names the API
    secret."""
    cache = tmp_path / 'cache'
    heat_dir = helpers.Layout(work_dir).heat_dir
    left, running = _kill_in_the_dump(cli, work_dir, cache)
    assert running == 'DEPLOYING'
    assert left and all((heat_dir / n).exists() for n in left)
    status = cli.json('overcloud', 'status', '--work-dir', str(work_dir))
    assert status[0]['Deployment Status'] == 'DEPLOY_INTERRUPTED'
    # --keep-running: a successful deploy; the entry it names works.
    clouds_file = tmp_path / 'home' / '.config' / 'openstack' / 'clouds.yaml'
    done = _deploy(cli, work_dir, cache, '--keep-running')
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    leftovers = [os.path.join(top, n) for top, dirs, names in os.walk(
        work_dir) for n in dirs + names if n.endswith('.tmp') or '.new-' in n]
    assert leftovers == []
    assert 'export OS_CLOUD=heat (in %s)' % clouds_file in done.progress
    stacks = cli.json('stack', 'list', env={'OS_CLOUD': 'heat'})
    assert [s['Stack Name'] for s in stacks] == ['overcloud']
    api_secret = (heat_dir / 'api_secret').read_text().strip()
    killed = cli.run('tripleo', 'launch', 'heat', '--heat-dir',
                     str(heat_dir), '--kill')
    assert 'Removed heat from %s' % clouds_file in killed.stderr
    assert 'heat' not in (yaml.safe_load(clouds_file.read_text())
                          .get('clouds') or {})
    gone = cli.run('stack', 'list', env={'OS_CLOUD': 'heat'}, check=False)
    assert gone.returncode and api_secret not in gone.stdout + gone.stderr
    # A Heat launched by hand, then killed outright: its entry goes with
    # the next command that stops or starts a Heat.
    other = tmp_path / 'other-heat'
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(other),
             '--heat-api-port', str(readiness.free_port()))
    assert 'heat' in yaml.safe_load(clouds_file.read_text())['clouds']
    saved = yaml.safe_load((other / 'launcher-state.json').read_text())
    heat = psutil.Process(saved['pid'])
    heat.kill()
    heat.wait(30)
    again = cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(other),
                    '--kill')
    assert 'Removed heat from %s' % clouds_file in again.stderr
    assert 'heat' not in (yaml.safe_load(clouds_file.read_text())
                          .get('clouds') or {})
