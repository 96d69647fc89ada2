"""Ports, and readiness checks that share one deadline."""

import errno
import http.client
import socket
import time
import urllib.error
import urllib.request

import tenacity

from tripleo_ephemeral import exceptions


def free_port(host='127.0.0.1'):
    """A port nothing listens on now (the kernel's choice)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def check_port_free(host, port):
    """Raise PortInUseError when ``host:port`` cannot be bound."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise port_in_use_error(host, port)
        raise exceptions.LauncherError(
            'Cannot listen on %s:%d: %s' % (host, port, exc.strerror))
    finally:
        sock.close()


def port_in_use_error(host, port):
    return exceptions.PortInUseError(
        'Port %d on %s is already in use; choose another with '
        '--heat-api-port or stop what listens there' % (port, host))


class Deadline:
    """One deadline for every wait of a start-up."""

    def __init__(self, seconds, clock=time.monotonic):
        self.seconds = seconds
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self):
        return max(0.0, self._end - self._clock())

    def expired(self):
        return self.remaining() <= 0


def http_answers(url, timeout=2.0):
    """True once anything at ``url`` answers HTTP (any status)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, ConnectionError, TimeoutError,
            http.client.HTTPException, OSError):
        return False


def wait_until(check, deadline, *, what, still_alive=None, interval=0.1):
    """Poll ``check()`` until it is true or the deadline passes.

    ``still_alive()`` is called between polls and may raise (for example
    :class:`ProcessExitedError`) to fail at once instead of waiting out the
    deadline.
    """
    def _poll():
        if still_alive is not None:
            still_alive()
        return check()

    retrying = tenacity.Retrying(
        retry=tenacity.retry_if_result(lambda ok: not ok),
        stop=tenacity.stop_after_delay(deadline.remaining()),
        wait=tenacity.wait_fixed(interval),
        retry_error_callback=lambda state: False,
        reraise=True)
    if not retrying(_poll):
        raise exceptions.StartupTimeoutError(
            '%s did not become ready within %ds' % (what, deadline.seconds))
