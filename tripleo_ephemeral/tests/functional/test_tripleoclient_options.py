"""Every option of tripleoclient 20.0.0's parsers, for the commands this
project has, is taken here: with tripleoclient's meaning, as a documented
no-op, or refused with one line (tools/compat/tripleoclient_parsers.py).

tripleoclient's own parsers are built from its sdist, downloaded once
into ~/.cache/tripleo-ephemeral (``pip download``; skipped when PyPI cannot
be reached and nothing is cached).
"""

import importlib.util
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
TOOL = os.path.join(REPO, 'tools', 'compat', 'tripleoclient_parsers.py')

pytestmark = pytest.mark.skipif(not os.path.isfile(TOOL),
                                reason='needs a source checkout (tools/)')


@pytest.fixture(scope='module')
def tool():
    spec = importlib.util.spec_from_file_location('tripleoclient_parsers',
                                                  TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='module')
def theirs(tool):
    try:
        src = tool.source()
    except subprocess.CalledProcessError as exc:
        pytest.skip('python-tripleoclient %s could not be downloaded: %s' %
                    (tool.VERSION, exc))
    # The sdist's egg-info on sys.path makes tripleoclient look installed
    # to importlib.metadata, and the tool's stubs answer imports: both are
    # taken back so the tests after these see this process as it was.
    path, meta_path = list(sys.path), list(sys.meta_path)
    modules = set(sys.modules)
    try:
        yield tool.tripleoclient_options(src)
    finally:
        sys.path[:], sys.meta_path[:] = path, meta_path
        for name in set(sys.modules) - modules:
            if name.split('.')[0] in tool.STUBBED + ('tripleoclient',):
                del sys.modules[name]


def test_every_tripleoclient_option_is_covered(tool, theirs):
    assert len(theirs['overcloud deploy']) >= 58  # the walk found them
    missing = tool.uncovered(theirs, tool.our_parsers())
    assert missing == [], '\n'.join('%s %s: %s' % m for m in missing)


def test_the_ones_operators_hit_are_not_abbreviations(tool):
    """--deployed-server was taken as --deployed-servers, --config-download
    was ambiguous: each is an option of its own now."""
    parser = tool.our_parsers()['overcloud deploy']
    for option in ('--deployed-server', '--config-download', '--ntp-server',
                   '--disable-password-generation', '--no-cleanup'):
        assert option in parser._option_string_actions, option
