"""overcloud delete: what it removes, keeps and refuses."""

import os
import stat
import tarfile

import pytest
from heatclient import exc as heat_exc

from tripleo_ephemeral.lifecycle import teardown
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import workdir


def _deployed(tmp_path):
    wd = workdir.WorkDir(str(tmp_path / 'work'), 'overcloud').create()
    wd.set_status(workdir.DEPLOY_SUCCESS)
    wd.save(wd.passwords_file, {'parameter_defaults': {'AdminPassword': 'p'}})
    return wd


def test_refuses_what_is_not_a_work_dir(tmp_path):
    other = tmp_path / 'home'
    other.mkdir()
    (other / 'precious').write_text('x')
    wd = workdir.WorkDir(str(other), 'overcloud')
    with pytest.raises(exceptions.WorkDirError, match='does not look like'):
        teardown.delete(wd)
    assert (other / 'precious').exists()
    with pytest.raises(exceptions.WorkDirError, match='No deployment'):
        teardown.delete(workdir.WorkDir(str(tmp_path / 'none')))


def test_archives_then_removes(tmp_path):
    wd = _deployed(tmp_path)
    done = teardown.delete(wd)
    assert not os.path.exists(wd.path)
    assert done['heat_stopped'] is None
    assert os.path.dirname(done['archive']) == str(tmp_path)
    assert os.path.basename(done['archive']).startswith('overcloud-deleted-')
    assert stat.S_IMODE(os.stat(done['archive']).st_mode) == 0o600
    with tarfile.open(done['archive']) as tar:
        assert 'work/overcloud-passwords.yaml' in tar.getnames()


def test_no_archive(tmp_path):
    wd = _deployed(tmp_path)
    assert teardown.delete(wd, archive=False)['archive'] is None
    assert os.listdir(tmp_path) == []


class FakeStacks:
    def __init__(self, states):
        self.states = list(states)
        self.deleted = []

    def delete(self, name):
        if self.states == ['missing']:
            raise heat_exc.HTTPNotFound()
        self.deleted.append(name)

    def get(self, name):
        state = self.states.pop(0)
        if state == 'gone':
            raise heat_exc.HTTPNotFound()
        return type('Stack', (), {'stack_status': state,
                                  'stack_status_reason': 'because'})


class FakeInstalled:
    def session(self):
        return None


@pytest.mark.parametrize('states, expected', [
    (['DELETE_IN_PROGRESS', 'gone'], True),
    (['DELETE_COMPLETE'], True),
    (['missing'], False)])
def test_installed_stack_is_deleted(tmp_path, monkeypatch, states, expected):
    stacks = FakeStacks(states)
    monkeypatch.setattr(teardown.heat_client, 'make_client',
                        lambda session: type('C', (), {'stacks': stacks}))
    wd = _deployed(tmp_path)
    done = teardown.delete(wd, installed=FakeInstalled(), archive=False)
    assert done['installed_stack_deleted'] is expected


def test_installed_delete_failure_keeps_the_work_dir(tmp_path, monkeypatch):
    stacks = FakeStacks(['DELETE_FAILED'])
    monkeypatch.setattr(teardown.heat_client, 'make_client',
                        lambda session: type('C', (), {'stacks': stacks}))
    wd = _deployed(tmp_path)
    with pytest.raises(exceptions.DeployError, match='DELETE_FAILED'):
        teardown.delete(wd, installed=FakeInstalled())
    assert os.path.isdir(wd.path)
