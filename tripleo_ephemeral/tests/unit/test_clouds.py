import os
import stat

import yaml

from tripleo_ephemeral import clouds


def test_set_cloud_keeps_other_entries(tmp_path, monkeypatch):
    path = tmp_path / 'clouds.yaml'
    path.write_text(yaml.safe_dump({'clouds': {'prod': {'region_name': 'x'}},
                                    'other': 1}))
    monkeypatch.setenv('OS_CLIENT_CONFIG_FILE', str(path))
    assert clouds.set_cloud('heat', 'http://127.0.0.1:8006/v1/admin') == \
        str(path)
    data = yaml.safe_load(path.read_text())
    assert data['clouds']['prod'] == {'region_name': 'x'}
    assert data['other'] == 1
    assert data['clouds']['heat']['auth']['endpoint'].endswith('/v1/admin')
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    clouds.set_cloud('heat', 'http://127.0.0.1:9/v1/admin')
    data = yaml.safe_load(path.read_text())
    assert data['clouds']['heat']['auth']['endpoint'] == \
        'http://127.0.0.1:9/v1/admin'


def test_default_location_is_under_home(tmp_path, monkeypatch):
    monkeypatch.delenv('OS_CLIENT_CONFIG_FILE', raising=False)
    monkeypatch.setenv('HOME', str(tmp_path))
    path = clouds.set_cloud('heat', 'http://e/v1/admin')
    assert path == str(tmp_path / '.config/openstack/clouds.yaml')


def test_the_entries_of_stopped_heats_are_forgotten(tmp_path, monkeypatch):
    path = tmp_path / 'clouds.yaml'
    monkeypatch.setenv('OS_CLIENT_CONFIG_FILE', str(path))
    clouds.set_cloud('heat', 'http://127.0.0.1:1/s1/v1/admin',
                     heat_dir=str(tmp_path / 'a'))
    clouds.set_cloud('other', 'http://127.0.0.1:2/s2/v1/admin',
                     heat_dir=str(tmp_path / 'b'))
    clouds.set_cloud('old', 'http://127.0.0.1:3/s3/v1/admin')
    data = yaml.safe_load(path.read_text())
    data['clouds']['prod'] = {'auth_type': 'password', 'region_name': 'x'}
    path.write_text(yaml.safe_dump(data))
    seen = []

    def stopped(heat_dir, endpoint):
        seen.append((heat_dir, endpoint))
        return heat_dir == str(tmp_path / 'a') or endpoint.startswith(
            'http://127.0.0.1:3/')
    assert clouds.forget(stopped) == ['heat', 'old']
    assert sorted(yaml.safe_load(path.read_text())['clouds']) == [
        'other', 'prod']
    assert (None, 'http://127.0.0.1:3/s3/v1/admin') in seen
    assert len(seen) == 3  # never asked about another tool's cloud
    assert clouds.forget(lambda *a: True) == ['other']
    path.write_text('clouds: [broken')
    assert clouds.forget(lambda *a: True) == []
