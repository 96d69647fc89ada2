"""The test pause: hold a command at a chosen activity, to signal it there.

``TRIPLEO_EPHEMERAL_TEST_PAUSE="<words>=<seconds>"`` pauses at the start
of every activity (:func:`tripleo_ephemeral.interruption.activity`) whose
name contains <words> (e.g. "saving the stack outputs=30"). The hook lives
here, not in the production code: a unit test installs it
(:func:`install`); a functional test runs the real command with
:func:`env`, whose ``PYTHONPATH`` loads ``pause_site/sitecustomize.py``,
which installs it in that process.
"""

import os
import time

from tripleo_ephemeral import interruption

PAUSE_ENV = 'TRIPLEO_EPHEMERAL_TEST_PAUSE'
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


def uninstall():
    interruption.remove_activity_hook(pause)


def env(spec, base=None):
    """Environment variables that pause a command run with them at
    ``spec`` ("<words>=<seconds>")."""
    path = (base or os.environ).get('PYTHONPATH')
    dirs = [SITE_DIR, path] if path else [SITE_DIR]
    return {PAUSE_ENV: spec, 'PYTHONPATH': os.pathsep.join(dirs)}
