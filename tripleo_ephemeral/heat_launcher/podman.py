"""The one seam to podman: its CLI, run through :class:`ProcessRunner`.

Every podman call of the project goes through :class:`Podman`, as an argv
list; unit tests pass a fake runner and read back the argv it recorded.
"""

import hashlib
import json
import logging

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import images
from tripleo_ephemeral import process

LOG = logging.getLogger(__name__)

#: Images under this prefix are built here and never pulled.
LOCAL_PREFIX = 'localhost/'
#: Label put on everything the launchers create in podman.
LABEL = 'tripleo-ephemeral.heat-dir'


class ContainerImages:
    """Which image each container runs; unset ones use ``default``."""

    def __init__(self, default=None, api=None, engine=None, db=None,
                 bus=None):
        self.default = default
        self.parts = {'api': api, 'engine': engine, 'db': db, 'bus': bus}

    def image(self, part=None):
        """The image of ``part`` (api, engine, db, bus), or the default."""
        chosen = self.parts.get(part) or self.default
        if chosen:
            return chosen
        return images.default_image()

    def all(self):
        return sorted({self.image(part) for part in self.parts})


def podman_name(prefix, heat_dir):
    """A stable podman name for the heat dir: a crash leaves it findable."""
    digest = hashlib.sha256(heat_dir.encode()).hexdigest()
    return '%s-%s' % (prefix, digest[:8])


class Podman:
    """Thin wrapper over the ``podman`` command line."""

    def __init__(self, runner=None, binary='podman'):
        self.runner = runner or process.ProcessRunner()
        self.binary = binary

    def run(self, *args, check=True, input=None, timeout=None, stdout=None):
        try:
            return self.runner.run([self.binary] + list(args), check=check,
                                   input=input, timeout=timeout,
                                   stdout=stdout)
        except exceptions.CommandNotFoundError:
            raise exceptions.CommandNotFoundError(
                '%s is not installed (or not on PATH): install podman, or '
                'use --heat-type native' % self.binary)

    def _ok(self, *args):
        return self.run(*args, check=False).returncode == 0

    def available(self):
        """True when podman is installed and can talk to its storage."""
        try:
            return self._ok('info', '--format', '{{.Host.OCIRuntime.Name}}')
        except exceptions.CommandFailedError:
            return False

    # -- images ----------------------------------------------------------

    def image_exists(self, image):
        return self._ok('image', 'exists', image)

    def pull(self, image):
        self.run('pull', image)

    def check_image(self, image, pull=True):
        """Raise LauncherError unless ``image`` is local or may be pulled;
        return whether it is local (nothing is pulled)."""
        if self.image_exists(image):
            return True
        if image.startswith(LOCAL_PREFIX) or not pull:
            raise exceptions.LauncherError(
                'Container image %s is not available locally; build it with '
                '"openstack tripleo heat image build"%s' % (
                    image, '' if image.startswith(LOCAL_PREFIX) else
                    ' or drop --skip-heat-pull'))
        return False

    def ensure_image(self, image, pull=True):
        """Make ``image`` available; pull remote ones unless told not to."""
        if self.check_image(image, pull=pull):
            return
        LOG.info('Pulling %s', image)
        self.pull(image)

    def build(self, context_dir, tag, containerfile, build_args=None):
        args = ['build', '--network', 'host', '-t', tag, '-f', containerfile]
        for key, value in sorted((build_args or {}).items()):
            args += ['--build-arg', '%s=%s' % (key, value)]
        self.run(*(args + [context_dir]))

    def import_tarball(self, tarball, tag, changes=()):
        args = ['import']
        for change in changes:
            args += ['--change', change]
        self.run(*(args + [tarball, tag]))

    def image_tags(self, repository):
        """``repository:tag`` of every local image of ``repository``."""
        result = self.run('images', '--filter', 'reference=%s' % repository,
                          '--format', '{{.Repository}}:{{.Tag}}', check=False)
        return (result.stdout or b'').decode().split()

    def remove_image(self, image):
        self.run('rmi', image, check=False)

    # -- containers ------------------------------------------------------

    def container_run(self, name, image, command, *, options=()):
        """``podman run -d``; return the container id."""
        result = self.run('run', '-d', '--name', name, *options, image,
                          *command)
        return result.stdout.decode().strip()

    def container_state(self, name):
        """(status, exit code) of a container, or None when there is none."""
        result = self.run('container', 'inspect', '--format',
                          '{{.State.Status}} {{.State.ExitCode}}', name,
                          check=False)
        if result.returncode != 0:
            return None
        status, _, code = result.stdout.decode().strip().partition(' ')
        return status, int(code or 0)

    def container_exists(self, name):
        return self._ok('container', 'exists', name)

    def start(self, *names):
        self.run('start', *names)

    def stop(self, *names, timeout=10):
        """SIGTERM, then SIGKILL after ``timeout`` seconds."""
        self.run('stop', '-t', str(int(timeout)), *names,
                 timeout=timeout + 30)

    def remove(self, name, force=True):
        args = ['rm', '--ignore'] + (['-f'] if force else []) + [name]
        self.run(*args)

    def logs_tail(self, name, lines=20):
        result = self.run('logs', '--tail', str(lines), name, check=False)
        out = (result.stdout or b'') + (result.stderr or b'')
        return out.decode('utf-8', 'replace').strip()

    def exec(self, name, command, *, input=None, stdout=None, check=True,
             timeout=None):
        args = ['exec'] + (['-i'] if input is not None else []) + [name]
        return self.run(*(args + list(command)), input=input, stdout=stdout,
                        check=check, timeout=timeout)

    # -- pods ------------------------------------------------------------

    def play_kube(self, yaml_path, start=True):
        self.run('play', 'kube', '--start=%s' % str(start).lower(),
                 yaml_path)

    def pod_exists(self, name):
        return self._ok('pod', 'exists', name)

    def pod_containers(self, pod):
        """{container name: (status, exit code)} of the pod's containers."""
        result = self.run('ps', '-a', '--filter', 'pod=%s' % pod,
                          '--format', 'json', check=False)
        if result.returncode != 0:
            return {}
        states = {}
        for ctr in json.loads(result.stdout or b'[]') or []:
            if ctr.get('IsInfra'):
                continue
            names = ctr.get('Names') or []
            name = names[0] if names else ctr.get('Id')
            states[name] = (ctr.get('State'), ctr.get('ExitCode') or 0)
        return states

    def pod_remove(self, name):
        """Kill and remove the pod and all its containers, at once.

        Callers stop Heat gracefully and dump first; what is left (MariaDB,
        RabbitMQ) keeps nothing worth a graceful stop.
        """
        self.run('pod', 'rm', '-f', '--ignore', '-t', '0', name, timeout=120)
