"""Loaded by a Python started with tests/pause_hook.env(): install the
test pause in that process (a command under a functional test)."""

import os

if os.environ.get('TRIPLEO_EPHEMERAL_TEST_PAUSE'):
    from tripleo_ephemeral.tests import pause_hook

    pause_hook.install()
if os.environ.get('TRIPLEO_EPHEMERAL_TEST_PAUSE_WRITING'):
    from tripleo_ephemeral.tests import pause_hook

    pause_hook.install_writing()
