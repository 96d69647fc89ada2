"""Library errors become the one-line CommandError a user sees.

The errors themselves live in :mod:`tripleo_ephemeral.exceptions`; this is
only the conversion, the one place a command turns them into
``CommandError``.
"""

import contextlib

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import exceptions


@contextlib.contextmanager
def user_errors(dir_option, failed=None):
    """Convert library and file-system errors; ``dir_option`` is the fix.

    ``failed`` (e.g. "Building the Heat image") prefixes library errors as
    "<failed> failed: <error>".
    """
    try:
        yield
    except exceptions.TripleoEphemeralError as exc:
        if failed:
            raise osc_exceptions.CommandError(
                _('%(failed)s failed: %(error)s') % {'failed': failed,
                                                     'error': exc})
        raise osc_exceptions.CommandError(str(exc))
    except OSError as exc:
        raise osc_exceptions.CommandError(
            _('Cannot write %(path)s: %(error)s; choose a writable '
              '%(option)s or free space there') % {
                'path': exc.filename or '', 'error': exc.strerror or exc,
                'option': dir_option})
