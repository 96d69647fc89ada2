import base64
import os
import stat
import struct

from cryptography.fernet import Fernet
from cryptography.hazmat.primitives import serialization
import pytest
import yaml

from tripleo_ephemeral import exceptions
from tripleo_ephemeral.overcloud import passwords


def test_generates_every_password():
    values = passwords.complete()
    assert set(values) == set(passwords.PASSWORD_NAMES)
    assert len(passwords.PASSWORD_NAMES) == 52
    assert len(values['AdminPassword']) == passwords.DEFAULT_LENGTH
    assert len(values['PacemakerRemoteAuthkey']) == 4096
    assert len(values['MysqlRootPassword']) == 10


def test_fernet_keys_are_valid():
    repo = passwords.complete()['KeystoneFernetKeys']
    assert sorted(repo) == ['/etc/keystone/fernet-keys/0',
                            '/etc/keystone/fernet-keys/1']
    for key in repo.values():
        Fernet(key['content'])
    Fernet(passwords.complete()['KeystoneCredential0'])


def test_ssh_keypair_matches():
    pair = passwords.ssh_keypair()
    key = serialization.load_pem_private_key(
        pair['private_key'].encode(), password=None)
    public = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH,
        serialization.PublicFormat.OpenSSH).decode()
    assert pair['public_key'].startswith(public + ' ')


def test_cephx_key_layout():
    raw = base64.b64decode(passwords.cephx_key(now=1000))
    assert struct.unpack('<hiih', raw[:12]) == (1, 1000, 0, 16)
    assert len(raw) == 28


def test_file_created_then_reused(tmp_path):
    wanted = str(tmp_path / 'oc-passwords.yaml')
    path, first = passwords.ensure_passwords(wanted)
    assert path == wanted
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # Drop one value and add a user one: only the missing one is added.
    data = {'parameter_defaults': dict(first)}
    del data['parameter_defaults']['NovaPassword']
    data['parameter_defaults']['Custom'] = 'mine'
    with open(path, 'w') as f:
        yaml.safe_dump(data, f)
    _, second = passwords.ensure_passwords(path)
    assert second['AdminPassword'] == first['AdminPassword']
    assert second['MigrationSshKey'] == first['MigrationSshKey']
    assert second['Custom'] == 'mine'
    assert second['NovaPassword'] and second['NovaPassword'] != (
        first['NovaPassword'])
    assert [p for p in os.listdir(tmp_path) if p.startswith('.')] == []


def test_bad_passwords_file(tmp_path):
    (tmp_path / 'oc-passwords.yaml').write_text('- a\n')
    with pytest.raises(exceptions.PasswordsError, match='oc-passwords.yaml'):
        passwords.ensure_passwords(str(tmp_path / 'oc-passwords.yaml'))
