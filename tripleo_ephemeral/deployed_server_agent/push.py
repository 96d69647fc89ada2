"""Putting os-collect-config.conf on a server over SSH and restarting it.

One ``ssh`` per server through :mod:`tripleo_ephemeral.process`
(the project's only subprocess seam): the file arrives on stdin, is moved
into place with ``sudo -n`` and the agent's restart command runs, as the
guide's get-occ-config.sh did.
"""

import os
import shlex

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import process

REMOTE_CONFIG = '/etc/os-collect-config.conf'
DEFAULT_RESTART = 'systemctl restart os-collect-config'


def ssh_argv(host: str, user: str | None = None, key: str | None = None,
             known_hosts: str | None = None) -> list[str]:
    argv = ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=10',
            '-o', 'StrictHostKeyChecking=accept-new']
    if known_hosts:
        argv += ['-o', 'UserKnownHostsFile=%s' % known_hosts]
    if key:
        argv += ['-i', key]
    return argv + ['%s@%s' % (user, host) if user else host]


def remote_script(remote_path: str = REMOTE_CONFIG,
                  restart: str | None = DEFAULT_RESTART) -> str:
    """Shell run on the server: stdin becomes ``remote_path``."""
    path = shlex.quote(remote_path)
    tmp = shlex.quote(remote_path + '.new')
    directory = shlex.quote(os.path.dirname(remote_path) or '/')
    steps = ['set -e', 'sudo -n mkdir -p %s' % directory,
             'sudo -n sh -c %s' % shlex.quote(
                 'umask 077; cat > %s; mv %s %s' % (tmp, tmp, path))]
    if restart:
        steps.append('sudo -n sh -c %s' % shlex.quote(restart))
    return '; '.join(steps)


def push(host: str, conf_text: str, user: str | None = None,
         key: str | None = None, known_hosts: str | None = None,
         remote_path: str = REMOTE_CONFIG,
         restart: str | None = DEFAULT_RESTART,
         runner: process.ProcessRunner | None = None) -> None:
    """Write ``conf_text`` to ``remote_path`` on ``host``; run ``restart``."""
    runner = runner or process.ProcessRunner()
    argv = ssh_argv(host, user, key, known_hosts) + [
        remote_script(remote_path, restart)]
    try:
        runner.run(argv, input=conf_text.encode(), timeout=120)
    except exceptions.CommandFailedError as exc:
        raise exceptions.AgentPushError('%s: %s' % (host, exc))
