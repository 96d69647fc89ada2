"""Upstream's facts the kit depends on, read from ``upstream.yaml``.

Each fact names the text it was read from (repository, commit, path and
lines): the variables and services the procedures set for adopted nodes,
the procedure's documents in order, and the rules only the webhooks and
IPAM enforce. The report cites these :class:`~.steps.Source`\\ s;
``tests/unit/rhoso/test_upstream.py`` builds an export and fails when the
kit misses a fact.
"""

import functools
import importlib.resources

from tripleo_ephemeral.overcloud import yamlfile
from tripleo_ephemeral.rhoso import steps

PACKAGE = 'tripleo_ephemeral.rhoso'
FILE = 'upstream.yaml'


@functools.lru_cache(maxsize=None)
def facts():
    """The parsed ``upstream.yaml``."""
    text = importlib.resources.files(PACKAGE).joinpath(FILE).read_text()
    return yamlfile.loads(text, strict=True, limits=yamlfile.OWN)


def source(name, lines=''):
    """The :class:`~.steps.Source` of source ``name`` (``compute``,
    ``networker``...) at ``lines``."""
    found = facts()['sources'][name]
    return steps.Source(found['repository'], found['revision'],
                        found['path'], str(lines))


def variable_lines(name, kind):
    """Where the ``kind`` (compute, networker) procedure sets Ansible
    variable ``name``: ``Source`` or None."""
    for fact in facts()['variables']:
        if fact['name'] == name and kind in fact['nodesets']:
            return source(kind, fact['nodesets'][kind])
    return None
