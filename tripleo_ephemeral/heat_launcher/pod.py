"""Pod Heat: heat-api, N heat-engines, MariaDB and RabbitMQ in one pod.

``podman play kube --start=false <heat-dir>/heat-pod.yaml`` creates the pod;
the launcher starts its containers in order under one deadline: MariaDB and
RabbitMQ, the database (and a staged restore), the API (which runs
``db_sync``), then the engines. Every service listens on 127.0.0.1 on ports
chosen per heat dir, so pods of two heat dirs run side by side.
"""

import datetime
import json
import logging
import os
import secrets
import urllib.error
import urllib.request

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import ephemeral
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_db import mysql_database
from tripleo_ephemeral.heat_launcher import podman as podman_cli
from tripleo_ephemeral.heat_launcher import readiness

LOG = logging.getLogger(__name__)

POD_FILE = 'heat-pod.yaml'
CREDENTIALS_FILE = 'pod-credentials.json'
#: Loopback ports each pod needs besides the API's. RabbitMQ runs without
#: epmd (which always listens on ::1 too): its Erlang distribution listens
#: on the fixed port ``dist``.
PORT_NAMES = ('mysql', 'amqp', 'dist')
SERVICES = ('mariadb', 'rabbitmq')
HEAT = ('heat-api', 'heat-engine')


def default_engine_workers():
    """Two engines per CPU (at least 2, at most 8).

    Engines spend much of a create waiting on nested stacks and the
    database: on 2 CPUs, the THT overcloud took 84 s with 2 engines and 78 s
    with 4 (tools/bench).
    """
    return min(8, max(2, 2 * (os.cpu_count() or 1)))


