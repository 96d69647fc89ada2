"""The removed-server warning is said only once every input passed."""

import pytest

from tripleo_ephemeral.deploy import prepared
from tripleo_ephemeral.deploy import preparation
from tripleo_ephemeral import exceptions
from tripleo_ephemeral.tests.unit import fakes


class _Launcher:
    def pre_start_check(self):
        pass


def _deployment(tmp_path, monkeypatch, said):
    dep = preparation.Preparation(fakes.deploy_inputs('oc', str(tmp_path)),
                                  said.append)
    monkeypatch.setattr(
        dep.inputs, 'prepare', lambda say: prepared.PreparedInputs(
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
