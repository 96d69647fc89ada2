"""The TripleO's Ansible venv: pins in one file, a stamp, one-line fixes."""

import json
import os
import sys

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.ansible import install


class FakeRunner:
    """Records argv; ``python -m venv`` makes the venv's ansible-playbook."""

    def __init__(self):
        self.argvs = []

    def run(self, argv, **kwargs):
        self.argvs.append(argv)
        if argv[1:3] == ['-m', 'venv']:
            os.makedirs(os.path.join(argv[3], 'bin'))
            with open(os.path.join(argv[3], 'pyvenv.cfg'), 'w') as f:
                f.write('home = /usr/bin\n')
            path = os.path.join(argv[3], 'bin', 'ansible-playbook')
            with open(path, 'w') as f:
                f.write('#!/bin/sh\n')
            os.chmod(path, 0o755)


def test_pins_are_in_one_file():
    with_deps, no_deps = install.requirements()
    assert 'ansible-core==2.14.18' in with_deps
    assert 'ansible==7.7.0' in with_deps
    assert no_deps == ['tripleo-ansible==6.0.0', 'ansible-role-chrony==1.3.0',
                       'ansible-config-template==1.2.1']
    assert install.pins()['tripleo-ansible'] == '6.0.0'


def test_default_path_beside_the_product_or_from_the_environment(
        monkeypatch, tmp_path):
    monkeypatch.delenv(install.ENV_VAR, raising=False)
    assert install.default_path() == os.path.join(
        sys.prefix, 'share', 'tripleo-ephemeral', 'ansible')
    monkeypatch.setenv(install.ENV_VAR, str(tmp_path / 'a'))
    assert install.AnsibleInstall().path == str(tmp_path / 'a')


def test_install_is_stamped_and_then_a_no_op(tmp_path):
    runner = FakeRunner()
    ansible = install.AnsibleInstall(str(tmp_path / 'venv'))
    assert not ansible.installed()
    assert ansible.install(runner) is True
    pip = [ansible.python, '-m', 'pip', 'install', '-q',
           '--disable-pip-version-check']
    with_deps, no_deps = install.requirements()
    assert runner.argvs[1:] == [pip + with_deps,
                                pip + ['--no-deps'] + no_deps]
    assert ansible.installed()
    assert ansible.versions()['ansible-core'] == '2.14.18'
    assert ansible.install(runner) is False
    assert len(runner.argvs) == 3


def test_changed_pins_or_an_interrupted_install_install_again(tmp_path):
    runner = FakeRunner()
    ansible = install.AnsibleInstall(str(tmp_path / 'venv'))
    ansible.install(runner)
    stamp = os.path.join(ansible.path, install.STAMP)
    with open(stamp) as f:
        data = json.load(f)
    data['digest'] = 'other pins'
    with open(stamp, 'w') as f:
        json.dump(data, f)
    assert not ansible.installed()
    assert ansible.install(runner) is True
    os.remove(stamp)  # as if the last install was cut short
    assert not ansible.installed()
    assert ansible.install(runner) is True  # a venv of ours: replaced


def test_a_directory_that_is_not_a_venv_is_never_removed(tmp_path):
    mine = tmp_path / 'mine'
    mine.mkdir()
    (mine / 'notes.txt').write_text('keep me')
    ansible = install.AnsibleInstall(str(mine))
    with pytest.raises(exceptions.TripleoAnsibleError,
                       match='is not a TripleO Ansible venv: choose another'):
        ansible.install(FakeRunner())
    assert (mine / 'notes.txt').read_text() == 'keep me'


def test_missing_install_is_one_line_naming_the_command(tmp_path):
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        install.AnsibleInstall(str(tmp_path / 'none')).require()
    message = str(exc.value)
    assert '\n' not in message
    assert message.endswith(
        'install it with "openstack tripleo ansible install"')
    assert str(tmp_path / 'none') in message


class PythonsRunner:
    """Answers ``python -c`` version probes from ``versions`` (path ->
    (major, minor), or None for one that does not run)."""

    def __init__(self, versions):
        self.versions = versions

    def run(self, argv, **kwargs):
        import subprocess
        found = self.versions.get(argv[0])
        if found is None:
            return subprocess.CompletedProcess(argv, 127, b'', b'')
        return subprocess.CompletedProcess(
            argv, 0, ('%d %d\n' % found).encode(), b'')


def _on_path(monkeypatch, tmp_path, names):
    """Executables ``names`` in a directory that is all of PATH."""
    for name in names:
        path = tmp_path / name
        path.write_text('#!/bin/sh\n')
        path.chmod(0o755)
    monkeypatch.setenv('PATH', str(tmp_path))


def test_on_a_newer_python_the_usual_names_are_tried(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, 'version_info', (3, 12, 1, 'final', 0))
    _on_path(monkeypatch, tmp_path, ['python3.11', 'python3.10'])
    shim = str(tmp_path / 'python3.11')
    # A pyenv shim of a version that is not selected does not run.
    runner = PythonsRunner({shim: None, str(tmp_path / 'python3.10'):
                            (3, 10)})
    assert install.find_python(runner) == (str(tmp_path / 'python3.10'),
                                           '3.10')
    runner.versions[shim] = (3, 11)
    assert install.find_python(runner) == (shim, '3.11')


def test_python_given_must_be_one_ansible_runs_on(monkeypatch, tmp_path):
    runner = PythonsRunner({'/opt/py312': (3, 12), '/opt/py39': (3, 9)})
    assert install.find_python(runner, '/opt/py39') == ('/opt/py39', '3.9')
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        install.find_python(runner, '/opt/py312')
    assert str(exc.value) == (
        "--python /opt/py312 is Python 3.12; TripleO's Ansible "
        '(ansible-core 2.14.18) runs on Python 3.9, 3.10, 3.11: pass one of '
        'those (on RHEL 9: dnf install python3.11)')
    with pytest.raises(exceptions.TripleoAnsibleError,
                       match='is not a Python that runs'):
        install.find_python(runner, '/opt/none')


def test_no_python_ansible_runs_on_says_which_and_how(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, 'version_info', (3, 13, 0, 'final', 0))
    _on_path(monkeypatch, tmp_path, [])
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        install.find_python(PythonsRunner({}))
    assert str(exc.value) == (
        "TripleO's Ansible (ansible-core 2.14.18) runs on Python 3.9, 3.10, "
        '3.11, and this machine has none on PATH (this is Python 3.13): on '
        'RHEL 9: dnf install python3.11, or pass --python')
    # A deploy that needs it says the same before Heat starts.
    with pytest.raises(exceptions.TripleoAnsibleError) as exc:
        install.AnsibleInstall(str(tmp_path / 'none')).require(
            PythonsRunner({}))
    assert str(exc.value).endswith(
        'playbooks need it: it runs on Python 3.9, 3.10, 3.11, which this '
        'machine lacks: on RHEL 9: dnf install python3.11, then run '
        '"openstack tripleo ansible install"')


class InterruptedRunner(FakeRunner):
    """Interrupted (a signal, a failure) while pip installs."""

    def run(self, argv, **kwargs):
        assert kwargs.get('tied') is True  # killed with the command
        super().run(argv, **kwargs)
        if '--no-deps' in argv:
            raise KeyboardInterrupt()


def test_an_interrupted_install_leaves_nothing_behind(tmp_path):
    ansible = install.AnsibleInstall(str(tmp_path / 'venv'))
    with pytest.raises(KeyboardInterrupt):
        ansible.install(InterruptedRunner())
    assert not os.path.exists(ansible.path)
    assert not ansible.installed()
