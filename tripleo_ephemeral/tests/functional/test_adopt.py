"""`overcloud adopt`: from an installed Heat, from a mysqldump of the pod's
database and from a Wallaby-era dump; then the next deploy on native Heat
creates an equivalent stack
(:mod:`tripleo_ephemeral.tripleoclient_adoption.equivalence`).
"""

import gzip
import io
import re
import sqlite3
import subprocess
import tarfile

import pytest
import yaml

from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.tripleoclient_adoption import dump_import
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.heat_launcher import scratch_mariadb
from tripleo_ephemeral.overcloud import passwords
from tripleo_ephemeral import process
from tripleo_ephemeral.tests.functional import helpers
from tripleo_ephemeral.tests.functional import podman_env
from tripleo_ephemeral.tests import heat_sqlite

#: An undercloud's admin project: the stacks' tenant in its database.
PROJECT = '0e5f1c7d5b2a4c1e9f3b6a7d8c9e0f12'
_REQUEST = re.compile(r'Processing request: ([A-Z]+) ')


def requests(log):
    return _REQUEST.findall(log.read_text()) if log.exists() else []


def test_adopt_from_an_installed_heat(cli, tmp_path, heat_dir, work_dir,
                                      port, adopted_dir):
    """A Heat started with `tripleo launch heat` stands in for the
    undercloud's; `overcloud deploy --heat-type installed` fills it."""
    cli.json('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
             '--heat-api-port', str(port))
    env = {'OS_CLOUD': 'heat'}
    done = cli.deploy(work_dir, heat_type='installed', env=env)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    log = heat_dir / 'log' / 'heat.log'
    before = len(requests(log))
    other = readiness.free_port()

    result = cli.json('overcloud', 'adopt', '--heat-type', 'installed',
                      '--work-dir', str(adopted_dir), '--heat-api-port',
                      str(other), env=env)

    # Read-only: the installed Heat saw GETs only.
    assert set(requests(log)[before:]) == {'GET'}
    assert result['stack_status'] == 'CREATE_COMPLETE'
    assert result['hidden_recovered'] == 'AdminPassword'
    assert result['outputs_check'] == 'equal'
    assert (result['servers'], result['outputs'], result['deployments']) \
        == (2, 19, 6)
    wd = helpers.Layout(adopted_dir)
    # Every generated password, the hidden one included, is kept.
    assert passwords.load(str(wd.passwords_file)) == passwords.load(
        str(helpers.Layout(work_dir).passwords_file))
    record = yaml.safe_load(wd.adoption_file.read_text())
    assert record['heat_db_dump']['recreated'] is True
    assert wd.status() == 'DEPLOY_SUCCESS'
    saved = cli.json('tripleo', 'saved', 'stack', 'list', '--work-dir',
                     str(adopted_dir))
    assert [s['Stack Name'] for s in saved] == ['overcloud']

    again = cli.run('overcloud', 'adopt', '--heat-type', 'installed',
                    '--work-dir', str(adopted_dir), '--heat-api-port',
                    str(other), check=False, env=env)
    assert helpers.one_line_error(again).endswith(
        'already holds a deployment of overcloud '
        '(overcloud-passwords.yaml); pass --overwrite to replace it')
    cli.run('tripleo', 'launch', 'heat', '--heat-dir', str(heat_dir),
            '--kill')

    report = helpers.redeploy_and_compare(cli, adopted_dir,
                                          tmp_path / 'snapshot', other)
    helpers.assert_equivalent(report)


def test_adopt_from_a_mysqldump_of_the_pods_database(
        cli, tmp_path, work_dir, port, heat_image, adopted_dir):
    """As `openstack undercloud backup --db-only` dumps: all databases."""
    done = cli.deploy(work_dir, '--heat-container-image', heat_image,
                      '--keep-running', heat_type='pod', port=port)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    source = helpers.Layout(work_dir)
    pod = heat_launcher.get_launcher('pod', str(source.heat_dir))
    backup = tmp_path / 'openstack-backup-mysql-2026-11-24_21_00_00.sql'
    try:
        with open(backup, 'wb') as out:
            subprocess.run(['podman', 'exec', pod.container_name('mariadb'),
                            'mariadb-dump', '--opt', '--all-databases'],
                           stdout=out, check=True, timeout=120)
    finally:
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(work_dir),
                '--kill')
    other = readiness.free_port()

    result = cli.json('overcloud', 'adopt', '--heat-db-dump', str(backup),
                      '--work-dir', str(adopted_dir), '--heat-api-port',
                      str(other), '--heat-container-image', heat_image,
                      '--heat-db-auth-encryption-key',
                      str(source.heat_dir / 'auth_encryption_key'))

    assert result['stack_status'] == 'CREATE_COMPLETE'
    assert 'alembic' in result['source']
    wd = helpers.Layout(adopted_dir)
    record = yaml.safe_load(wd.adoption_file.read_text())
    assert record['source']['databases'] == ['heat', 'mysql']
    assert record['original_projects'] == ['admin']
    assert podman_env.leftovers_of(adopted_dir) == []
    assert podman_env.leftovers_of(wd.heat_dir) == []
    # The heat dir's dump restores at once.
    cli.json('tripleo', 'launch', 'heat', '--work-dir', str(adopted_dir),
             '--restore-db', '--heat-api-port', str(other))
    try:
        shown = cli.json('stack', 'output', 'show', 'overcloud', 'VipMap',
                         env={'OS_CLOUD': 'heat'})
        assert shown['output_value']['ctlplane'] == '192.0.2.2'
    finally:
        cli.run('tripleo', 'launch', 'heat', '--work-dir', str(adopted_dir),
                '--kill')

    report = helpers.redeploy_and_compare(cli, adopted_dir,
                                          tmp_path / 'snapshot', other)
    helpers.assert_equivalent(report)