class PodHeatLauncher(ephemeral.EphemeralHeatLauncher):
    """A podman pod with its own database and message bus."""

    heat_type = 'pod'

    def __init__(self, heat_dir, api_port=None, *,
                 images=None, pull=True, engine_workers=None, podman=None,
                 **kwargs):
        super().__init__(heat_dir, api_port, **kwargs)
        self.images = images or podman_cli.ContainerImages()
        self.pull = pull
        self.engine_workers = engine_workers or default_engine_workers()
        self.podman = podman or podman_cli.Podman(self.runner)
        self._database = None

    # -- names, ports, credentials ----------------------------------------

    @property
    def pod_name(self):
        return podman_cli.podman_name('tripleo-heat-pod', self.heat_dir)

    def container_name(self, part):
        return '%s-%s' % (self.pod_name, part)

    @property
    def pod_file(self):
        return self.files.path(POD_FILE)

    def ports(self):
        """The pod's loopback ports, chosen once per heat dir."""
        saved = self.state.load().get('pod_ports') or {}
        if all(saved.get(name) for name in PORT_NAMES):
            return {name: saved[name] for name in PORT_NAMES}
        ports = {name: readiness.free_port(self.bind_host)
                 for name in PORT_NAMES}
        if os.path.isdir(self.heat_dir):
            self.state.save(pod_ports=ports)
        return ports

    def _renew_busy_ports(self):
        ports = dict(self.ports())
        for name, port in sorted(ports.items()):
            try:
                readiness.check_port_free(self.bind_host, port)
            except exceptions.LauncherError:
                ports[name] = readiness.free_port(self.bind_host)
                LOG.info('Port %d (%s) is taken; using %d', port, name,
                         ports[name])
        fileutil.ensure_private_dir(self.heat_dir)
        self.state.save(pod_ports=ports)
        self._database = None

    def credentials(self):
        """Random, new for each launch (:meth:`renew_secrets`), kept 0600
        in the heat dir. MariaDB's data and RabbitMQ's users live in the
        pod, which each launch makes anew: nothing outlives a launch that
        would need the old ones."""
        path = self.files.path(CREDENTIALS_FILE)
        try:
            with open(path) as f:
                creds = json.load(f)
            if all(creds.get(k) for k in ('mysql_password', 'rabbit_user',
                                          'rabbit_password')):
                return creds
        except (FileNotFoundError, ValueError):
            pass
        creds = {'mysql_password': secrets.token_hex(16),
                 'rabbit_user': 'heat-%s' % secrets.token_hex(4),
                 'rabbit_password': secrets.token_hex(16)}
        fileutil.ensure_private_dir(self.heat_dir)
        fileutil.write_atomic(path, json.dumps(creds) + '\n')
        return creds

    # -- what the base class asks for --------------------------------------

    @property
    def database(self):
        if self._database is None:
            self._database = mysql_database.MysqlDatabase(
                self.podman, self.container_name('mariadb'),
                self.ports()['mysql'], self.files.path('mysql-client.cnf'),
                self.heat_dir)
        return self._database

    @property
    def transport_url(self):
        creds = self.credentials()
        return 'rabbit://%s:%s@127.0.0.1:%d/' % (
            creds['rabbit_user'], creds['rabbit_password'],
            self.ports()['amqp'])

    def pod_spec(self):
        return config.render(
            'heat-pod.yaml', pod_name=self.pod_name, heat_dir=self.heat_dir,
            config_file=self.files.config_file, ports=self.ports(),
            engine_workers=self.engine_workers,
            rabbitmq_config=self.files.path('rabbitmq.conf'),
            images={part: self.images.image(part)
                    for part in ('api', 'engine', 'db', 'bus')})

    def renew_secrets(self):
        super().renew_secrets()
        fileutil.remove(self.files.path(CREDENTIALS_FILE))

    def _prepare_extra(self):
        creds = self.credentials()
        ports = self.ports()
        path = self.files.path
        fileutil.write_atomic(path('mysql-client.cnf'), config.render(
            'mysql-client.cnf', user=mysql_database.MysqlDatabase.USER,
            password=creds['mysql_password'], port=ports['mysql'],
            database=mysql_database.MysqlDatabase.NAME))
        fileutil.write_atomic(path('rabbitmq.conf'), config.render(
            'rabbitmq.conf', amqp_port=ports['amqp'],
            user=creds['rabbit_user'], password=creds['rabbit_password']))
        fileutil.write_atomic(self.pod_file, self.pod_spec())

    def pre_start_check(self):
        saved = self.state.load()
        running = saved.get('running') and self._is_alive(saved)
        if not running and self.podman.pod_exists(self.pod_name):
            self._replace_stale_pod()  # it may hold the API port
        self.check_prerequisites()
        super().pre_start_check()
        self._renew_busy_ports()

    def check_prerequisites(self):
        for image in self.images.all():
            self.podman.check_image(image, pull=self.pull)

    def _replace_stale_pod(self):
        """A crashed run left its pod: keep its data as a dump, remove it."""
        self.say('Removing the pod %s a previous run left behind' %
                 self.pod_name)
        if self.database.has_data():
            path = self.database.dump(self.dumps)
            self.dumps.record_origin(path, generations.RECOVERED)
            self.say('Kept its database as the dump %s' % path)
        self.podman.pod_remove(self.pod_name)

    def _launch(self):
        for image in self.images.all():
            self.podman.ensure_image(image, pull=self.pull)
        self.podman.pod_remove(self.pod_name)
        self.podman.play_kube(self.pod_file, start=False)
        self.podman.start(*[self.container_name(c) for c in SERVICES])
        return {'pod': self.pod_name, 'engine_workers': self.engine_workers,
                'started_at': _utcnow().isoformat()}

    def wait_until_ready(self, saved=None):
        """MariaDB, the database, the API, then N engines: one deadline."""
        saved = saved or self.state.load()
        deadline = readiness.Deadline(self.startup_timeout)
        alive = lambda: self._check_exited(saved)  # noqa: E731
        db = self.database
        readiness.wait_until(db.ping, deadline, what='MariaDB',
                             still_alive=alive, interval=0.2)
        db.create(self.credentials()['mysql_password'])
        db.load(schema_ready=False)
        self.podman.start(self.container_name('heat-api'))
        readiness.wait_until(
            lambda: api_serving(self.owner_url + '/'), deadline,
            what='The Heat API at %s' % self.api_url, still_alive=alive,
            interval=0.2)
        db.load(schema_ready=True)
        # The engines import for seconds: start them while RabbitMQ boots.
        self.podman.start(self.container_name('heat-engine'))
        since = datetime.datetime.fromisoformat(saved['started_at'])
        readiness.wait_until(
            lambda: self.engines_up(since) >= self.engine_workers, deadline,
            what='%d Heat engines' % self.engine_workers, still_alive=alive,
            interval=0.5)

    def engines_up(self, since):
        """How many engines started after ``since`` report themselves up."""
        try:
            with urllib.request.urlopen(self.endpoint + '/services',
                                        timeout=5) as resp:
                services = json.load(resp).get('services', [])
        except (urllib.error.URLError, OSError, ValueError):
            return 0
        count = 0
        for svc in services:
            created = _parse_time(svc.get('created_at'))
            if (svc.get('binary') == 'heat-engine' and
                    svc.get('status') == 'up' and created is not None and
                    created >= since - datetime.timedelta(seconds=5)):
                count += 1
        return count

    def _states(self):
        return self.podman.pod_containers(self.pod_name)

    def _is_alive(self, saved):
        states = self._states()
        return all(states.get(self.container_name(c), ('',))[0] == 'running'
                   for c in HEAT)

    def _check_exited(self, saved):
        for name, (state, code) in sorted(self._states().items()):
            if state in ('exited', 'stopped', 'dead'):
                raise exceptions.ProcessExitedError(
                    'Container %s exited while starting (exit code %s):\n%s'
                    '\nfull logs in %s and "podman logs %s"' % (
                        name, code, self.podman.logs_tail(name, lines=10),
                        self.files.log_dir, name))
        if not self.podman.pod_exists(self.pod_name):
            raise exceptions.ProcessExitedError(
                'The Heat pod %s disappeared while starting' % self.pod_name)

    def _terminate(self, saved, timeout):
        self.podman.stop(*[self.container_name(c) for c in HEAT],
                         timeout=timeout)

    def _force_kill(self, saved):
        self.podman.pod_remove(self.pod_name)

    def stop(self, dump=True, origin=generations.LAUNCH):
        try:
            return super().stop(dump=dump, origin=origin)
        finally:
            self.say('Removing the pod %s' % self.pod_name)
            self.podman.pod_remove(self.pod_name)

    def kill(self):
        super().kill()
        self.podman.pod_remove(self.pod_name)

    def describe(self):
        info = super().describe()
        info['pod'] = self.pod_name
        return info


def api_serving(url):
    """True once the Heat API app (not a placeholder) answers ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError as exc:
        return exc.code < 500
    except (urllib.error.URLError, OSError):
        return False


def _utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


def _parse_time(value):
    if not value:
        return None
    try:
        return datetime.datetime.fromisoformat(value.replace('Z', ''))
    except ValueError:
        return None
