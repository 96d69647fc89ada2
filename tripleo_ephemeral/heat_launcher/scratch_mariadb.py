"""A throwaway MariaDB that reads a MySQL dump, so SQLite can take its rows.

A pod's dump is MariaDB's SQL, which SQLite cannot run. It is loaded into a
short-lived container of the project image, listening on a free loopback
port; its random password goes only through stdin and a 0600 client file,
never argv. The container is removed however the restore ends.
"""

import contextlib
import logging
import os
import secrets

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import fileutil
from tripleo_ephemeral.heat_launcher import config
from tripleo_ephemeral.heat_db import mysql_database
from tripleo_ephemeral.heat_launcher import podman as podman_cli
from tripleo_ephemeral.heat_launcher import readiness

LOG = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 120
_CLIENT_FILE = '.restore-mysql-client.cnf'
#: The pod's MariaDB command, without what only a long-lived server needs.
_MARIADBD = ('install -d -o mysql -g mysql /run/mysqld && '
             'exec mariadbd --user=mysql --bind-address=127.0.0.1 '
             '--port=%d --skip-name-resolve --skip-log-bin '
             '--innodb-flush-log-at-trx-commit=0 '
             '--character-set-server=utf8mb4 '
             '--collation-server=utf8mb4_general_ci')


class ScratchMariadb:
    """Loads MySQL dumps for one heat dir; see :meth:`loaded`."""

    def __init__(self, podman, images, work_dir, *, pull=True,
                 timeout=DEFAULT_TIMEOUT):
        self.podman = podman
        self.images = images
        self.work_dir = work_dir
        self.pull = pull
        self.timeout = timeout

    @property
    def name(self):
        return podman_cli.podman_name('tripleo-heat-restore', self.work_dir)

    @contextlib.contextmanager
    def loaded(self, sql, source='the dump'):
        """Yield the SQLAlchemy URL of a MariaDB holding ``sql``'s rows."""
        image = self.images.image('db')
        self.podman.ensure_image(image, pull=self.pull)
        port = readiness.free_port()
        password = secrets.token_hex(16)
        client_file = os.path.join(self.work_dir, _CLIENT_FILE)
        db = mysql_database.MysqlDatabase(self.podman, self.name, port,
                                          client_file, self.work_dir)
        fileutil.write_atomic(client_file, config.render(
            'mysql-client.cnf', user=db.USER, password=password, port=port,
            database=db.NAME))
        self.podman.remove(self.name)
        try:
            LOG.info('Reading %s in a scratch MariaDB (%s)', source,
                     self.name)
            self.podman.container_run(
                self.name, image, ['sh', '-c', _MARIADBD % port], options=[
                    '--net', 'host', '--label',
                    '%s=%s' % (podman_cli.LABEL, self.work_dir)])
            readiness.wait_until(
                db.ping, readiness.Deadline(self.timeout),
                what='The scratch MariaDB %s' % self.name,
                still_alive=self._check_running, interval=0.2)
            db.create(password)
            try:
                db.execute_script(sql)
            except exceptions.CommandFailedError as exc:
                raise exceptions.CorruptDumpError(
                    '%s could not be loaded into MariaDB: %s' %
                    (source, exc))
            yield db.url
        finally:
            self.podman.remove(self.name)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(client_file)

    def _check_running(self):
        state = self.podman.container_state(self.name)
        if state is None or state[0] not in ('running', 'created',
                                             'configured'):
            raise exceptions.ProcessExitedError(
                'The scratch MariaDB %s exited while starting:\n%s' %
                (self.name, self.podman.logs_tail(self.name, lines=10)))
