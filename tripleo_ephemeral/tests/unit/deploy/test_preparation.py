"""The removed-server warning is said only once every input passed; the
parts of preparing are booked to the deploy's phases."""

import pytest

from tripleo_ephemeral.deploy import pipeline
from tripleo_ephemeral.deploy import prepared
from tripleo_ephemeral.deploy import preparation
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import lap_clock
from tripleo_ephemeral.tests.unit import fakes


class _Launcher:
    def pre_start_check(self):
        pass


def _deployment(tmp_path, monkeypatch, said):
    dep = preparation.Preparation(fakes.deploy_inputs('oc', str(tmp_path)),
                                  said.append)
    monkeypatch.setattr(
        dep.inputs, 'prepare',
        lambda say, phases=None: prepared.PreparedInputs(
            {}, None, {}, removed=['WARNING: cmp-1 was removed']))
    return dep


def test_said_after_the_checks(tmp_path, monkeypatch):
    said = []
    dep = _deployment(tmp_path, monkeypatch, said)
    monkeypatch.setattr(dep, '_check_parameters', lambda args: None)
    dep.prepare(_Launcher(), None)
    assert said == ['WARNING: cmp-1 was removed']


def test_not_said_when_input_fails(tmp_path, monkeypatch):
    said = []
    dep = _deployment(tmp_path, monkeypatch, said)

    def bad(args):
        raise exceptions.InputError('X sets Y: fix it')
    monkeypatch.setattr(dep, '_check_parameters', bad)
    with pytest.raises(exceptions.InputError):
        dep.prepare(_Launcher(), None)
    assert said == []


def test_preparing_the_inputs_books_its_parts_to_the_phases(tmp_path):
    inputs = fakes.deploy_inputs('oc', str(tmp_path / 'work'))
    inputs.workdir.create()
    phases = lap_clock.Phases()
    inputs.prepare(lambda line: None, phases=phases)
    assert list(phases.values()) == ['templates', 'parameters',
                                     'environments']


def test_a_command_started_clock_books_the_request_first(tmp_path,
                                                         monkeypatch):
    phases = lap_clock.started()
    seen = []
    monkeypatch.setattr(pipeline.deployment.Deployment, 'run',
                        lambda self, *a, **kw: seen.append(self.phases))
    pipeline.run(fakes.deploy_request('oc', str(tmp_path / 'work')),
                 phases=phases)
    assert seen == [phases]
    assert list(phases.values())[-1] == 'request'
