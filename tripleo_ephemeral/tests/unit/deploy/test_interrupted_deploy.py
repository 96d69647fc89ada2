"""Ctrl-C at the moments too short to hit with a real signal.

KeyboardInterrupt is what the commands' signal handler raises; here it is
raised at the chosen step of a real Deployment with a fake Heat.
"""

import os

import pytest

from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral.deploy import inputs
from tripleo_ephemeral.heat_launcher import database
from tripleo_ephemeral.heat_launcher import dumps
from tripleo_ephemeral.tests import heat_sqlite
from tripleo_ephemeral.tests.unit import fakes
from tripleo_ephemeral import workdir


class FakeLauncher(fakes.FakeLauncher):
    """Stops like a real one: Heat first, then the dump."""

    def __init__(self, heat_dir, interrupt_dump=False, **kw):
        super().__init__(heat_dir, **kw)
        self.interrupt_dump = interrupt_dump

    def session(self):
        return None

    def stop(self, dump=True):
        self.calls.append('stop')
        if self.interrupt_dump:
            self.alive = False
            raise KeyboardInterrupt
        return super().stop(dump=False)


@pytest.fixture
def run(tmp_path, monkeypatch):
    dep = deployment.Deployment(inputs.Inputs('oc', str(tmp_path / 'work')))
    monkeypatch.setattr(dep.inputs, 'prepare',
                        lambda say: inputs.Request({}, None, {}))
    monkeypatch.setattr(deployment.heat_client, 'make_client',
                        lambda session, endpoint: object())
    monkeypatch.setattr(deployment.stack_operation, 'run', lambda *a, **kw: (
        deployment.stack_operation.Created('x', 'CREATE_COMPLETE', 1.0, 1)))
    monkeypatch.setattr(deployment.stack_outputs, 'fetch_and_save',
                        lambda *a: ({}, []))
    monkeypatch.setattr(deployment.stack_outputs,
                        'fetch_and_save_environment', lambda *a: {})
    return dep


def _launcher(tmp_path, monkeypatch, **kw):
    from tripleo_ephemeral.heat_launcher import readiness
    monkeypatch.setattr(readiness, 'check_port_free', lambda h, p: None)
    monkeypatch.setattr(readiness, 'http_answers', lambda url: True)
    return FakeLauncher(workdir.WorkDir(str(tmp_path / 'work')).heat_dir,
                        **kw)


def _status(dep):
    return dep.workdir.status()


def test_ctrl_c_during_config_download(run, tmp_path, monkeypatch):
    launcher = _launcher(tmp_path, monkeypatch)

    def render(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(run, '_render', render)
    with pytest.raises(KeyboardInterrupt):
        run.run(launcher)
    assert 'stop' in launcher.calls and not launcher.alive
    assert _status(run) == 'DEPLOY_FAILED'
    assert run.workdir.archives()  # the state is kept


def test_ctrl_c_during_the_dump(run, tmp_path, monkeypatch):
    launcher = _launcher(tmp_path, monkeypatch, interrupt_dump=True)
    with pytest.raises(KeyboardInterrupt):
        run.run(launcher)
    assert not launcher.alive
    assert _status(run) == 'DEPLOY_FAILED'


def test_interrupted_dump_keeps_the_previous_one(tmp_path, monkeypatch):
    path = heat_sqlite.stack_db(tmp_path / 'heat.sqlite')
    db = database.SqliteDatabase(path)
    store = dumps.DumpStore(str(tmp_path))
    good = open(db.dump(store), 'rb').read()

    def interrupted(conn):
        yield 'BEGIN TRANSACTION;'
        raise KeyboardInterrupt

    monkeypatch.setattr(database.sqlite_dump, 'statements', interrupted)
    with pytest.raises(KeyboardInterrupt):
        db.dump(store)
    assert open(store.latest, 'rb').read() == good
    assert [n for n in os.listdir(tmp_path) if n.endswith('.tmp')] == []
    assert os.path.exists(path)  # not removed: the next start dumps it
