"""Container and pod launchers against a fake podman: the argv they run."""

import json
import os
import stat

import yaml

from tripleo_ephemeral import heat_launcher
from tripleo_ephemeral.heat_launcher import container
from tripleo_ephemeral.heat_db import crossdb
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_db import mysql_database
from tripleo_ephemeral.heat_launcher import pod
from tripleo_ephemeral.heat_launcher import podman
from tripleo_ephemeral.tests import heat_sqlite
from tripleo_ephemeral.tests.unit import fakes


def test_container_launch_argv(tmp_path):
    runner = fakes.FakeRunner()
    launcher = container.ContainerHeatLauncher(
        str(tmp_path / 'hd'), 18006, runner=runner,
        images=podman.ContainerImages(fakes.IMAGE))
    launcher.prepare()
    saved = launcher._launch()
    name = launcher.container_name
    assert saved == {'container': name, 'image': fakes.IMAGE}
    assert name.startswith('tripleo-heat-') and len(name) == 21
    [run] = runner.find('podman', 'run')
    heat_dir = launcher.heat_dir
    assert run[:5] == ['podman', 'run', '-d', '--name', name]
    for opt in ('--init', '--net', 'host'):
        assert opt in run
    assert '%s:%s' % (heat_dir, heat_dir) in run
    assert run[-5:] == [fakes.IMAGE, 'tripleo-heat-all', '--config-file',
                        launcher.files.config_file, '--db-sync']
    # A local image is never pulled.
    assert not runner.find('podman', 'pull')


def test_container_stop_is_sigterm_then_rm(tmp_path):
    runner = fakes.FakeRunner([(('podman', 'container', 'inspect'), 0,
                                b'running 0')])
    launcher = container.ContainerHeatLauncher(str(tmp_path), runner=runner)
    launcher.state.save(running=True, container=launcher.container_name)
    launcher._database = database.SqliteDatabase(str(tmp_path / 'none'))
    launcher.stop()
    assert runner.find('podman', 'stop', '-t', '10',
                       launcher.container_name)
    assert runner.find('podman', 'rm', '--ignore', '-f',
                       launcher.container_name)


def test_container_and_pod_stop_take_the_dump_origin(tmp_path):
    """A deploy and an adoption stop with origin=...; the types that add
    their own clean-up to stop take it too (a TypeError before)."""
    for launcher in (
            container.ContainerHeatLauncher(
                str(tmp_path / 'c'), runner=fakes.FakeRunner()),
            _pod(tmp_path / 'p', runner=fakes.FakeRunner())):
        os.makedirs(launcher.heat_dir)
        launcher._database = database.SqliteDatabase(str(tmp_path / 'none'))
        assert launcher.stop(dump=True, origin=generations.DEPLOY) is None


def test_remote_image_pulled_unless_skipped():
    runner = fakes.FakeRunner([(('podman', 'image', 'exists'), 1, b'')])
    podman.Podman(runner).ensure_image('quay.io/x/heat:1')
    assert runner.find('podman', 'pull', 'quay.io/x/heat:1')
    runner = fakes.FakeRunner([(('podman', 'image', 'exists'), 1, b'')])
    for image, pull in (('quay.io/x/heat:1', False), (fakes.IMAGE, True)):
        try:
            podman.Podman(runner).ensure_image(image, pull=pull)
        except Exception as exc:
            assert 'image build' in str(exc)
        else:
            raise AssertionError('no error for a missing image')
    assert not runner.find('podman', 'pull')


def test_factory_drops_options_a_type_does_not_take(tmp_path):
    images = podman.ContainerImages(fakes.IMAGE)
    native = heat_launcher.get_launcher('native', str(tmp_path),
                                        images=images, pull=False,
                                        engine_workers=3)
    assert native.heat_type == 'native'
    p = heat_launcher.get_launcher('pod', str(tmp_path), images=images,
                                   engine_workers=3)
    assert p.engine_workers == 3 and p.images is images


def _pod(tmp_path, runner=None, **kwargs):
    return pod.PodHeatLauncher(
        str(tmp_path / 'hd'), 18106, runner=runner or fakes.FakeRunner(),
        images=podman.ContainerImages(fakes.IMAGE), **kwargs)


