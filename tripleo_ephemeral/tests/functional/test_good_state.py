"""The last good state is never lost (issue 29, the state half).

One good deploy, then Heat failing before it takes the stack, then eight
failed or interrupted deploys of the bundled sample: the good one is still
listed and restores. Cheap failures, caused for real: a resource that
fails (``OS::Heat::TestResource``), SIGINT during the create, a startup
timeout shorter than Heat's start.
"""

import os
import signal

import yaml

from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral import locking
from tripleo_ephemeral.tests.functional import helpers

SERVERS = {'Controller': [{'hostname': 'ctrl-0',
                           'ctlplane_ip': '192.0.2.10'}]}
FAILING = '''heat_template_version: wallaby
parameters:
  server: {type: string}
resources:
  boom:
    type: OS::Heat::TestResource
    properties: {fail: true}
'''


def _inputs(tmp_path):
    servers = tmp_path / 'servers.yaml'
    servers.write_text(yaml.safe_dump(SERVERS))
    (tmp_path / 'fail.yaml').write_text(FAILING)
    env = tmp_path / 'fail-env.yaml'
    env.write_text(yaml.safe_dump({'resource_registry': {
        'OS::TripleO::DeployedServer::Bootstrap':
            str(tmp_path / 'fail.yaml')}}))
    return ['--deployed-servers', str(servers)], env


def _dumps(cli, work_dir):
    return cli.json('tripleo', 'saved', 'dump', 'list', '--work-dir',
                    str(work_dir))


def _slow_heat_start(tmp_path, base):
    """Environment under which Heat's process (the native runner, the
    only one started with ``--db-sync``) sleeps 60 s before it starts: Heat
    is started ahead while the inputs are read, so on a busy machine it may
    answer before a 0 s start-up timeout is checked; a Heat that cannot
    answer yet makes the timeout certain."""
    site = tmp_path / 'slow-heat-site'
    site.mkdir(exist_ok=True)
    (site / 'sitecustomize.py').write_text(
        'import sys\n'
        'import time\n'
        "if '--db-sync' in sys.argv:\n"
        '    time.sleep(60)\n')
    path = base.get('PYTHONPATH')
    return {'PYTHONPATH': os.pathsep.join([str(site)] + ([path] if path
                                                         else []))}


def _interrupted(cli, work_dir, port, args):
    running = cli.running('overcloud', 'deploy', '--stack-only',
                          '--work-dir', str(work_dir), '--heat-api-port',
                          str(port), *args)
    running.wait_for(r'\d+ resources complete')  # inside the create
    running.proc.send_signal(signal.SIGINT)
    assert running.proc.wait(timeout=180) != 0


