"""openstack tripleo templates install: the real sdist from PyPI."""

import os


def test_install_then_find_it(cli, tmp_path):
    dest = str(tmp_path / 'tht')
    first = cli.json('tripleo', 'templates', 'install', '--dest', dest)
    assert first == {'templates': dest, 'version': '18.0.0',
                     'installed': True}
    assert os.path.isfile(os.path.join(dest, 'overcloud.j2.yaml'))
    assert os.path.isfile(os.path.join(dest, 'network_data_default.yaml'))
    again = cli.json('tripleo', 'templates', 'install', '--dest', dest)
    assert again['installed'] is False
