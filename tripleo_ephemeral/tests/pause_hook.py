"""The test pause: hold a command at a chosen activity, to signal it there.

``TRIPLEO_EPHEMERAL_TEST_PAUSE="<words>=<seconds>"`` pauses at the start
of every activity (:func:`tripleo_ephemeral.interruption.activity`) whose
name contains <words> (e.g. "saving the stack outputs=30"). The hook lives
here, not in the production code: a unit test installs it
(:func:`install`); a functional test runs the real command with
:func:`env`, whose ``PYTHONPATH`` loads ``pause_site/sitecustomize.py``,
which installs it in that process.

``TRIPLEO_EPHEMERAL_TEST_PAUSE_WRITING="<name>=<seconds>"`` pauses
instead once :func:`tripleo_ephemeral.fileutil.atomic_open` has made the
temporary file of a file whose name starts with <name>: a test kills a
command while it writes, whatever the machine's load.
"""

import contextlib
import os
import time

from tripleo_ephemeral import fileutil
from tripleo_ephemeral import interruption

PAUSE_ENV = 'TRIPLEO_EPHEMERAL_TEST_PAUSE'
WRITING_ENV = 'TRIPLEO_EPHEMERAL_TEST_PAUSE_WRITING'
SITE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'pause_site')


def pause(what):
    """The activity hook: sleep if ``what`` holds the words."""
    words, _, seconds = os.environ.get(PAUSE_ENV, '').rpartition('=')
    if words and words in what:
        interruption.say('Pausing %ss at: %s (%s)' % (seconds, what,
                                                      PAUSE_ENV))
        time.sleep(float(seconds))


def install():
    interruption.add_activity_hook(pause)


def install_writing():
    """Pause in :func:`fileutil.atomic_open` as ``WRITING_ENV`` says."""
    name, _, seconds = os.environ[WRITING_ENV].rpartition('=')
    opened = fileutil.atomic_open

    @contextlib.contextmanager
    def atomic_open(path, *args, **kwargs):
        with opened(path, *args, **kwargs) as f:
            if os.path.basename(path).startswith(name):
                interruption.say('Pausing %ss while writing %s (%s)' % (
                    seconds, path, WRITING_ENV))
                time.sleep(float(seconds))
            yield f

    fileutil.atomic_open = atomic_open


def uninstall():
    interruption.remove_activity_hook(pause)


def env(spec, base=None, writing=False):
    """Environment variables that pause a command run with them at
    ``spec`` ("<words>=<seconds>"; ``writing``: "<file name>=<seconds>",
    once its temporary file is made)."""
    path = (base or os.environ).get('PYTHONPATH')
    dirs = [SITE_DIR, path] if path else [SITE_DIR]
    return {WRITING_ENV if writing else PAUSE_ENV: spec,
            'PYTHONPATH': os.pathsep.join(dirs)}
