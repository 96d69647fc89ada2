"""Finding and installing tripleo-heat-templates."""

import io
import os
import tarfile

import pytest

from tripleo_ephemeral import exceptions
from tripleo_ephemeral import tht


def _tree(path, version='18.0.0'):
    os.makedirs(path)
    for name in ('overcloud.j2.yaml', 'roles_data.yaml'):
        with open(os.path.join(path, name), 'w') as f:
            f.write('{}\n')
    with open(os.path.join(path, 'PKG-INFO'), 'w') as f:
        f.write('Name: tripleo-heat-templates\nVersion: %s\n' % version)


def test_find_looks_at_the_system_dir_then_the_prefix(tmp_path, monkeypatch):
    monkeypatch.setattr(tht, 'SYSTEM_DIR', str(tmp_path / 'usr'))
    with pytest.raises(exceptions.TemplatesNotFoundError) as err:
        tht.find(prefix=str(tmp_path))
    assert 'openstack tripleo templates install' in str(err.value)
    _tree(tht.prefix_dir(str(tmp_path)))
    assert tht.find(prefix=str(tmp_path)) == tht.prefix_dir(str(tmp_path))
    _tree(str(tmp_path / 'usr'))
    assert tht.find(prefix=str(tmp_path)) == str(tmp_path / 'usr')


class FakePip:
    """Stands in for ``pip download``: drops a small THT sdist."""

    def __init__(self, version='18.0.0', templates=True):
        self.version = version
        self.templates = templates
        self.calls = []

    def run(self, argv, **_kwargs):
        self.calls.append(argv)
        top = 'tripleo-heat-templates-%s' % self.version
        dest = argv[argv.index('-d') + 1]
        with tarfile.open(os.path.join(dest, top + '.tar.gz'), 'w:gz') as t:
            names = ['PKG-INFO', 'releasenotes/notes/a.yaml']
            if self.templates:
                names += ['overcloud.j2.yaml', 'roles_data.yaml']
            for name in names:
                data = ('Version: %s\n' % self.version).encode()
                info = tarfile.TarInfo('%s/%s' % (top, name))
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))


def test_install_extracts_the_templates_only(tmp_path):
    pip = FakePip()
    dest = str(tmp_path / 'share' / tht.DIR_NAME)
    path, installed = tht.install(pip, dest=dest)
    assert (path, installed) == (dest, True)
    assert tht.is_template_set(dest)
    assert not os.path.exists(os.path.join(dest, 'releasenotes'))
    assert 'tripleo-heat-templates==18.0.0' in pip.calls[0]
    # Installed already: nothing downloaded.
    assert tht.install(pip, dest=dest) == (dest, False)
    assert len(pip.calls) == 1
    assert sorted(os.listdir(tmp_path / 'share')) == [tht.DIR_NAME]


def test_install_of_a_tree_without_templates_keeps_the_old_one(tmp_path):
    dest = str(tmp_path / tht.DIR_NAME)
    _tree(dest, version='17.0.0')
    with pytest.raises(exceptions.TemplatesNotFoundError):
        tht.install(FakePip(templates=False), dest=dest)
    assert tht.installed_version(dest) == '17.0.0'
    assert sorted(os.listdir(tmp_path)) == [tht.DIR_NAME]
