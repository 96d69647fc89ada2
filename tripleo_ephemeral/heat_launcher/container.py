"""Container Heat: the heat-all runner in one podman container.

The heat dir is mounted at the same path, so heat.conf's paths hold inside
the container too, and the database is the same SQLite file as native's:
dumps and restores are identical.
"""

import logging

from tripleo_ephemeral.heat_launcher import ephemeral
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import generations
from tripleo_ephemeral.heat_launcher import logtail
from tripleo_ephemeral.heat_launcher import podman as podman_cli
from tripleo_ephemeral.heat_launcher import scratch_mariadb

LOG = logging.getLogger(__name__)


class ContainerHeatLauncher(ephemeral.EphemeralHeatLauncher):
    """``podman run --init --net host`` of tripleo-heat-all."""

    heat_type = 'container'

    def __init__(self, heat_dir, api_port=None, *,
                 images=None, pull=True, podman=None, **kwargs):
        super().__init__(heat_dir, api_port, **kwargs)
        self.images = images or podman_cli.ContainerImages()
        self.pull = pull
        self.podman = podman or podman_cli.Podman(self.runner)
        self._database = database.SqliteDatabase(
            self.files.path(database.SQLITE_NAME), runner=self.runner,
            mysql_reader=scratch_mariadb.ScratchMariadb(
                self.podman, self.images, self.heat_dir, pull=pull))

    @property
    def database(self):
        return self._database

    @property
    def container_name(self):
        return podman_cli.podman_name('tripleo-heat', self.heat_dir)

    def runner_command(self):
        return ['tripleo-heat-all', '--config-file', self.files.config_file,
                '--db-sync']

    def pre_start_check(self):
        saved = self.state.load()
        running = saved.get('running') and self._is_alive(saved)
        if not running and self.podman.container_exists(self.container_name):
            self.say('Removing the container %s a previous run left '
                     'behind' % self.container_name)
            self.podman.remove(self.container_name)  # it may hold the port
        self.check_prerequisites()
        super().pre_start_check()

    def check_prerequisites(self):
        self.podman.check_image(self.images.image('api'), pull=self.pull)

    def _launch(self):
        image = self.images.image('api')
        self.podman.ensure_image(image, pull=self.pull)
        name = self.container_name
        if self.podman.container_exists(name):
            LOG.info('Removing the container %s a previous run left', name)
            self.podman.remove(name)
        self.podman.container_run(name, image, self.runner_command(), options=[
            '--init', '--net', 'host',
            '--label', '%s=%s' % (podman_cli.LABEL, self.heat_dir),
            '-v', '%s:%s' % (self.heat_dir, self.heat_dir)])
        return {'container': name, 'image': image}

    def _is_alive(self, saved):
        state = self.podman.container_state(
            saved.get('container') or self.container_name)
        return state is not None and state[0] == 'running'

    def _check_exited(self, saved):
        name = saved.get('container') or self.container_name
        state = self.podman.container_state(name)
        if state is not None and state[0] in ('running', 'created',
                                              'configured'):
            return
        code = state[1] if state else None
        raise self._exited_error(code, 'Heat container %s' % name)

    def _failure_hint(self):
        tail = self.podman.logs_tail(self.container_name, lines=5)
        last = logtail.last_error(self.files.path('log', 'heat.log'))
        return '%s\n%s\nfull log in %s' % (tail, last, self.files.log_dir)

    def _terminate(self, saved, timeout):
        self.podman.stop(saved.get('container') or self.container_name,
                         timeout=timeout)

    def _force_kill(self, saved):
        self.podman.remove(saved.get('container') or self.container_name)

    def _remove(self):
        self.podman.remove(self.container_name)

    def stop(self, dump=True, origin=generations.LAUNCH):
        try:
            return super().stop(dump=dump, origin=origin)
        finally:
            self._remove()

    def kill(self):
        super().kill()
        self._remove()
