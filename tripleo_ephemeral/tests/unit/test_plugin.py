"""The plugin warns once when tripleoclient's commands share its
environment."""

import logging

import pytest

from tripleo_ephemeral import plugin
from tripleo_ephemeral.tests import fake_tripleoclient


@pytest.fixture
def fresh_warning():
    plugin.warn_beside_tripleoclient.cache_clear()
    yield
    plugin.warn_beside_tripleoclient.cache_clear()


def test_no_warning_without_tripleoclient(fresh_warning, caplog):
    caplog.set_level(logging.WARNING)
    assert plugin.shared_commands() == []
    assert plugin.warn_beside_tripleoclient() == ()
    assert caplog.records == []


def test_warns_once_beside_tripleoclient(fresh_warning, tmp_path,
                                         monkeypatch, caplog):
    monkeypatch.syspath_prepend(str(fake_tripleoclient.install(tmp_path)))
    caplog.set_level(logging.WARNING)
    assert plugin.shared_commands() == list(fake_tripleoclient.SHARED)
    for _ in range(3):
        plugin.warn_beside_tripleoclient()
    [record] = caplog.records
    message = record.getMessage()
    assert message.startswith('python-tripleoclient is installed in the '
                              'same Python environment as tripleo-ephemeral:'
                              ' 4 commands (overcloud delete, overcloud '
                              'deploy, overcloud status, tripleo launch heat)')
    assert 'venv of its own' in message
