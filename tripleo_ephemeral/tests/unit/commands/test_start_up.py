"""What loading the plugin's commands imports.

``openstack`` imports the module of every command of every plugin before
it runs one (cliff's CommandManager loads each entry point), so whatever a
command module imports at its top is paid by every command: the heavy
libraries wait until a command uses them (commands/__init__ says how).
Checked in a fresh interpreter, as ``openstack`` loads them.
"""

import json
import subprocess
import sys

import pytest

from tripleo_ephemeral import plugin

pytestmark = pytest.mark.starts_process

#: Loaded only by the commands that use them, when they run.
HEAVY = ('heat', 'oslo_db', 'sqlalchemy', 'yaql', 'jsonschema', 'jinja2',
         'ansible_runner', 'tripleo_common', 'passlib', 'pkg_resources',
         'heatclient.common.template_utils',
         'tripleo_ephemeral.deploy.pipeline',
         'tripleo_ephemeral.deploy.inputs',
         'tripleo_ephemeral.tripleoclient_adoption.adopt',
         'tripleo_ephemeral.rhoso.export',
         'tripleo_ephemeral.lifecycle.run')

_LOAD = '''
import json, sys
from importlib import metadata
import tripleo_ephemeral.plugin
before = set(sys.modules)
for ep in metadata.entry_points(group=%r):
    ep.load()
print(json.dumps(sorted(set(sys.modules) - before)))
''' % plugin.COMMAND_GROUP


def test_loading_every_command_imports_no_heavy_library():
    loaded = json.loads(subprocess.run(
        [sys.executable, '-c', _LOAD], check=True, capture_output=True,
        text=True, timeout=120).stdout)
    assert any(name.startswith('tripleo_ephemeral.commands.')
               for name in loaded)
    heavy = sorted(name for name in loaded
                   if any(name == h or name.startswith(h + '.')
                          for h in HEAVY))
    assert heavy == []
