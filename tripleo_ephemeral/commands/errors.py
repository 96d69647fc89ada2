"""Library errors become the one-line CommandError a user sees.

The errors themselves live in :mod:`tripleo_ephemeral.exceptions`; this is
only the conversion, the one place a command turns them into
``CommandError``. A library error names the input; where the fix is a
command-line option, the command adds it here (``fixes``).
"""

import contextlib
import shutil

from osc_lib import exceptions as osc_exceptions

from tripleo_ephemeral._i18n import _
from tripleo_ephemeral import exceptions


def _stop_heat(exc):
    return _('stop it with "openstack tripleo launch heat --heat-dir '
             '%s --kill"') % exc.heat_dir


#: The fix of a library error, for every command: its class -> the text,
#: or a function of the error giving it.
FIXES = {exceptions.AlreadyRunningError: _stop_heat}


def _with_fix(exc, fixes):
    for cls, fix in list((fixes or {}).items()) + list(FIXES.items()):
        if isinstance(exc, cls):
            return '%s; %s' % (exc, fix(exc) if callable(fix) else fix)
    return str(exc)


@contextlib.contextmanager
def user_errors(dir_option, failed=None, fixes=None):
    """Convert library and file-system errors; ``dir_option`` is the fix.

    ``failed`` (e.g. "Building the Heat image") prefixes library errors as
    "<failed> failed: <error>". ``fixes`` (error class -> text) adds the
    command's own fix to an error, before :data:`FIXES`.
    """
    try:
        yield
    except exceptions.TripleoEphemeralError as exc:
        message = _with_fix(exc, fixes)
        if failed:
            raise osc_exceptions.CommandError(
                _('%(failed)s failed: %(error)s') % {'failed': failed,
                                                     'error': message})
        raise osc_exceptions.CommandError(message)
    except OSError as exc:
        path, error = failed_path(exc)
        message = _('Cannot write %(path)s: %(error)s; choose a writable '
                    '%(option)s or free space there') % {
                        'path': path or _('in %s') % dir_option,
                        'error': error, 'option': dir_option}
        cause = exc.__context__
        if isinstance(cause, exceptions.TripleoEphemeralError):
            # Recording a failure failed too (a full disk): the failure
            # comes first.
            message = _('%(error)s (then: %(write)s)') % {
                'error': _with_fix(cause, fixes), 'write': message}
        raise osc_exceptions.CommandError(message)


def failed_path(exc):
    """``(path, reason)`` of a failed write: shutil's copies raise one
    error listing every file (source, destination, reason)."""
    if isinstance(exc, shutil.Error) and exc.args and \
            isinstance(exc.args[0], list) and exc.args[0]:
        _src, dst, why = exc.args[0][0]
        return dst, str(why).split(': ', 1)[0].split('] ', 1)[-1]
    return exc.filename, exc.strerror or str(exc)
