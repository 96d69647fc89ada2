"""`tripleo saved output show`: the outputs summarised in a table, whole
with --long, -f json or one output named."""

import io
import json
import os

from osc_lib.test import base as osc_base

from tripleo_ephemeral.commands import saved_output
from tripleo_ephemeral import workdir as workdir_mod
from tripleo_ephemeral.workdir import claim

LONG = {'host': 'overcloud-novacompute-0', 'more': list(range(40))}


class Commands(osc_base.TestCommand):
    __test__ = False

    def __init__(self):
        super().__init__('run')
        self.setUp()

    def output(self, args):
        self.app.stdout = io.StringIO()
        cmd = saved_output.ShowSavedOutput(self.app, None)
        cmd.run(self.check_parser(cmd, args, []))
        return self.app.stdout.getvalue()


def _work_dir(tmp_path, monkeypatch):
    monkeypatch.setenv('HOME', str(tmp_path))
    workdir = workdir_mod.WorkDir(str(tmp_path / 'wd'), 'oc')
    os.makedirs(workdir.outputs_dir)
    workdir.save(workdir.outputs_file, {'Map': LONG, 'Vip': '192.0.2.2'})
    claim.add(workdir.path, 'oc')
    return ['--work-dir', workdir.path, '--stack', 'oc']


def test_a_table_summarises_and_long_shows_whole(tmp_path, monkeypatch):
    args = _work_dir(tmp_path, monkeypatch)
    table = Commands().output(args)
    assert max(len(line) for line in table.splitlines()) <= 100, table
    assert '(--long)' in table and '192.0.2.2' in table
    assert str(LONG) in ' '.join(Commands().output(args + ['--long']).split())
    assert json.loads(Commands().output(args + ['-f', 'json'])) == {
        'Map': LONG, 'Vip': '192.0.2.2'}
    one = json.loads(Commands().output(args + ['Map', '-f', 'json']))
    assert one == {'output_key': 'Map', 'output_value': LONG}
