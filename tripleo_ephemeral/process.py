"""The one seam through which the project runs other programs.

The launchers (podman, the heat-all runner, MariaDB tools), the image
builder and the agent's ``ssh`` all run through :class:`ProcessRunner`;
nothing else in the project calls :mod:`subprocess`. Tests replace it with
a fake that records each argv.
"""

import logging
import os
import signal
import subprocess
import sys

from tripleo_ephemeral import exceptions

LOG = logging.getLogger(__name__)


class ProcessRunner:
    """Run commands (argv lists, never shell strings)."""

    def run(self, argv, *, check=True, timeout=None, input=None, env=None,
            stdout=None, tied=False):
        """Run ``argv`` to completion and return its CompletedProcess.

        ``stdout`` may be an open file to stream output into instead of
        capturing it. The program runs in a session of its own: a Ctrl-C or
        a hang-up at the terminal reaches only the command, which stops in
        order (a podman command in the middle of a dump is not cut short);
        if the command is interrupted while it waits, or the timeout
        passes, the program and every process it started in its session
        are killed. ``tied``: it is also killed if this process dies
        without a word (SIGKILL), so nothing goes on writing for a command
        that is gone (pip into a venv).
        """
        LOG.debug('Running %s', argv)
        try:
            proc = subprocess.Popen(
                _tied(argv) if tied else argv, env=env,
                stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
                stdout=stdout if stdout is not None else subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True)
        except FileNotFoundError as exc:
            raise exceptions.CommandNotFoundError(
                '%s: command not found' % argv[0]) from exc
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            _kill_session(proc)
            raise exceptions.CommandFailedError(
                '%s timed out after %ss' % (argv[0], timeout)) from exc
        except BaseException:  # interrupted: nothing of it keeps running
            _kill_session(proc)
            raise
        result = subprocess.CompletedProcess(argv, proc.returncode, out, err)
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


def _kill_session(proc):
    """Kill ``proc`` and what it started in its session (its process
    group: it leads one), and reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.kill()
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()


#: Runs a tied program (``python -c _TIED <pid> argv...``): it leads the
#: session :meth:`ProcessRunner.run` makes, asks Linux for SIGTERM when its
#: parent dies (PR_SET_PDEATHSIG), and then kills the whole session, the
#: program's own children included (ensurepip under venv, pip's builds).
_TIED = """
import ctypes, os, signal, subprocess, sys
signal.signal(signal.SIGTERM, lambda *_: os.killpg(0, signal.SIGKILL))
try:
    ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    os.killpg(0, signal.SIGKILL)
try:
    sys.exit(subprocess.call(sys.argv[2:]))
except FileNotFoundError as exc:
    sys.exit('%s: command not found' % exc.filename)
"""


def _tied(argv):
    return [sys.executable, '-c', _TIED, str(os.getpid())] + list(argv)


def _last_line(data):
    if isinstance(data, bytes):
        data = data.decode('utf-8', 'replace')
    lines = [line for line in (data or '').splitlines() if line.strip()]
    return lines[-1].strip() if lines else 'no error output'
