"""The README's quick start, deploy.rst and day2.rst, run as printed on
tripleo-heat-templates (opt-in: ``TRIPLEO_EPHEMERAL_THT=1``).

The same run as ``test_docs_run.py``, with ``--templates`` meaning THT
18.0.0: the blocks naming ``$THT`` run too (isolated networks, three
Controllers, more roles, Standalone), the blocks marked ``sample-only``
(THT's tasks need RHEL servers) do not, and those marked ``stack-only``
render only. About 15 minutes on 2 cores.
"""

import os

import pytest

from tripleo_ephemeral.tests.functional import docs_run

pytestmark = pytest.mark.skipif(
    os.environ.get('TRIPLEO_EPHEMERAL_THT') != '1',
    reason='THT 18.0.0 (TRIPLEO_EPHEMERAL_THT=1)')


def test_the_pages_run_as_printed_on_tht(tmp_path, page_servers):
    home = docs_run.run_pages(tmp_path, page_servers, 'tht')
    for name in ('isolated', 'ha', 'roles', 'standalone-role'):
        assert (home / 'overcloud-deploy' / name).is_dir(), name
    assert not (home / 'overcloud-deploy' / 'overcloud').exists()
