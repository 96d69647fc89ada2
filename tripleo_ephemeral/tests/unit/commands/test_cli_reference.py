"""doc/source/reference/cli.rst lists every command setup.cfg registers."""

import configparser
import fnmatch
import os
import re

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))
CLI_RST = os.path.join(REPO, 'doc', 'source', 'reference', 'cli.rst')
GROUP = 'openstack.tripleo_ephemeral.v1'


@pytest.mark.skipif(not os.path.isfile(CLI_RST),
                    reason='needs a source checkout (doc/)')
def test_every_command_is_in_the_reference():
    setup = configparser.ConfigParser()
    setup.read(os.path.join(REPO, 'setup.cfg'))
    commands = [line.split('=')[0].strip().replace('_', ' ')
                for line in setup['options.entry_points'][GROUP].splitlines()
                if line.strip()]
    with open(CLI_RST) as f:
        patterns = re.findall(r':command: (.+)', f.read())
    missing = [c for c in commands
               if not any(fnmatch.fnmatch(c, p.strip()) for p in patterns)]
    assert missing == [], 'add them to doc/source/reference/cli.rst'
