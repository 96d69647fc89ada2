"""Library errors become the one-line CommandError a user sees."""

import contextlib

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import exceptions


@contextlib.contextmanager
def user_errors(dir_option):
    """Convert library and file-system errors; ``dir_option`` is the fix."""
    try:
        yield
    except exceptions.TripleoEphemeralError as exc:
        raise osc_exceptions.CommandError(str(exc))
    except OSError as exc:
        raise osc_exceptions.CommandError(
            _('Cannot write %(path)s: %(error)s; choose a writable '
              '%(option)s or free space there') % {
                'path': exc.filename or '', 'error': exc.strerror or exc,
                'option': dir_option})
