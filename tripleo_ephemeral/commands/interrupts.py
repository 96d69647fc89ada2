"""Ctrl-C and SIGTERM: stop in order, once.

The first SIGINT or SIGTERM raises KeyboardInterrupt where the command is;
its ``finally`` blocks then stop Heat, dump the database and write the
status. Further signals are ignored so that clean-up is not cut short.
"""

import contextlib
import signal

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def stop_in_order(what):
    def _handler(signum, _frame):
        for sig in _SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        raise KeyboardInterrupt(signum)

    previous = {sig: signal.signal(sig, _handler) for sig in _SIGNALS}
    try:
        yield
    except KeyboardInterrupt:
        raise osc_exceptions.CommandError(
            _('Interrupted: %s was stopped and cleaned up') % what)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
