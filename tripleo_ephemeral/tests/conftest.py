"""Fixtures shared by every test, and the order the workers take them in."""

import os

import pytest

#: Seconds the slowest tests took in a CI run of the whole suite
#: (``<seconds> <node id>`` per line, from ``--durations``); any other
#: functional test counts as FUNCTIONAL_GUESS, a unit test as UNIT_GUESS.
DURATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         'durations.txt')
FUNCTIONAL_GUESS = 30.0
UNIT_GUESS = 0.2


def _durations():
    found = {}
    if not os.path.exists(DURATIONS):
        return found
    with open(DURATIONS) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                seconds, node = line.split()
                found[node] = float(seconds)
    return found


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist: each worker's share (a contiguous part of the
    collection, the rest stolen from its end) starts with its longest
    tests, the tests dealt by cost in turn, so that no long test starts
    last and runs alone at the end."""
    workers = int(os.environ.get('PYTEST_XDIST_WORKER_COUNT', '0'))
    if workers < 2:
        return
    known = _durations()

    def cost(item):
        if any(m.args and m.args[0] is True
               for m in item.iter_markers('skipif')):
            return 0.0  # opt-in, not asked for
        return known.get(item.nodeid, FUNCTIONAL_GUESS if '/functional/'
                         in item.nodeid else UNIT_GUESS)

    shares = [[] for _ in range(workers)]
    for rank, item in enumerate(sorted(items, key=cost, reverse=True)):
        shares[rank % workers].append(item)
    items[:] = [item for share in shares for item in share]


@pytest.fixture(scope='session')
def tht_dir(tmp_path_factory):
    """tripleo-heat-templates 18.0.0: the installed copy, else one the
    session downloads itself (``python3 tools/dev.py test`` installs them
    into the venv first, so that is a one-time cost)."""
    from tripleo_ephemeral import exceptions
    from tripleo_ephemeral import process
    from tripleo_ephemeral import tht

    try:
        path = tht.find()
        if tht.installed_version(path) in (None, tht.VERSION):
            return path
    except exceptions.TemplatesNotFoundError:
        pass
    dest = tmp_path_factory.mktemp('tht') / tht.DIR_NAME
    path, _ = tht.install(process.ProcessRunner(), dest=str(dest))
    return path
