"""Work dirs as operators have them (issue 36), through the real CLI.

A directory holding the operator's own files, a work dir tripleoclient 17.x
left on an undercloud, a sourced rc file; and a deploy whose output, debug
log and Heat log never show the API secret or a password.
"""

import os
import stat
import subprocess
import tarfile

import yaml

from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests import tripleoclient_workdir
from tripleo_ephemeral.workdir import claim


def _refused(proc, path, dump):
    line = helpers.one_line_error(proc)
    assert line.startswith(
        '%s holds a deployment another tool made (tripleoclient\'s '
        'overcloud-deployment_status.yaml: DEPLOY_SUCCESS, ' % path), line
    assert line.endswith(
        'adopt it into a work dir of its own with "openstack overcloud adopt '
        '--stack overcloud --heat-db-dump %s --heat-db-auth-encryption-key '
        '~/heat-17.1-key --work-dir %s-ephemeral" (~/heat-17.1-key holds the '
        'auth_encryption_key of its Heat: Heat\'s built-in one for RHOSP '
        '17.1, see "Adopting a 17.1 deployment" in the docs), or choose '
        'another --work-dir' % (dump, path)), line
    return line


def test_a_work_dir_tripleoclient_made_is_not_taken_over(cli, tmp_path):
    """The quick start and every deploy, launch and delete on an
    undercloud's ~/overcloud-deploy/overcloud refuse before writing."""
    home = cli.env['HOME']
    path = os.path.join(home, 'overcloud-deploy', 'overcloud')
    dump = tripleoclient_workdir.make(path)
    before = tripleoclient_workdir.snapshot(path)
    for argv in (['overcloud', 'deploy', '--heat-type', 'native',
                  '--stack-only'],            # the quick start's command
                 ['tripleo', 'launch', 'heat'],
                 ['overcloud', 'delete', '-y']):
        print(_refused(cli.run(*argv, check=False), path, dump))
    assert tripleoclient_workdir.snapshot(path) == before
    assert os.listdir(os.path.dirname(path)) == ['overcloud']
    assert not os.path.exists(os.path.join(home, '.config'))


def _secrets(wd):
    """The API secret and every password value of the work dir."""
    values = [(wd.heat_dir / 'api_secret').read_text().strip()]
    found = yaml.safe_load(wd.passwords_file.read_text())['parameter_defaults']
    for value in found.values():
        if isinstance(value, dict):
            value = next(iter(value.values()))
            value = value.get('content', value) if isinstance(
                value, dict) else value
        values += [line for line in str(value).splitlines()
                   if len(line) >= 8 and 'BEGIN' not in line and
                   'END' not in line]
    return values


def _bash(cli, script):
    return subprocess.run(['bash', '-c', script], env=cli.env,
                          capture_output=True, text=True, timeout=120)


def test_the_operators_directory_their_shell_and_their_logs(
        cli, tmp_path, port):
    work_dir = tmp_path / 'mine'
    (work_dir / '.ssh').mkdir(parents=True)
    (work_dir / '.ssh' / 'id_rsa').write_text('OPERATOR KEY\n')
    (work_dir / 'docs').mkdir()
    (work_dir / 'docs' / 'runbook.md').write_text('# ours\n')
    wd = helpers.Layout(work_dir)
    try:
        done = cli.deploy(work_dir, '--debug', port=port)
    finally:
        helpers.stop_heat_in(wd.heat_dir)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    assert ('Not in the install archive, as not this product\'s (they stay '
            'in %s): .ssh, docs' % work_dir) in done.progress
    assert 'at http://127.0.0.1:%d/<api_secret>/v1/admin' % port in \
        done.progress
    assert (work_dir / claim.NAME).is_file()

    # Secrets never printed: not in the output, the --debug log on stderr,
    # nor Heat's own logs (which are the owner's alone anyway).
    logs = [wd.heat_dir / 'log' / n for n in os.listdir(wd.heat_dir / 'log')]
    secrets = _secrets(wd)
    assert len(secrets) > 50
    for name, text in [('stdout', done.proc.stdout),
                       ('stderr', done.progress)] + [
            (str(p), p.read_text()) for p in logs]:
        leaked = [s[:4] for s in secrets if s in text]
        assert not leaked, (name, leaked)
    assert 'REQ: curl' in done.progress  # --debug did log the requests
    for path in [wd.heat_dir] + logs:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, (path, oct(mode))

    # The overcloud's rc file works from any shell; a sourced rc file, or
    # any OS_CLOUD, does not stop the product's commands.
    status = ('openstack overcloud status --work-dir %s -f value '
              '-c "Deployment Status"' % work_dir)
    shown = _bash(cli, 'source %s && %s && openstack configuration show '
                  '-f json' % (wd.rc_file, status))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith('DEPLOY_SUCCESS\n')
    config = yaml.safe_load(shown.stdout.split('\n', 1)[1])
    for key, value in (('auth_url', 'http://192.0.2.2:5000'),
                       ('username', 'admin'), ('password', '<redacted>')):
        assert config.get(key, config.get('auth.' + key)) == value, key
    assert config['region_name'] == 'regionOne'
    # tripleoclient's stackrc (THT's undercloud_post.sh): OS_CLOUD names a
    # cloud whose clouds.yaml this machine does not have.
    stackrc = tmp_path / 'stackrc'
    stackrc.write_text(
        "for key in $( set | awk -F= '/^OS_/ {print $1}' ); do unset "
        '"${key}" ; done\nexport OS_CLOUD=undercloud\n')
    sourced = _bash(cli, 'source %s && %s' % (stackrc, status))
    assert (sourced.returncode, sourced.stdout) == (
        0, 'DEPLOY_SUCCESS\n'), sourced.stderr

    deleted = cli.run('overcloud', 'delete', '-y', '--work-dir',
                      str(work_dir), '-f', 'yaml')
    result = yaml.safe_load(deleted.stdout)
    assert result['kept'] == ['.ssh', 'docs']
    assert result['work_dir_removed'] is False
    assert ('Kept in %s what is not this stack\'s: .ssh, docs' % work_dir
            in deleted.stderr)
    assert sorted(os.listdir(work_dir)) == ['.ssh', 'docs']
    assert (work_dir / '.ssh' / 'id_rsa').read_text() == 'OPERATOR KEY\n'
    with tarfile.open(result['archive']) as tar:
        names = tar.getnames()
    assert 'mine/overcloud-passwords.yaml' in names
    assert 'mine/%s' % claim.NAME in names
    assert not [n for n in names if n.startswith(('mine/.ssh', 'mine/docs'))]