def _wallaby_undercloud_backup(tmp_path, image, rows_url, path):
    """The legacy "openstack undercloud backup" archive of a Wallaby
    undercloud: a tar holding all-databases-<time>.sql.gz, its heat
    database utf8mb3 as puppet-heat creates it."""
    runner = process.ProcessRunner()
    scratch = scratch_mariadb.ScratchMariadb(
        podman.Podman(runner), podman.ContainerImages(default=image),
        str(tmp_path), pull=False)
    with scratch.loaded('ALTER DATABASE heat CHARACTER SET utf8mb3 '
                        'COLLATE utf8mb3_general_ci;') as url:
        heat_sqlite.legacy_heat_db(url, rows_from=rows_url)
        dump = subprocess.run(['podman', 'exec', scratch.name,
                               'mariadb-dump', '--opt', '--all-databases'],
                              capture_output=True, check=True, timeout=120)
    with tarfile.open(path, 'w') as tar:
        for name, data in (
                ('all-databases-20261124.sql.gz', gzip.compress(dump.stdout)),
                ('filesystem-20261124.tar', b'')):
            info = tarfile.TarInfo('UC-backup-20261124/' + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return str(path)


@pytest.mark.parametrize('database', [
    'sqlite', pytest.param('mariadb', marks=helpers.LONG_OPT_IN)])
def test_adopt_a_wallaby_era_dump(cli, tmp_path, work_dir, port, adopted_dir,
                                  request, database):
    """A legacy (sqlalchemy-migrate version 86) database holding the
    deploy's rows, in an undercloud project: Heat's db_sync stamps and
    upgrades it. In MariaDB, as the legacy undercloud backup archives it."""
    done = cli.deploy(work_dir, port=port)
    assert done.result['status'] == 'DEPLOY_SUCCESS'
    rows = tmp_path / 'rows.sqlite'
    conn = sqlite3.connect(str(rows))
    with gzip.open(helpers.Layout(work_dir).heat_dump, 'rt') as f:
        conn.executescript(f.read())
    for table, column in dump_import.TENANT_COLUMNS:
        conn.execute('UPDATE %s SET %s = ?' % (table, column), (PROJECT,))
    conn.commit()
    conn.close()
    rows_url = 'sqlite:///%s' % rows
    options = []
    if database == 'sqlite':
        dump = heat_sqlite.legacy_heat_db(tmp_path / 'heat-wallaby.sqlite',
                                          rows_from=rows_url)
    else:
        image = request.getfixturevalue('heat_image')
        dump = _wallaby_undercloud_backup(
            tmp_path, image, rows_url, tmp_path / 'UC-backup-20261124.tar')
        options = ['--heat-container-image', image]
    other = readiness.free_port()

    result = cli.json('overcloud', 'adopt', '--heat-db-dump', dump,
                      '--work-dir', str(adopted_dir), '--heat-api-port',
                      str(other), *options)

    assert result['source'].endswith(
        '(sqlalchemy-migrate 86, Heat 11 (Rocky) to 20 (2023.1))')
    record = yaml.safe_load(helpers.Layout(adopted_dir).adoption_file
                            .read_text())
    assert record['original_projects'] == [PROJECT]
    assert record['source']['schema']['upgraded_to'] == '97b2a986f922'
    # The adopted render is the first version, applied by the tooling the
    # stack was adopted from.
    status = cli.json('overcloud', 'status', '--work-dir',
                      str(adopted_dir))[0]
    assert status['Applied Version'] == status['Config Version']
    assert status['Undeployed Changes'] == 'none'
    if database == 'sqlite':
        again = cli.json('overcloud', 'adopt', '--heat-db-dump', dump,
                         '--work-dir', str(adopted_dir), '--heat-api-port',
                         str(other), '--overwrite')
        assert again['stack_id'] == result['stack_id']
    report = helpers.redeploy_and_compare(cli, adopted_dir,
                                          tmp_path / 'snapshot', other)
    helpers.assert_equivalent(report)