@helpers.LONG_OPT_IN
def test_failed_deploys_never_push_out_the_good_one(cli, work_dir, port,
                                                    tmp_path):
    wd = helpers.Layout(work_dir)
    args, fail_env = _inputs(tmp_path)
    good = cli.deploy(work_dir, *args, port=port)
    assert good.result['status'] == 'DEPLOY_SUCCESS'
    [first] = _dumps(cli, work_dir)
    assert first['Origin'] == generations.DEPLOY_SUCCESS and first['Kept']

    # Heat launched, then failing before it takes the stack: nothing moves.
    dump_bytes = wd.heat_dump.read_bytes()
    before = sorted(p.name for p in work_dir.rglob('*.tar.gz'))
    timed_out = cli.deploy(work_dir, *args, '--heat-startup-timeout', '0',
                           port=port, check=False,
                           env=_slow_heat_start(tmp_path, cli.env))
    assert timed_out.returncode != 0
    assert 'as they were' in timed_out.progress
    assert wd.status() == 'DEPLOY_SUCCESS'
    assert wd.heat_dump.read_bytes() == dump_bytes
    assert sorted(p.name for p in work_dir.rglob('*.tar.gz')) == before
    assert _dumps(cli, work_dir) == [first]

    # Eight failed or interrupted deploys: more than the rotation keeps.
    for n in range(8):
        if n in (3, 6):
            _interrupted(cli, work_dir, port, args)
        else:
            failed = cli.deploy(work_dir, *args, '-e', str(fail_env),
                                port=port, check=False)
            assert 'CREATE_FAILED' in helpers.one_line_error(failed.proc)
    assert wd.status() == 'DEPLOY_FAILED'
    listed = _dumps(cli, work_dir)
    origins = [d['Origin'] for d in listed]
    assert origins.count(generations.DEPLOY_FAILED) == 3
    assert origins.count(generations.DEPLOY_INTERRUPTED) == 2
    assert listed[-1] == dict(first, Path=listed[-1]['Path'])
    assert listed[-1]['Path'].endswith('heat-db-dump.success.sql.gz')

    # The saved view reads it without Heat...
    for dump in (listed[-1]['Path'], generations.LAST_SUCCESS, first['ID']):
        saved = cli.json('tripleo', 'saved', 'stack', 'list', '--work-dir',
                         str(work_dir), '--dump', dump)
        assert [(s['Stack Name'], s['Stack Status']) for s in saved] == [
            ('overcloud', 'CREATE_COMPLETE')], dump
    # ... and --restore-db brings it back by name.
    cli.json('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
             '--restore-db', generations.LAST_SUCCESS)
    try:
        stacks = cli.json('stack', 'list', env={'OS_CLOUD': 'heat'})
        assert [(s['Stack Name'], s['Stack Status']) for s in stacks] == [
            ('overcloud', 'CREATE_COMPLETE')]
    finally:
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
                '--kill')
    assert first['ID'] in [d['ID'] for d in _dumps(cli, work_dir)]


def test_launching_by_hand_keeps_the_deployment(cli, dumped, tmp_path):
    """README's "Launching Heat by hand" on a deploy's work dir, and a
    --kill with a typo."""
    heat_dir = helpers.Layout(dumped).heat_dir
    before = _dumps(cli, dumped)
    refused = cli.run('tripleo', 'launch', 'heat', '--heat-type', 'native',
                      '--work-dir', str(dumped), check=False)
    assert '--empty' in helpers.one_line_error(refused)
    empty = cli.json('tripleo', 'launch', 'heat', '--heat-type', 'native',
                     '--work-dir', str(dumped), '--empty')
    assert empty['status'] == 'running'
    try:
        typo = tmp_path / 'typo'
        wrong = cli.run('tripleo', 'launch', 'heat', '--work-dir', str(typo),
                        '--kill', check=False)
        assert str(heat_dir) in helpers.one_line_error(wrong)
        assert not typo.exists()
    finally:
        killed = cli.json('tripleo', 'launch', 'heat', '--work-dir',
                          str(dumped), '--kill')
    assert killed['status'] == 'stopped' and killed['dump'] is None
    assert _dumps(cli, dumped) == before
    saved = cli.json('tripleo', 'saved', 'stack', 'list', '--work-dir',
                     str(dumped))
    assert [s['Stack Name'] for s in saved] == ['demo']


def test_backup_create_takes_the_work_dirs_lock(cli, tmp_path):
    work_dir = tmp_path / 'work'
    work_dir.mkdir()
    with locking.DirLock(str(work_dir), purpose='overcloud deploy'):
        proc = cli.run('tripleo', 'backup', 'create', '--work-dir',
                       str(work_dir), '--output', str(tmp_path / 'b.tgz'),
                       check=False)
    assert 'in use by pid %d (overcloud deploy)' % os.getpid() in \
        helpers.one_line_error(proc)
    assert not (tmp_path / 'b.tgz').exists()
    done = cli.json('tripleo', 'backup', 'create', '--work-dir',
                    str(work_dir), '--output', str(tmp_path / 'b.tgz'))
    assert done['backup'] == str(tmp_path / 'b.tgz')
