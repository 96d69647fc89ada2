"""Ctrl-C, SIGTERM and SIGHUP in a command: stop in order, or at once.

The signal handling itself is :mod:`tripleo_ephemeral.interruption`; this
turns its ends into the one-line error the user sees.
"""

import contextlib

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import interruption
from tripleo_ephemeral import progress


@contextlib.contextmanager
def stop_in_order(what, out=None):
    """Handle signals while the block runs; ``what`` names what a stop
    stops, ``out`` is where progress goes (the command's stderr)."""
    ctl = interruption.Controller(
        progress.channel(out) if out is not None else None)
    with ctl.installed():
        try:
            yield ctl
        except interruption.ForcedStop as exc:
            raise osc_exceptions.CommandError(
                _('Stopped at once (%(signal)s twice): what %(what)s had '
                  'started was killed, without a dump; the last good dump '
                  'is kept') % {
                    'signal': interruption.signal_name(exc.signum),
                    'what': what})
        except KeyboardInterrupt as exc:
            signum = getattr(exc, 'signum', None)
            raise osc_exceptions.CommandError(
                _('Interrupted (%(signal)s): %(what)s was stopped and '
                  'cleaned up') % {
                    'signal': interruption.signal_name(signum)
                    if signum else 'SIGINT', 'what': what})
