"""config-download rendered ahead (:class:`~.rendering.Build`): swapped in
only by render(), discarded otherwise."""

import os
import threading

import pytest

from tripleo_ephemeral.deploy import rendering
from tripleo_ephemeral import exceptions
from tripleo_ephemeral import workdir

pytestmark = pytest.mark.starts_process


def _render_files(monkeypatch, gate=None):
    def render(outputs, dest, stack, **kw):
        if gate is not None:
            gate.wait(10)
        if 'RoleData' not in outputs:
            raise exceptions.StackOutputsError('no RoleData')
        with open(os.path.join(dest, 'group_vars.yaml'), 'w') as f:
            f.write(outputs['RoleData'])
        return 1
    monkeypatch.setattr(rendering.config_download, 'render', render)


def _project(wd):
    return os.path.join(wd.config_download_dir, 'group_vars.yaml')


def _beside(wd):
    return sorted(os.listdir(os.path.dirname(wd.config_download_dir)))


def test_a_build_on_a_thread_is_what_render_swaps_in(tmp_path, monkeypatch):
    gate = threading.Event()
    _render_files(monkeypatch, gate)
    wd = workdir.WorkDir(str(tmp_path), 'oc').create()
    build = rendering.Build(wd, {'RoleData': 'new'}, [], {}).start()
    assert not os.path.exists(_project(wd))  # rendering, not swapped in
    gate.set()
    said = []
    dest = rendering.render(wd, {'RoleData': 'new'}, [], {}, said.append,
                            build=build)
    assert dest == wd.config_download_dir
    with open(_project(wd)) as f:
        assert f.read() == 'new'
    assert said[0].startswith('config-download rendered into %s in ' % dest)
    assert _beside(wd) == ['oc']  # nothing staged left beside it
    build.discard()  # safe to repeat: the project stays
    assert os.path.exists(_project(wd))


def test_a_discarded_build_leaves_the_last_project(tmp_path, monkeypatch):
    _render_files(monkeypatch)
    wd = workdir.WorkDir(str(tmp_path), 'oc').create()
    rendering.render(wd, {'RoleData': 'old'}, [], {}, lambda line: None)
    build = rendering.Build(wd, {'RoleData': 'new'}, [], {}).start()
    build.discard()  # the deploy was interrupted as Heat stopped
    with open(_project(wd)) as f:
        assert f.read() == 'old'
    assert _beside(wd) == ['oc']


def test_a_failed_build_raises_in_render_and_keeps_the_last_project(
        tmp_path, monkeypatch):
    _render_files(monkeypatch)
    wd = workdir.WorkDir(str(tmp_path), 'oc').create()
    rendering.render(wd, {'RoleData': 'old'}, [], {}, lambda line: None)
    build = rendering.Build(wd, {}, [], {}).start()
    with pytest.raises(exceptions.StackOutputsError):
        rendering.render(wd, {}, [], {}, lambda line: None, build=build)
    with open(_project(wd)) as f:
        assert f.read() == 'old'
    assert _beside(wd) == ['oc']
