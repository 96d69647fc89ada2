"""The image's wheels: from a checkout or the installed files, for the
image's Python."""

import os
import sys
import zipfile

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.images import installed_wheel
from tripleo_ephemeral.images import wheelhouse


def _site(tmp_path, editable=False):
    """A site dir holding the installed distribution ``fakepkg`` 1.0."""
    site = tmp_path / 'site'
    (site / 'fakepkg' / '__pycache__').mkdir(parents=True)
    (site / 'fakepkg' / '__init__.py').write_text('VALUE = 1\n')
    (site / 'fakepkg' / 'data.j2').write_text('{{ x }}\n')
    (site / 'fakepkg' / '__pycache__' / '__init__.cpython-311.pyc'
     ).write_bytes(b'x')
    info = site / 'fakepkg-1.0.dist-info'
    info.mkdir()
    (info / 'METADATA').write_text('Metadata-Version: 2.1\nName: fakepkg\n'
                                   'Version: 1.0\n')
    (info / 'WHEEL').write_text('Wheel-Version: 1.0\nRoot-Is-Purelib: '
                                'true\nTag: py3-none-any\n')
    (info / 'entry_points.txt').write_text(
        '[console_scripts]\nfake = fakepkg:main\n')
    (info / 'INSTALLER').write_text('pip\n')
    files = ['fakepkg/__init__.py', 'fakepkg/data.j2',
             'fakepkg/__pycache__/__init__.cpython-311.pyc',
             'fakepkg-1.0.dist-info/METADATA', 'fakepkg-1.0.dist-info/WHEEL',
             'fakepkg-1.0.dist-info/entry_points.txt',
             'fakepkg-1.0.dist-info/INSTALLER',
             'fakepkg-1.0.dist-info/RECORD', '../../../bin/fake']
    if editable:
        files.append('__editable__.fakepkg-1.0.pth')
    (info / 'RECORD').write_text(''.join('%s,,\n' % f for f in files))
    return site


def test_the_installed_files_make_the_wheel(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(_site(tmp_path)))
    path = installed_wheel.build(str(tmp_path / 'out'), 'fakepkg')
    assert os.path.basename(path) == 'fakepkg-1.0-py3-none-any.whl'
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        record = wheel.read('fakepkg-1.0.dist-info/RECORD').decode()
    assert names == ['fakepkg/__init__.py', 'fakepkg/data.j2',
                     'fakepkg-1.0.dist-info/METADATA',
                     'fakepkg-1.0.dist-info/WHEEL',
                     'fakepkg-1.0.dist-info/entry_points.txt',
                     'fakepkg-1.0.dist-info/RECORD']
    assert 'fakepkg/__init__.py,sha256=' in record
    assert record.endswith('fakepkg-1.0.dist-info/RECORD,,\n')


def test_an_install_that_is_no_wheel_says_pass_source_dir(tmp_path,
                                                          monkeypatch):
    monkeypatch.syspath_prepend(str(_site(tmp_path, editable=True)))
    with pytest.raises(exceptions.LauncherError,
                       match='editable install .* pass --source-dir'):
        installed_wheel.build(str(tmp_path / 'out'), 'fakepkg')
    with pytest.raises(exceptions.LauncherError,
                       match='no-such-dist is not installed'):
        installed_wheel.build(str(tmp_path / 'out'), 'no-such-dist')


class FakePip:
    """Records pip's argv; ``wheel`` and ``download`` leave wheels."""

    def __init__(self, dest, host_abi):
        self.dest = dest
        self.host_abi = host_abi
        self.argvs = []

    def run(self, argv, **kwargs):
        import subprocess
        self.argvs.append(argv)
        verb = argv[3]
        made = {'wheel': ['PyYAML-6.0-%s-%s-manylinux_2_17_x86_64.whl' % (
                    self.host_abi, self.host_abi), 'six-1.0-py3-none-any.whl'],
                'download': ['PyYAML-6.0-cp39-cp39-manylinux_2_17_x86_64'
                             '.whl']}.get(verb, [])
        for name in made:
            open(os.path.join(self.dest, name), 'w').close()
        out = b'six==1.0\nPyYAML==6.0\ntripleo-ephemeral==0.1.0\n' \
              b'foo @ file:///x\n' if verb == 'freeze' else b''
        return subprocess.CompletedProcess(argv, 0, out, b'')


def test_wheels_for_another_python_than_this_one(tmp_path, monkeypatch):
    dest = str(tmp_path / 'wheels')
    host = 'cp%d%d' % sys.version_info[:2]
    pip = FakePip(dest, host)
    own = str(tmp_path / 'own.whl')
    monkeypatch.setattr(installed_wheel, 'build', lambda d, name: own)
    monkeypatch.setattr(wheelhouse, 'source_dir', lambda: None)
    target = wheelhouse.PythonTarget.parse('3 9 2.31 x86_64')
    assert target.version == (3, 9) and target.glibc == (2, 31)
    wheelhouse.build(pip, dest, source=None, python='py', target=target)
    verbs = [argv[3] for argv in pip.argvs]
    assert verbs == ['freeze', 'wheel', 'download']
    download = pip.argvs[-1]
    for option in ('--python-version', '3.9', '--abi', 'cp39',
                   '--only-binary=:all:', 'manylinux_2_31_x86_64',
                   'manylinux_2_17_x86_64', 'manylinux2014_x86_64'):
        assert option in download
    assert 'manylinux_2_32_x86_64' not in download
    assert download[-2:] == [own, 'PyMySQL']
    # This Python's binary wheels are gone; pure ones serve both.
    assert sorted(os.listdir(dest)) == [
        'PyYAML-6.0-cp39-cp39-manylinux_2_17_x86_64.whl',
        'six-1.0-py3-none-any.whl']


def test_wheels_for_this_python_need_no_download(tmp_path, monkeypatch):
    dest = str(tmp_path / 'wheels')
    pip = FakePip(dest, 'cp%d%d' % sys.version_info[:2])
    monkeypatch.setattr(installed_wheel, 'build',
                        lambda d, name: str(tmp_path / 'own.whl'))
    monkeypatch.setattr(wheelhouse, 'source_dir', lambda: None)
    same = wheelhouse.PythonTarget(sys.version_info[:2])
    wheelhouse.build(pip, dest, source=None, python='py', target=same)
    assert [argv[3] for argv in pip.argvs] == ['freeze', 'wheel']
    assert wheelhouse.PythonTarget.parse('no python') is None


def test_a_pin_the_image_python_cannot_run_is_resolved_again():
    """Pinned as installed here, but for a release whose Requires-Python
    leaves the image's Python out (ansible-core 2.21 needs 3.12)."""
    import importlib.metadata

    pins = ['oslo.db==%s' % importlib.metadata.version('oslo.db'),
            'PyYAML==%s' % importlib.metadata.version('PyYAML'),
            'not-installed-here==1.0']
    assert wheelhouse._pins_for(pins, (3, 9)) == pins[1:]  # oslo.db: >=3.10
    assert wheelhouse._pins_for(pins, (3, 11)) == pins
