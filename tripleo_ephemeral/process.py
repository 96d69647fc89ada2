"""The one seam through which the project runs other programs.

The launchers (podman, the heat-all runner, MariaDB tools), the image
builder and the agent's ``ssh`` all run through :class:`ProcessRunner`;
nothing else in the project calls :mod:`subprocess`. Tests replace it with
a fake that records each argv.
"""

import logging
import os
import subprocess

from tripleo_ephemeral import exceptions

LOG = logging.getLogger(__name__)


class ProcessRunner:
    """Run commands (argv lists, never shell strings)."""

    def run(self, argv, *, check=True, timeout=None, input=None, env=None,
            stdout=None):
        """Run ``argv`` to completion and return its CompletedProcess.

        ``stdout`` may be an open file to stream output into instead of
        capturing it. The program runs in a session of its own: a Ctrl-C or
        a hang-up at the terminal reaches only the command, which stops in
        order (a podman command in the middle of a dump is not cut short);
        if the command is interrupted while it waits, the program is killed.
        """
        LOG.debug('Running %s', argv)
        try:
            result = subprocess.run(
                argv, input=input, timeout=timeout, env=env,
                stdin=subprocess.DEVNULL if input is None else None,
                stdout=stdout if stdout is not None else subprocess.PIPE,
                stderr=subprocess.PIPE, check=False, start_new_session=True)
        except FileNotFoundError as exc:
            raise exceptions.CommandNotFoundError(
                '%s: command not found' % argv[0]) from exc
        except subprocess.TimeoutExpired as exc:
            raise exceptions.CommandFailedError(
                '%s timed out after %ss' % (argv[0], timeout)) from exc
        if check and result.returncode != 0:
            raise exceptions.CommandFailedError(
                '%s exited %d: %s' % (argv[0], result.returncode,
                                      _last_line(result.stderr)))
        return result

    def spawn(self, argv, *, log_path, env=None):
        """Start ``argv`` in its own session, detached from the terminal.

        Its output goes to ``log_path``. A new session keeps a Ctrl-C at
        the terminal from reaching it: the launcher stops it in order.
        """
        LOG.debug('Starting %s', argv)
        fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            return subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=fd, stderr=fd,
                env=env, start_new_session=True, close_fds=True)
        finally:
            os.close(fd)


def _last_line(data):
    if isinstance(data, bytes):
        data = data.decode('utf-8', 'replace')
    lines = [line for line in (data or '').splitlines() if line.strip()]
    return lines[-1].strip() if lines else 'no error output'
