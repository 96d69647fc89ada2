"""Ctrl-C at the moments too short to hit with a real signal.

KeyboardInterrupt is what the commands' signal handler raises; here it is
raised at the chosen step of a real Deployment with a fake Heat.
"""

import os

import pytest

from tripleo_ephemeral.archives import install_archives
from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral.deploy import heat_phase
from tripleo_ephemeral.deploy import prepared
from tripleo_ephemeral.heat_db import database
from tripleo_ephemeral.heat_db import dumps
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

    def stop(self, dump=True, origin=None):
        self.calls.append('stop')
        if self.interrupt_dump:
            self.alive = False
            raise KeyboardInterrupt
        return super().stop(dump=False)


@pytest.fixture
def run(tmp_path, monkeypatch):
    dep = deployment.Deployment(
        fakes.deploy_inputs('oc', str(tmp_path / 'work')))
    monkeypatch.setattr(
        dep.inputs, 'prepare',
        lambda say, phases=None: prepared.PreparedInputs({}, None, {}))
    monkeypatch.setattr(heat_phase.heat_client, 'make_client',
                        lambda session, endpoint: object())

    def create(*a, accepted, **kw):
        accepted()
        return heat_phase.stack_operation.Created('x', 'CREATE_COMPLETE',
                                                  1.0, 1)
    monkeypatch.setattr(heat_phase.stack_operation, 'run', create)
    monkeypatch.setattr(heat_phase.stack_outputs, 'fetch_and_save',
                        lambda *a: ({}, []))
    monkeypatch.setattr(heat_phase.stack_outputs,
                        'fetch_and_save_environment', lambda *a, **k: {})
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
    monkeypatch.setattr(deployment.rendering, 'render', render)
    with pytest.raises(KeyboardInterrupt):
        run.run(launcher)
    assert 'stop' in launcher.calls and not launcher.alive
    assert _status(run) == 'DEPLOY_FAILED'
    assert install_archives.Archives(run.workdir).all()  # the state is kept


def test_ctrl_c_during_the_dump(run, tmp_path, monkeypatch):
    launcher = _launcher(tmp_path, monkeypatch, interrupt_dump=True)
    with pytest.raises(KeyboardInterrupt):
        run.run(launcher)
    assert not launcher.alive
    assert _status(run) == 'DEPLOY_FAILED'


def test_ctrl_c_during_the_dump_keeps_the_last_config_download(
        run, tmp_path, monkeypatch):
    # The render runs while Heat stops: an interrupted stop discards it.
    wd = run.workdir.create()
    project = os.path.join(wd.config_download_dir, 'kept.yaml')
    os.makedirs(wd.config_download_dir)
    open(project, 'w').close()
    rendered = []
    monkeypatch.setattr(heat_phase.stack_outputs, 'fetch_and_save',
                        lambda *a: ({'RoleData': {}}, []))
    monkeypatch.setattr(deployment.rendering.config_download, 'render',
                        lambda outputs, dest, *a, **kw: rendered.append(
                            dest) or open(os.path.join(dest, 'new.yaml'),
                                          'w').close())
    launcher = _launcher(tmp_path, monkeypatch, interrupt_dump=True)
    with pytest.raises(KeyboardInterrupt):
        run.run(launcher)
    assert rendered  # it did render, ahead
    assert os.listdir(wd.config_download_dir) == ['kept.yaml']
    assert os.listdir(os.path.dirname(wd.config_download_dir)) == [
        os.path.basename(wd.config_download_dir)]


def test_interrupted_dump_keeps_the_previous_one(tmp_path, monkeypatch):
    path = heat_sqlite.stack_db(tmp_path / 'heat.sqlite')
    db = database.SqliteDatabase(path)
    store = dumps.DumpStore(str(tmp_path))
    good = open(db.dump(store), 'rb').read()

    def interrupted(conn):
        yield b'BEGIN TRANSACTION;'
        raise KeyboardInterrupt

    monkeypatch.setattr(database.sqlite_dump, 'statements', interrupted)
    with pytest.raises(KeyboardInterrupt):
        db.dump(store)
    assert open(store.latest, 'rb').read() == good
    assert [n for n in os.listdir(tmp_path) if n.endswith('.tmp')] == []
    assert os.path.exists(path)  # not removed: the next start dumps it


def _listing(path):
    return sorted(n for n in os.listdir(path) if not n.startswith('.'))


def test_bad_input_writes_nothing(tmp_path, monkeypatch):
    from tripleo_ephemeral import exceptions

    dep = deployment.Deployment(
        fakes.deploy_inputs('oc', str(tmp_path / 'work')))
    wd = dep.workdir.create()
    wd.set_status(workdir.DEPLOY_SUCCESS)
    before = _listing(wd.path)

    def prepare(say, phases=None):
        with open(wd.join('oc-deployed-servers.yaml'), 'w') as f:
            f.write('half')
        raise exceptions.DeployedServersError('servers file: bad')
    monkeypatch.setattr(dep.inputs, 'prepare', prepare)
    launcher = _launcher(tmp_path, monkeypatch)
    with pytest.raises(exceptions.DeployedServersError):
        dep.run(launcher)
    assert _listing(wd.path) == before
    assert wd.status() == workdir.DEPLOY_SUCCESS
    assert install_archives.Archives(wd).all() == [] and launcher.calls == []


def _request_setting(env_path, name):
    import yaml
    return prepared.PreparedInputs({
        'template': {'heat_template_version': 'wallaby',
                     'parameters': {'Known': {'type': 'string'}}},
        'files': {'file://%s' % env_path: yaml.safe_dump(
            {'parameter_defaults': {name: 1}})}}, None, {})


@pytest.mark.parametrize('strict', [False, True])
def test_undeclared_parameter_warns_or_fails(run, tmp_path, monkeypatch,
                                             strict):
    from tripleo_ephemeral import exceptions

    said = []
    run.inputs.request = run.request.replace(
        strict=strict, environment_files=('/e/typo.yaml',))
    monkeypatch.setattr(run, 'say', said.append)
    monkeypatch.setattr(
        run.inputs, 'prepare',
        lambda say, phases=None: _request_setting('/e/typo.yaml', 'Knwon'))
    launcher = _launcher(tmp_path, monkeypatch)
    if strict:
        with pytest.raises(exceptions.InputError, match='Knwon.*--strict'):
            run.run(launcher)
        assert launcher.calls == [] and run.workdir.status() is None
    else:
        from tripleo_ephemeral.deploy import rendering
        monkeypatch.setattr(rendering, 'render', lambda *a, **kw: '/cd')
        assert run.run(launcher).status == workdir.DEPLOY_SUCCESS
        assert any(s.startswith('WARNING: /e/typo.yaml sets Knwon')
                   for s in said)


def test_heat_failing_before_it_takes_the_stack_changes_nothing(
        run, tmp_path, monkeypatch):
    from tripleo_ephemeral import exceptions

    wd = run.workdir.create()
    wd.set_status(workdir.DEPLOY_SUCCESS)

    def crashed(*a, **kw):
        raise exceptions.DeployError('Heat crashed')
    monkeypatch.setattr(heat_phase.stack_operation, 'run', crashed)
    launcher = _launcher(tmp_path, monkeypatch)
    with pytest.raises(exceptions.DeployError):
        run.run(launcher)
    assert wd.status() == workdir.DEPLOY_SUCCESS
    assert install_archives.Archives(wd).all() == [] and \
        launcher.dumps.all() == []
    assert not launcher.alive
