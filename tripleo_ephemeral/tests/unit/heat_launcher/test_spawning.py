"""Heat started ahead while a deploy checks its inputs
(:meth:`~tripleo_ephemeral.heat_launcher.spawning.Spawner.spawn`)."""

import os

import pytest

from tripleo_ephemeral.deploy import deployment
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.heat_launcher import readiness
from tripleo_ephemeral.tests.unit import fakes


class EarlyLauncher(fakes.FakeLauncher):
    spawns_early = True

    def __init__(self, heat_dir, **kw):
        super().__init__(heat_dir, **kw)
        self.waits = 0

    def wait_until_ready(self, saved=None):
        self.waits += 1
        # Heat makes its database as it starts.
        open(self.database.path, 'w').close()


@pytest.fixture
def launcher(tmp_path, monkeypatch):
    monkeypatch.setattr(readiness, 'check_port_free', lambda h, p: None)
    return EarlyLauncher(str(tmp_path / 'heat'))


def test_start_waits_for_the_spawned_heat_without_launching_again(launcher):
    assert launcher.spawner.spawn(tied=True)
    assert launcher.calls == ['launch', 'watchdog'] and launcher.waits == 0
    launcher.start(tied=True)
    assert launcher.calls == ['launch', 'watchdog'] and launcher.waits == 1
    assert launcher.is_running()


def test_unspawn_kills_without_a_dump_and_leaves_no_database(launcher):
    assert launcher.spawner.spawn()
    open(launcher.database.path, 'w').write('x')
    launcher.spawner.unspawn()
    assert not launcher.is_running() and 'terminate' not in launcher.calls
    assert not os.path.exists(launcher.database.path)
    assert launcher.dumps.all() == []
    launcher.start()  # launches again, from the start
    assert launcher.calls.count('launch') == 2


@pytest.mark.parametrize('why', ['database', 'running', 'type'])
def test_nothing_is_spawned_where_it_could_change_state(launcher, why):
    os.makedirs(launcher.heat_dir)
    if why == 'database':  # a crash's database: its recovery dumps it
        open(launcher.database.path, 'w').write('x')
    elif why == 'running':  # a Heat left running: its stop dumps it
        launcher.state.save(running=True, pid=1)
    else:
        launcher.spawns_early = False
    assert launcher.spawner.spawn() is False
    assert launcher.calls == []


def test_a_bad_input_kills_the_heat_starting_and_dumps_nothing(
        tmp_path, launcher, monkeypatch):
    dep = deployment.Deployment(
        fakes.deploy_inputs('oc', str(tmp_path / 'work')))
    launcher.heat_dir = dep.workdir.heat_dir
    launcher.__init__(dep.workdir.heat_dir)

    def prepare(say):
        assert launcher.is_running()  # starting meanwhile
        raise exceptions.DeployedServersError('servers file: bad')
    monkeypatch.setattr(dep.inputs, 'prepare', prepare)
    with pytest.raises(exceptions.DeployedServersError):
        dep.run(launcher)
    assert launcher.calls == ['launch', 'watchdog', 'kill']
    assert not launcher.is_running() and launcher.dumps.all() == []
    assert not os.path.exists(dep.workdir.path)  # rolled back whole
    assert dep.workdir.status() is None


def test_a_good_deploy_waits_for_the_heat_it_started(tmp_path, launcher,
                                                     monkeypatch):
    dep = deployment.Deployment(
        fakes.deploy_inputs('oc', str(tmp_path / 'work')))
    launcher.__init__(dep.workdir.heat_dir)

    def prepare(say):
        launcher.calls.append('prepare')
        return _request()
    monkeypatch.setattr(dep.inputs, 'prepare', prepare)
    monkeypatch.setattr(deployment.heat_phase.HeatPhase, 'run',
                        _stop_at_the_launch)
    with pytest.raises(_Launched):
        dep.run(launcher)
    assert launcher.calls[:3] == ['launch', 'watchdog', 'prepare']
    assert launcher.calls.count('launch') == 1 and launcher.waits == 1


class _Launched(Exception):
    pass


def _stop_at_the_launch(self, launcher, request, keep_running, **kw):
    launcher.start(tied=True)
    raise _Launched()


def _request():
    from tripleo_ephemeral.deploy import prepared
    return prepared.PreparedInputs({}, None, {})


def _snapshot(path):
    found = {}
    for root, dirs, files in os.walk(path):
        for name in files:
            if name == '.tripleo-ephemeral.lock':
                continue
            full = os.path.join(root, name)
            with open(full, 'rb') as f:
                found[os.path.relpath(full, path)] = (
                    f.read(), os.stat(full).st_mtime_ns)
    return found


def test_a_bad_input_leaves_an_existing_heat_dir_as_it_was(
        tmp_path, launcher, monkeypatch):
    dep = deployment.Deployment(
        fakes.deploy_inputs('oc', str(tmp_path / 'work')))
    wd = dep.workdir.create()
    launcher.__init__(wd.heat_dir)
    os.makedirs(launcher.files.log_dir)
    with open(os.path.join(launcher.files.log_dir, 'heat.log'), 'w') as f:
        f.write('the last deploy\n')
    launcher.prepare()  # the last deploy's heat.conf and the rest
    before = _snapshot(wd.path)
    launched = launcher._launch

    def launch():  # Heat appends to its log in place, and makes its db
        with open(os.path.join(launcher.files.log_dir, 'heat.log'),
                  'a') as f:
            f.write('starting\n')
        return launched()
    monkeypatch.setattr(launcher, '_launch', launch)

    def prepare(say):
        raise exceptions.DeployedServersError('servers file: bad')
    monkeypatch.setattr(dep.inputs, 'prepare', prepare)
    with pytest.raises(exceptions.DeployedServersError):
        dep.run(launcher)
    assert launcher.calls == ['launch', 'watchdog', 'kill']
    assert _snapshot(wd.path) == before