def test_pod_yaml_and_private_files(tmp_path):
    launcher = _pod(tmp_path, engine_workers=3)
    launcher.prepare()
    spec = yaml.safe_load(open(launcher.pod_file))
    assert spec['metadata']['name'] == launcher.pod_name
    assert spec['spec']['hostNetwork'] is True
    ctrs = {c['name']: c for c in spec['spec']['containers']}
    assert sorted(ctrs) == ['heat-api', 'heat-engine', 'mariadb', 'rabbitmq']
    ports = launcher.ports()
    assert '--workers' in ctrs['heat-engine']['command']
    assert ctrs['heat-engine']['command'][-1] == '3'
    assert '--mode' in ctrs['heat-api']['command']
    mariadb = ' '.join(ctrs['mariadb']['command'])
    assert '--bind-address=127.0.0.1' in mariadb
    assert '--port=%d' % ports['mysql'] in mariadb
    env = {e['name']: e['value'] for e in ctrs['rabbitmq']['env']}
    # No epmd: a distributed node on a fixed loopback port.
    assert sorted(ports) == ['amqp', 'dist', 'mysql']
    assert env['RABBITMQ_DIST_PORT'] == str(ports['dist'])
    assert env['RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS'] == (
        '-sname %s' % env['RABBITMQ_NODENAME'])
    assert env['ERL_ZFLAGS'].split() == [
        '-start_epmd', 'false', '-erl_epmd_port', str(ports['dist']),
        '-kernel', 'inet_dist_use_interface', '{127,0,0,1}']
    assert env['ERL_EPMD_PORT'] == '0'
    assert 'ERL_EPMD_ADDRESS' not in env
    # Secrets: random, 0600, never in the pod spec or the database URL.
    creds = json.load(open(launcher.files.path(pod.CREDENTIALS_FILE)))
    text = open(launcher.pod_file).read()
    for secret in (creds['mysql_password'], creds['rabbit_password']):
        assert secret not in text
        assert secret not in launcher.database.url
        assert secret != 'heat'
    for name in (pod.CREDENTIALS_FILE, 'mysql-client.cnf', 'rabbitmq.conf',
                 'heat.conf'):
        mode = os.stat(launcher.files.path(name)).st_mode
        assert stat.S_IMODE(mode) == 0o600
    conf = open(launcher.files.config_file).read()
    assert 'rabbit://%s:%s@127.0.0.1:%d/' % (
        creds['rabbit_user'], creds['rabbit_password'], ports['amqp']) in conf
    client_cnf = launcher.files.path('mysql-client.cnf')
    assert 'read_default_file=%s' % client_cnf in conf


def test_two_heat_dirs_get_different_names_and_ports(tmp_path):
    a = _pod(tmp_path / 'a')
    b = _pod(tmp_path / 'b')
    a.prepare()
    b.prepare()
    assert a.pod_name != b.pod_name
    assert not set(a.ports().values()) & set(b.ports().values())
    assert a.credentials() != b.credentials()
    # Kept per heat dir.
    assert _pod(tmp_path / 'a').ports() == a.ports()


def test_ports_saved_with_epmd_are_kept_without_it(tmp_path):
    # Heat dirs of versions that ran epmd saved its port too.
    launcher = _pod(tmp_path)
    launcher.prepare()
    ports = launcher.ports()
    launcher.state.save(pod_ports=dict(ports, epmd=4369))
    assert launcher.ports() == ports
    launcher._renew_busy_ports()  # what a start does: saved without it
    assert sorted(launcher.state.load()['pod_ports']) == sorted(
        pod.PORT_NAMES)


def test_pod_launch_and_kill_argv(tmp_path):
    runner = fakes.FakeRunner()
    launcher = _pod(tmp_path, runner=runner)
    launcher.prepare()
    launcher._launch()
    assert runner.find('podman', 'play', 'kube', '--start=false',
                       launcher.pod_file)
    assert runner.find('podman', 'start', launcher.container_name('mariadb'),
                       launcher.container_name('rabbitmq'))
    launcher.kill()
    assert runner.find('podman', 'pod', 'rm', '-f', '--ignore', '-t', '0',
                       launcher.pod_name)


def test_mysql_sql_goes_through_stdin(tmp_path):
    runner = fakes.FakeRunner()
    db = mysql_database.MysqlDatabase(podman.Podman(runner), 'ctr', 3306,
                                      str(tmp_path / 'c.cnf'), str(tmp_path))
    db.create('s3cret')
    assert not any('s3cret' in ' '.join(c) for c in runner.calls)
    assert any(i and b's3cret' in i for i in runner.inputs)
    assert runner.calls[-1][:4] == ['podman', 'exec', '-i', 'ctr']


def test_dump_dialect():
    assert crossdb.dump_dialect('BEGIN TRANSACTION;\nCREATE TABLE') == \
        crossdb.SQLITE
    assert crossdb.dump_dialect('/*M!999999\\- enable the sandbox mode */\n'
                                '-- MariaDB dump 10.19\n/*!40101 SET */') == \
        crossdb.MYSQL


def test_copy_rows_between_sqlite_files(tmp_path):
    src = heat_sqlite.stack_db(tmp_path / 'src.db', alembic_revision='')
    dst = heat_sqlite.stack_db(tmp_path / 'dst.db', rows=(),
                               alembic_revision='')
    assert crossdb.copy_rows('sqlite:///%s' % src, 'sqlite:///%s' % dst) == 1
    assert heat_sqlite.stack_names(dst) == ['demo']
