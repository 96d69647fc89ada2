"""The fast tier's guard (``tests/unit/conftest.py``): a unit test without
``@pytest.mark.starts_process`` starts no process."""

import multiprocessing
import os
import subprocess
import sys
import textwrap

import pytest

from tripleo_ephemeral import process
from tripleo_ephemeral.tests.unit import conftest


def test_every_way_to_start_a_process_is_refused(request):
    starts = {
        'subprocess': lambda: subprocess.run(['true']),
        'process.py': lambda: process.ProcessRunner().run(['true']),
        'os.popen': lambda: os.popen('true').close(),
        'os.system': lambda: os.system('true'),
        'os.fork': os.fork,
        'os.posix_spawn': lambda: os.posix_spawn('/bin/true', ['true'], {}),
        'os.execv': lambda: os.execv('/bin/true', ['true']),
        'multiprocessing': lambda: multiprocessing.get_context(
            'spawn').Process(target=print).start(),
    }
    for name, start in starts.items():
        with pytest.raises(conftest.ProcessStarted):
            start()
    # On record too, so that a refusal the code swallows fails the test;
    # this test meant them.
    assert len(request.node.stash[conftest._STARTED]) == len(starts)
    request.node.stash[conftest._STARTED] = []


@pytest.mark.starts_process
def test_a_swallowed_refusal_still_fails_and_a_marked_test_may(tmp_path):
    (tmp_path / 'conftest.py').write_text(
        'from tripleo_ephemeral.tests.unit.conftest import *  # noqa\n')
    (tmp_path / 'test_inner.py').write_text(textwrap.dedent('''\
        import subprocess

        import pytest


        def test_swallows():
            try:
                subprocess.run(['true'])
            except BaseException:
                pass


        @pytest.mark.starts_process
        def test_marked():
            subprocess.run(['true'], check=True)
        '''))
    proc = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'no:xdist', '-p',
         'no:cacheprovider', '-rf', str(tmp_path)], cwd=str(tmp_path),
        capture_output=True, text=True, timeout=300)
    assert '1 failed, 1 passed' in proc.stdout, proc.stdout + proc.stderr
    assert 'test_swallows started a process (Popen._execute_child) ' \
        'without @pytest.mark.starts_process' in proc.stdout
    fast = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'no:xdist', '-p',
         'no:cacheprovider', '-m', 'not starts_process', str(tmp_path)],
        cwd=str(tmp_path), capture_output=True, text=True, timeout=300)
    assert '1 failed, 1 deselected' in fast.stdout, fast.stdout
